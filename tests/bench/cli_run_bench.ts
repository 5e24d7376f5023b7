/**
 * Cold `daedalus run`: a fresh process each time (packages/runtime/main.ts with the shipped
 * flags, exactly as `deno task run` starts it), on a home nobody holds (so it opens the
 * home in-process), for a one-tool-call turn against a fake OpenAI-compatible model on
 * 127.0.0.1: the model asks for one `read` of `notes.txt`, then answers in one chunk.
 *
 * Two figures: spawn → the model's first request (start-up until the Run is on the wire),
 * and spawn → exit (the whole one-shot, the lock released). The anchor is codex's 0.61 s
 * one-shot turn; the target is 0.5 s. `deno task bench` runs it; run as a script
 * (`deno run -A tests/bench/cli_run_bench.ts [N]`) it prints the medians of N runs, for
 * packages/runtime/README.md.
 *
 * @module
 */
import { dirname } from "node:path";
import {
  MAIN_PATH,
  makeTempHome,
  REPO_ROOT,
  RUNTIME_RUN_FLAGS,
  type TempHome,
} from "../e2e/_harness.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fixtures/fake_openai.ts";

/** One cold run's timings (ms). */
interface ColdRun {
  firstRequestMs: number;
  exitMs: number;
}

/** The home of every run: config.yaml naming the fake model, a project with notes.txt. */
async function prepare(): Promise<{ home: TempHome; fake: FakeOpenAI; project: string }> {
  const home = await makeTempHome();
  const fake = startFakeOpenAI();
  await Deno.writeTextFile(
    `${home.home}/config.yaml`,
    `version: 1\nproviders:\n  fake:\n    type: openai_compatible\n    base_url: ${fake.url}\n` +
      "    models:\n      fake-model:\n        context_window: 65536\n",
  );
  const project = `${home.workspacesRoot}/project`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(`${project}/notes.txt`, "line 1: hello from the project\n");
  return { home, fake, project };
}

/** One cold one-tool-call turn; `onFirstRequest` is called as soon as the model is asked. */
async function coldRun(
  setup: { home: TempHome; fake: FakeOpenAI; project: string },
  onFirstRequest: () => void = () => {},
) {
  const { home, fake, project } = setup;
  fake.enqueue(
    { step: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "notes.txt" } }] } },
    { step: { text: "It says hello." } },
  );
  const before = fake.requests.length;
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUNTIME_RUN_FLAGS, MAIN_PATH, "run", "read notes.txt", "--workspace", project],
    cwd: REPO_ROOT,
    env: home.env(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let firstRequestMs = NaN;
  const watching = (async () => {
    while (fake.requests.length === before) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (performance.now() - started > 30_000) return;
    }
    firstRequestMs = performance.now() - started;
    onFirstRequest();
  })();
  const output = await child.output();
  const exitMs = performance.now() - started;
  await watching;
  if (output.code !== 0) {
    throw new Error(
      `daedalus run exited ${output.code}: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return { firstRequestMs, exitMs } satisfies ColdRun;
}

const setup = await prepare();
// `deno bench` has no after-all hook: the temp home goes when the process does.
globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(dirname(setup.home.home), { recursive: true });
  } catch {
    // Already removed (the script path below disposes it itself).
  }
});
// One run before timing: Deno's module cache and V8 code cache are warm, as for any
// second use of an installed command; every timed run is still a new process.
await coldRun(setup);

Deno.bench({
  name: "daedalus run, cold: spawn → first model request (one-tool-call turn)",
  group: "cli-run",
  n: 5,
  warmup: 0,
  async fn(b) {
    b.start();
    const run = await coldRun(setup, () => b.end());
    if (!(run.firstRequestMs > 0)) throw new Error("the model was never called");
  },
});

Deno.bench({
  name: "daedalus run, cold: spawn → exit (one-tool-call turn)",
  group: "cli-run",
  baseline: true,
  n: 5,
  warmup: 0,
  async fn() {
    await coldRun(setup);
  },
});

if (import.meta.main) {
  const count = Number(Deno.args[0] ?? 7);
  const runs: ColdRun[] = [];
  for (let i = 0; i < count; i++) runs.push(await coldRun(setup));
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(JSON.stringify({
    runs: count,
    firstRequestMedianMs: Math.round(median(runs.map((run) => run.firstRequestMs))),
    exitMedianMs: Math.round(median(runs.map((run) => run.exitMs))),
    firstRequestMs: runs.map((run) => Math.round(run.firstRequestMs)),
    exitMs: runs.map((run) => Math.round(run.exitMs)),
  }));
  await setup.fake.close();
  await setup.home[Symbol.asyncDispose]();
}
