/**
 * Shared parts of the `daedalus run` / `threads` / `show` end-to-end tests: a temp home
 * whose config.yaml names one OpenAI-compatible provider at a fake model on 127.0.0.1,
 * and the real `daedalus` command (packages/runtime/main.ts with the shipped flags, never
 * `-A`) spawned with its standard input piped.
 *
 * @module
 */
import {
  MAIN_PATH,
  makeTempHome,
  REPO_ROOT,
  RUNTIME_RUN_FLAGS,
  type TempHome,
  WAIT_MS,
} from "./_harness.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fixtures/fake_openai.ts";

/** The provider and model config.yaml names. */
export const MODEL = "fake/fake-model";

/** A temp home configured for the fake model, with a project folder; dispose removes all. */
export interface CliHome extends AsyncDisposable {
  /** The temp home. */
  readonly home: TempHome;
  /** The fake model. */
  readonly fake: FakeOpenAI;
  /** A project folder holding `notes.txt`. */
  readonly project: string;
}

/**
 * Makes the home and starts the fake model.
 *
 * @returns the home
 */
export async function makeCliHome(): Promise<CliHome> {
  const home = await makeTempHome();
  const fake = startFakeOpenAI();
  await Deno.writeTextFile(
    `${home.home}/config.yaml`,
    [
      "version: 1",
      "providers:",
      "  fake:",
      "    type: openai_compatible",
      `    base_url: ${fake.url}`,
      "    models:",
      "      fake-model:",
      "        context_window: 65536",
      "",
    ].join("\n"),
  );
  const project = `${home.workspacesRoot}/project`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(`${project}/notes.txt`, "hello from the notes\n");
  return {
    home,
    fake,
    project,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

/** A spawned `daedalus` with its output collected. */
export class Daedalus implements AsyncDisposable {
  readonly process: Deno.ChildProcess;
  stdout = "";
  stderr = "";
  readonly status: Promise<Deno.CommandStatus>;
  #waiters: Array<() => void> = [];

  /**
   * Spawns `daedalus <args>`.
   *
   * @param args the command line
   * @param env the whole environment
   * @param stdin text for standard input (closed after it), or null for none
   */
  constructor(args: string[], env: Record<string, string>, stdin: string | null = null) {
    this.process = new Deno.Command(Deno.execPath(), {
      args: ["run", ...RUNTIME_RUN_FLAGS, MAIN_PATH, ...args],
      cwd: REPO_ROOT,
      env,
      clearEnv: true,
      stdin: stdin === null ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (stdin !== null) {
      const writer = this.process.stdin.getWriter();
      void writer.write(new TextEncoder().encode(stdin)).then(() => writer.close());
    }
    const collect = async (stream: ReadableStream<Uint8Array>, name: "stdout" | "stderr") => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        this[name] += chunk;
        for (const wake of this.#waiters.splice(0)) wake();
      }
    };
    const out = collect(this.process.stdout, "stdout");
    const err = collect(this.process.stderr, "stderr");
    this.status = this.process.status.then(async (status) => {
      await Promise.all([out, err]);
      for (const wake of this.#waiters.splice(0)) wake();
      return status;
    });
  }

  /**
   * Waits until `predicate` holds for the output so far.
   *
   * @param label what is awaited, for the failure message
   * @param predicate the check
   * @throws {Error} with the output when it does not hold within the wait
   */
  async waitFor(label: string, predicate: () => boolean): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!predicate()) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${label}\n${this.describe()}`);
      }
      await Promise.race([
        new Promise<void>((resolve) => this.#waiters.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
    }
  }

  /**
   * Waits for the exit (killing the process after the wait).
   *
   * @returns the exit code
   */
  async exit(): Promise<number> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), WAIT_MS));
    const status = await Promise.race([this.status, late]);
    clearTimeout(timer);
    if (status === null) {
      await this[Symbol.asyncDispose]();
      throw new Error(`daedalus did not exit within ${WAIT_MS} ms\n${this.describe()}`);
    }
    return status.code;
  }

  /** The output, for failure messages. */
  describe(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** Kills the process unless it exited, and waits for it. */
  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.process.kill("SIGKILL");
    } catch {
      // It has exited already.
    }
    await this.status;
  }
}

/**
 * Runs `daedalus <args>` to its exit.
 *
 * @param args the command line
 * @param env the whole environment
 * @param stdin text for standard input, or null
 * @returns the exit code and the output
 */
export async function daedalus(
  args: string[],
  env: Record<string, string>,
  stdin: string | null = null,
): Promise<{ code: number; stdout: string; stderr: string; describe(): string }> {
  await using child = new Daedalus(args, env, stdin);
  const code = await child.exit();
  const { stdout, stderr } = child;
  return { code, stdout, stderr, describe: () => child.describe() };
}
