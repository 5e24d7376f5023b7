/**
 * "A Run waiting for approval holds no worker" (issue 14): two runtime cores in process,
 * each with a pool of 6 workers and the scripted model. On one, 20 threads each have a Run
 * waiting for approval (a command under the default preset, `ask`); the other has none. A
 * 21st thread's Run (one model call, no tool) is timed from `turn.start` to its
 * `run.settled` on both: if waiting Runs held workers, the 21st would queue behind them and
 * never start (the measurement gives up after 10 s and fails the bench).
 *
 * At load it prints, for both cores, the median and p90 of 40 Runs after 10 warm-up Runs
 * and the scheduler's counts; then `Deno.bench` times the same Run on both (baseline: no
 * Runs waiting). Results: packages/runtime/README.md.
 */
import { join } from "node:path";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore, type RuntimeCore } from "../../packages/runtime/runtime_core.ts";
import { createScriptedProvider } from "../../packages/runtime/providers/scripted.ts";
import type { ProviderRequest } from "../../packages/runtime/providers/provider.ts";
import type { RpcSession } from "../../packages/runtime/server/dispatcher.ts";

const WORKERS = 6;
const WAITING_RUNS = 20;
const WARMUP_RUNS = 10;
const MEASURED_RUNS = 40;
/** Longest a free thread's Run may take before the bench calls the pool blocked. */
const BLOCKED_AFTER_MS = 10_000;

const session: RpcSession = { id: "bench", transport: "http" };
const COMMAND = { name: "process_start", arguments: { command: "echo approved-output" } };

/** "free thread" answers at once; any other turn asks to run a command (and waits). */
function script(request: ProviderRequest) {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { text: ["done"] };
  return JSON.stringify(request.messages).includes("free thread")
    ? { text: ["free"] }
    : { toolCalls: [COMMAND] };
}

/** A core, its home, and a way to wait for a journal event. */
interface World {
  readonly core: RuntimeCore;
  readonly home: string;
  call(method: string, params: unknown): Promise<Record<string, unknown>>;
  next(label: string, match: (event: JournalEvent) => boolean): Promise<JournalEvent>;
}

async function openWorld(prefix: string): Promise<World> {
  const home = await Deno.makeTempDir({ prefix });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: join(home, "ws"),
    threadTitles: false,
    memoryRefinement: false,
    workers: WORKERS,
    providers: [createScriptedProvider({ script })],
  });
  const watchers = new Set<(event: JournalEvent) => void>();
  core.hub.subscribe((event) => {
    for (const watch of watchers) watch(event);
  });
  return {
    core,
    home,
    async call(method, params) {
      const outcome = await core.dispatcher.dispatch(method, params, session);
      // Publishes the call's events and starts queued Runs, as the transport does after replying.
      outcome.afterResponse?.();
      return outcome.result as Record<string, unknown>;
    },
    // Subscribed before the call that causes the event, so it cannot be missed.
    next: (label, match) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`${label}: nothing after ${BLOCKED_AFTER_MS} ms (pool blocked?)`));
        }, BLOCKED_AFTER_MS);
        const watch = (event: JournalEvent) => {
          if (!match(event)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve(event);
        };
        watchers.add(watch);
      }),
  };
}

async function newThread(world: World): Promise<string> {
  return ((await world.call("thread.create", { title: "bench" })).thread as { id: string }).id;
}

/** Starts a turn under the default preset; resolves with its Run id. */
async function startTurn(world: World, threadId: string, content: string): Promise<string> {
  const started = await world.call("turn.start", {
    threadId,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
  });
  return started.runId as string;
}

/**
 * One free thread's Run, timed from `turn.start` to `run.settled` (the thread is made
 * before the clock starts).
 */
async function freeRunMs(world: World, b?: Deno.BenchContext): Promise<number> {
  const threadId = await newThread(world);
  let runId = "";
  const settled = world.next(
    "the free thread's Run to settle",
    (e) => e.type === "run.settled" && e.runId === runId,
  );
  b?.start();
  const started = performance.now();
  runId = await startTurn(world, threadId, "free thread");
  const event = await settled;
  const elapsed = performance.now() - started;
  b?.end();
  if (event.payload.status !== "completed") {
    throw new Error(`the free thread's Run settled ${JSON.stringify(event.payload)}`);
  }
  return elapsed;
}

const idle = await openWorld("daedalus-bench-approval-idle-");
const busy = await openWorld("daedalus-bench-approval-waiting-");
for (let n = 0; n < WAITING_RUNS; n++) {
  const threadId = await newThread(busy);
  let runId = "";
  const asked = busy.next(
    `approval ${n + 1} of ${WAITING_RUNS}`,
    (e) => e.type === "approval.requested" && e.runId === runId,
  );
  runId = await startTurn(busy, threadId, "run the command");
  await asked;
}
// The Run turns waiting right after its approval is committed; give the workers a moment.
for (let tries = 0; busy.core.scheduler.activeCount > 0 && tries < 100; tries++) {
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const counts = () =>
  `waiting ${busy.core.scheduler.waitingCount}, workers busy ${busy.core.scheduler.activeCount}` +
  ` of ${WORKERS}`;
if (busy.core.scheduler.waitingCount !== WAITING_RUNS) {
  throw new Error(`expected ${WAITING_RUNS} Runs waiting for approval; ${counts()}`);
}
const countsBefore = counts();

async function measure(world: World): Promise<{ median: number; p90: number }> {
  for (let n = 0; n < WARMUP_RUNS; n++) await freeRunMs(world);
  const times: number[] = [];
  for (let n = 0; n < MEASURED_RUNS; n++) times.push(await freeRunMs(world));
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { median: at(0.5), p90: at(0.9) };
}
const baseline = await measure(idle);
const withWaiting = await measure(busy);
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(
  `a free thread's Run, turn.start → run.settled (${MEASURED_RUNS} Runs, pool of ${WORKERS}):\n` +
    `  no Runs waiting: median ${ms(baseline.median)}, p90 ${ms(baseline.p90)}\n` +
    `  ${WAITING_RUNS} Runs waiting for approval (${countsBefore}): ` +
    `median ${ms(withWaiting.median)}, p90 ${ms(withWaiting.p90)} ` +
    `(${(withWaiting.median / baseline.median).toFixed(2)}× the baseline)`,
);

Deno.bench("a free thread's Run, no Runs waiting", {
  group: "approval wait",
  baseline: true,
}, async (b) => {
  await freeRunMs(idle, b);
});

Deno.bench(`a free thread's Run beside ${WAITING_RUNS} Runs waiting for approval`, {
  group: "approval wait",
}, async (b) => {
  await freeRunMs(busy, b);
});

// unload cannot wait for close(); the stores' files can go while open (POSIX).
globalThis.addEventListener("unload", () => {
  for (const world of [idle, busy]) {
    try {
      Deno.removeSync(world.home, { recursive: true });
    } catch {
      // Left in the temp folder: harmless.
    }
  }
});
