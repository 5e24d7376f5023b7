/**
 * Shared parts of the end-to-end tests that deal with processes: temp homes, the real
 * `daedalus serve` (the scripted fixture, or `packages/runtime/main.ts`) as a child
 * process with its output collected, and reading the access token.
 *
 * Everything here cleans up through `await using` (a try/finally underneath): processes
 * are killed and awaited, temp directories removed, even when a test fails.
 *
 * Every runtime a test spawns runs with exactly the flags `deno task start` uses
 * ({@linkcode RUNTIME_FLAGS}), never `-A`: a feature that works only under `-A` does not
 * work. {@linkcode assertShippedFlags} proves it from the child's own command line.
 *
 * @module
 */
import { RUNTIME_FLAGS, RUNTIME_RUN_FLAGS } from "../../scripts/runtime_flags.ts";

export { RUNTIME_FLAGS, RUNTIME_RUN_FLAGS };

/** The repository root. */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname;
/** The scripted `daedalus serve` fixture. */
export const FIXTURE_PATH: string =
  new URL("../fixtures/scripted_server.ts", import.meta.url).pathname;
/** The real `daedalus` command. */
export const MAIN_PATH: string =
  new URL("../../packages/runtime/main.ts", import.meta.url).pathname;
/** Generous wait for anything a test waits on (start-up, a run, an exit). */
export const WAIT_MS = 30_000;

/** A temp runtime home and workspaces root, removed on dispose. */
export interface TempHome extends AsyncDisposable {
  /** `DAEDALUS_HOME`. */
  readonly home: string;
  /** `DAEDALUS_WORKSPACES_ROOT`. */
  readonly workspacesRoot: string;
  /** The environment a child runtime gets. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/**
 * Makes a temp home and a temp workspaces root (nothing lands in ~/Documents).
 *
 * @returns the home; dispose removes both
 */
export async function makeTempHome(): Promise<TempHome> {
  const root = await Deno.makeTempDir({ prefix: "daedalus_e2e_" });
  const home = `${root}/home`;
  const workspacesRoot = `${root}/workspaces`;
  await Deno.mkdir(home);
  await Deno.mkdir(workspacesRoot);
  return {
    home,
    workspacesRoot,
    env: (extra = {}) =>
      childEnv({
        DAEDALUS_HOME: home,
        DAEDALUS_WORKSPACES_ROOT: workspacesRoot,
        NO_COLOR: "1",
        ...extra,
      }),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** The parent's environment without any DAEDALUS_* variable, plus `vars`. */
function childEnv(vars: Record<string, string>): Record<string, string> {
  const inherited = Object.entries(Deno.env.toObject()).filter(([name]) =>
    !name.startsWith("DAEDALUS_")
  );
  return { ...Object.fromEntries(inherited), ...vars };
}

/** What a child's output stream has said so far. */
class OutputBuffer {
  text = "";
  readonly done: Promise<void>;
  #waiters: Array<() => void> = [];

  constructor(stream: ReadableStream<Uint8Array>) {
    this.done = (async () => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        this.text += chunk;
        for (const wake of this.#waiters.splice(0)) wake();
      }
      for (const wake of this.#waiters.splice(0)) wake();
    })();
  }

  /** Resolves at the next chunk or at the end of the stream. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** The JSON ready line of `daedalus serve`. */
export interface ReadyLine {
  ready: true;
  url: string;
  port: number;
  home: string;
  pid: number;
}

/** A child `deno run <RUNTIME_RUN_FLAGS> <script> …` with its output collected. */
export class ChildProcess implements AsyncDisposable {
  readonly process: Deno.ChildProcess;
  readonly #stdout: OutputBuffer;
  readonly #stderr: OutputBuffer;
  #exited: Deno.CommandStatus | null = null;
  readonly status: Promise<Deno.CommandStatus>;

  /**
   * Spawns the script.
   *
   * @param script the module to run
   * @param args its arguments
   * @param env its whole environment
   */
  constructor(script: string, args: string[], env: Record<string, string>) {
    this.process = new Deno.Command(Deno.execPath(), {
      args: ["run", ...RUNTIME_RUN_FLAGS, script, ...args],
      cwd: REPO_ROOT,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stdout = new OutputBuffer(this.process.stdout);
    this.#stderr = new OutputBuffer(this.process.stderr);
    this.status = this.process.status.then(async (status) => {
      await Promise.all([this.#stdout.done, this.#stderr.done]);
      return this.#exited = status;
    });
  }

  /** Everything printed on stdout so far. */
  get stdout(): string {
    return this.#stdout.text;
  }

  /** Everything printed on stderr so far. */
  get stderr(): string {
    return this.#stderr.text;
  }

  /** Whether the process has exited (and its output is complete). */
  get exited(): boolean {
    return this.#exited !== null;
  }

  /**
   * Waits for the first stdout line.
   *
   * @param timeoutMs how long to wait
   * @returns the line, without its newline
   * @throws {Error} with the child's output when it exits first or takes too long
   */
  async firstStdoutLine(timeoutMs = WAIT_MS): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
    let timedOut = false;
    void late.then(() => timedOut = true);
    try {
      while (!this.#stdout.text.includes("\n")) {
        if (this.exited || timedOut) {
          const why = this.exited ? "the process exited" : `none within ${timeoutMs} ms`;
          throw new Error(`no line on stdout: ${why}\n${this.describe()}`);
        }
        await Promise.race([this.#stdout.changed(), this.status, late]);
      }
    } finally {
      clearTimeout(timer);
    }
    return this.#stdout.text.slice(0, this.#stdout.text.indexOf("\n"));
  }

  /**
   * Waits for the exit; kills the process (SIGKILL) when it takes longer than `timeoutMs`.
   *
   * @returns the exit status
   * @throws {Error} with the output when it had to be killed
   */
  async exit(timeoutMs = WAIT_MS): Promise<Deno.CommandStatus> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) =>
      timer = setTimeout(() => resolve("late"), timeoutMs)
    );
    const outcome = await Promise.race([this.status, late]);
    clearTimeout(timer);
    if (outcome !== "late") return outcome;
    await this[Symbol.asyncDispose]();
    throw new Error(`process did not exit within ${timeoutMs} ms\n${this.describe()}`);
  }

  /**
   * Sends a signal if the process still runs.
   *
   * @param signal the signal
   */
  kill(signal: Deno.Signal): void {
    if (this.exited) return;
    try {
      this.process.kill(signal);
    } catch (error) {
      // It exited between the check and the kill: nothing is left to stop.
      if (!(error instanceof TypeError)) throw error;
    }
  }

  /** The output, for failure messages. */
  describe(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** Kills the process unless it already exited, and waits for it and its output. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.kill("SIGKILL");
    await this.status;
  }
}

/** A running `daedalus serve` child process. */
export interface ServerProcess extends AsyncDisposable {
  /** The child. */
  readonly child: ChildProcess;
  /** The parsed ready line. */
  readonly ready: ReadyLine;
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The home it runs on. */
  readonly home: string;
  /** @returns the token in `<home>/auth.json` now */
  token(): Promise<string>;
}

/**
 * Starts the scripted fixture on a home and waits for its ready line.
 *
 * @param home the temp home
 * @param extraEnv more environment variables
 * @param port the port (default 0: any free one; a restart passes the old one)
 * @returns the running server; dispose kills it (SIGKILL) unless it exited
 * @throws {Error} with the output when it does not become ready
 */
export function startFixture(
  home: TempHome,
  extraEnv: Record<string, string> = {},
  port = 0,
): Promise<ServerProcess> {
  return startServer(FIXTURE_PATH, ["--port", String(port)], home, extraEnv);
}

/**
 * Starts the real `daedalus serve` (packages/runtime/main.ts, no scripted model) on a home,
 * as `deno task start` runs it, and waits for its ready line.
 *
 * @param home the temp home
 * @param extraEnv more environment variables
 * @param port the port (default 0: any free one)
 * @returns the running server; dispose kills it (SIGKILL) unless it exited
 * @throws {Error} with the output when it does not become ready
 */
export function startShippedRuntime(
  home: TempHome,
  extraEnv: Record<string, string> = {},
  port = 0,
): Promise<ServerProcess> {
  return startServer(MAIN_PATH, ["serve", "--port", String(port)], home, extraEnv);
}

async function startServer(
  script: string,
  args: string[],
  home: TempHome,
  extraEnv: Record<string, string>,
): Promise<ServerProcess> {
  const child = new ChildProcess(script, args, home.env(extraEnv));
  let ready: ReadyLine;
  try {
    const line = await child.firstStdoutLine();
    try {
      ready = JSON.parse(line) as ReadyLine;
    } catch (error) {
      throw new Error(`the first stdout line is not JSON\n${child.describe()}`, { cause: error });
    }
    await assertShippedFlags(child.process.pid);
  } catch (error) {
    await child[Symbol.asyncDispose]();
    throw error;
  }
  return {
    child,
    ready,
    url: ready.url,
    port: ready.port,
    home: home.home,
    token: () => readToken(home.home),
    [Symbol.asyncDispose]: () => child[Symbol.asyncDispose](),
  };
}

/**
 * Reads the access token of a home.
 *
 * @param home the runtime home
 * @returns the `token` field of `auth.json`
 */
export async function readToken(home: string): Promise<string> {
  const file = JSON.parse(await Deno.readTextFile(`${home}/auth.json`)) as { token: string };
  return file.token;
}

/**
 * Runs `daedalus <args>` (packages/runtime/main.ts) to its exit.
 *
 * @param args the command line
 * @param env its whole environment
 * @param timeoutMs the longest wait before it is killed (and the test fails)
 * @returns the exit status and output
 */
export async function runDaedalus(
  args: string[],
  env: Record<string, string>,
  timeoutMs = WAIT_MS,
): Promise<{ status: Deno.CommandStatus; stdout: string; stderr: string }> {
  await using child = new ChildProcess(MAIN_PATH, args, env);
  const status = await child.exit(timeoutMs);
  return { status, stdout: child.stdout, stderr: child.stderr };
}

/**
 * Checks, from `/proc/<pid>/cmdline`, that a spawned runtime got exactly the shipped
 * flags: every argument between `run` and the script is one of
 * {@linkcode RUNTIME_RUN_FLAGS}, and all of them are there.
 *
 * @param pid the child's process id
 * @throws {Error} naming the flags when they differ
 */
export async function assertShippedFlags(pid: number): Promise<void> {
  const raw = await Deno.readTextFile(`/proc/${pid}/cmdline`);
  const argv = raw.split("\0").filter((arg) => arg !== "");
  const run = argv.indexOf("run");
  const script = argv.findIndex((arg, index) => index > run && !arg.startsWith("-"));
  const flags = argv.slice(run + 1, script);
  const same = flags.length === RUNTIME_RUN_FLAGS.length &&
    RUNTIME_RUN_FLAGS.every((flag) => flags.includes(flag));
  if (run < 0 || script < 0 || !same) {
    throw new Error(
      `a spawned runtime must run with the shipped flags ${RUNTIME_RUN_FLAGS.join(" ")}; ` +
        `it got: ${argv.join(" ")}`,
    );
  }
}
