/**
 * Test helper: runs a fixture script in a child Deno process and reads its stdout by line.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** A running fixture process. */
export interface FixtureChild {
  /** The child process; its stdin is piped. */
  readonly process: Deno.ChildProcess;
  /**
   * Waits for the next stdout line.
   *
   * @returns the line, or `undefined` at end of output
   */
  nextLine(): Promise<string | undefined>;
  /**
   * Kills the child with `signal` (if still running) and waits for it to exit.
   *
   * @param signal the signal to send
   * @returns the exit status
   */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts `deno run -A <fixture> ...args` from the storage package directory.
 *
 * @param fixture file name inside `testdata/`
 * @param args arguments for the fixture
 * @returns the running child
 */
export function spawnFixture(fixture: string, args: string[]): FixtureChild {
  const script = fileURLToPath(new URL(fixture, import.meta.url));
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script, ...args],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let ended = false;

  async function nextLine(): Promise<string | undefined> {
    while (!buffered.includes("\n")) {
      if (ended) return buffered === "" ? undefined : takeRest();
      const { value, done } = await lines.read();
      if (done) ended = true;
      else buffered += value;
    }
    const newline = buffered.indexOf("\n");
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    return line;
  }

  function takeRest(): string {
    const rest = buffered;
    buffered = "";
    return rest;
  }

  async function stop(signal: Deno.Signal = "SIGKILL"): Promise<Deno.CommandStatus> {
    try {
      process.kill(signal);
    } catch (error) {
      // Already exited: there is nothing to kill, only a status to collect.
      if (!(error instanceof TypeError)) throw error;
    }
    await process.stdin.close().catch(() => {
      // The pipe is already closed when the child exited or the test closed it.
    });
    await lines.cancel();
    return await process.status;
  }

  return { process, nextLine, stop };
}
