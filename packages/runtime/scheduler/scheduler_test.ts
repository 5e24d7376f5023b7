import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { createThread, readRunScope, settleRun, startTurn, StateStore } from "@daedalus/storage";
import { summarizeEvents, waitUntil, within } from "../_test_wait.ts";
import { Scheduler } from "./scheduler.ts";
import { testRunConfig } from "../_test_run_config.ts";

/** One Run the fake executor is running: the test finishes it, or a cancel aborts it. */
interface Execution {
  runId: string;
  signal: AbortSignal;
  finish(): void;
}

/**
 * A scheduler over a real state store whose executor only records: each started Run
 * waits until the test finishes it, or settles cancelled once its signal aborts.
 */
async function withScheduler(
  workers: number,
  fn: (setup: {
    scheduler: Scheduler;
    store: StateStore;
    events: JournalEvent[];
    started: string[];
    running: Map<string, Execution>;
    queueRun: (threadId: string) => string;
    submit: (threadId: string) => string;
    newThread: () => Promise<string>;
    peak: () => number;
  }) => Promise<void>,
  options: { abortIgnored?: boolean; onIdle?: () => void } = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-scheduler-" });
  const events: JournalEvent[] = [];
  // Every commit is reported by the store itself, as the runtime's hub learns of it.
  const store = StateStore.open(`${dir}/state.db`, {
    onCommit: (committed) => events.push(...committed),
  });
  const started: string[] = [];
  const running = new Map<string, Execution>();
  let peak = 0;
  const scheduler = new Scheduler({
    store,
    workers,
    ...(options.onIdle ? { onIdle: options.onIdle } : {}),
    execute: (runId, signal) =>
      new Promise<void>((resolve) => {
        started.push(runId);
        const settle = (status: "completed" | "cancelled", reason: string | null) => {
          running.delete(runId);
          settleRun(store, runId, status, reason);
          resolve();
        };
        running.set(runId, { runId, signal, finish: () => settle("completed", null) });
        peak = Math.max(peak, running.size);
        if (options.abortIgnored) return;
        signal.addEventListener("abort", () => settle("cancelled", String(signal.reason)));
      }),
  });
  const newThread = async () =>
    (await createThread(store, { title: "t", workspacesRoot: `${dir}/ws` })).result.thread.id;
  const queueRun = (threadId: string) => {
    const committed = startTurn(store, {
      threadId,
      content: "go",
      providerId: "scripted",
      modelId: "scripted-model",
      runConfig: testRunConfig({ providerId: "scripted", modelId: "scripted-model" }),
    });
    return committed.result.runId;
  };
  const submit = (threadId: string) => {
    const runId = queueRun(threadId);
    scheduler.enqueue(runId, threadId);
    return runId;
  };
  try {
    await fn({
      scheduler,
      store,
      events,
      started,
      running,
      queueRun,
      submit,
      newThread,
      peak: () => peak,
    });
  } finally {
    await scheduler.shutdown(0); // what a test left running settles on the abort, synchronously
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Finishes a running Run and waits until the scheduler released its slot: fewer Runs
 * active, or the freed slot already taken by the next one.
 */
async function finish(
  scheduler: Scheduler,
  running: Map<string, Execution>,
  started: readonly string[],
  runId: string,
): Promise<void> {
  const execution = running.get(runId);
  assert.ok(execution, `run ${runId} is not running (running: ${[...running.keys()]})`);
  const [active, startedBefore] = [scheduler.activeCount, started.length];
  execution.finish();
  await waitUntil(
    `the scheduler to release run ${runId}`,
    () => scheduler.activeCount < active || started.length > startedBefore,
  );
}

function statusOf(store: StateStore, runId: string): string {
  return store.read((db) => readRunScope(db, runId)).status;
}

function settlementsOf(events: readonly JournalEvent[], runId: string): JournalEvent[] {
  return events.filter((e) => e.type === "run.settled" && e.runId === runId);
}

Deno.test("queued Runs start in the order they were queued (FIFO), one pool slot at a time", async () => {
  await withScheduler(1, async ({ scheduler, running, started, submit, newThread }) => {
    const runs = [submit(await newThread()), submit(await newThread()), submit(await newThread())];
    assert.deepEqual(started, [runs[0]], "one worker: only the first runs");
    await finish(scheduler, running, started, runs[0]!);
    assert.deepEqual(started, runs.slice(0, 2));
    await finish(scheduler, running, started, runs[1]!);
    assert.deepEqual(started, runs);
  });
});

Deno.test("Runs of one thread run one at a time, in order; other threads run beside them", async () => {
  await withScheduler(4, async ({ scheduler, running, started, submit, newThread, store }) => {
    const one = await newThread();
    const first = submit(one);
    const second = submit(one);
    const third = submit(one);
    const other = submit(await newThread());
    assert.deepEqual(started, [first, other], "the other thread is not held behind thread one");
    assert.equal(statusOf(store, second), "queued");
    assert.equal(scheduler.isThreadBusy(one), true);
    await finish(scheduler, running, started, first);
    assert.deepEqual(started, [first, other, second], "the thread's next Run, not the third");
    await finish(scheduler, running, started, second);
    assert.deepEqual(started, [first, other, second, third]);
  });
});

Deno.test("a thread's Runs start in the order they were submitted, whatever order they are queued in", async () => {
  await withScheduler(2, async ({ scheduler, running, started, queueRun, newThread }) => {
    const one = await newThread();
    const blocker = queueRun(one);
    const first = queueRun(one);
    const second = queueRun(one);
    // The submitters got round to queueing them the other way round (two connections).
    scheduler.enqueue(blocker, one);
    scheduler.enqueue(second, one);
    scheduler.enqueue(first, one);
    assert.deepEqual(started, [blocker]);
    await finish(scheduler, running, started, blocker);
    assert.deepEqual(started, [blocker, first], "the earlier submission goes first");
    await finish(scheduler, running, started, first);
    assert.deepEqual(started, [blocker, first, second]);
  });
});

Deno.test("no more Runs execute at once than there are workers", async () => {
  await withScheduler(2, async ({ scheduler, running, started, submit, newThread, peak }) => {
    const runs: string[] = [];
    for (let index = 0; index < 5; index++) runs.push(submit(await newThread()));
    assert.equal(scheduler.activeCount, 2);
    assert.deepEqual(started, runs.slice(0, 2));
    while (running.size > 0) {
      await finish(scheduler, running, started, [...running.keys()][0]!);
      assert.ok(running.size <= 2, `${running.size} running with 2 workers`);
    }
    assert.equal(peak(), 2, "the pool never ran a third");
    assert.deepEqual(started, runs, "and took them in queue order");
  });
});

Deno.test("a Run queued twice is executed once", async () => {
  await withScheduler(2, async ({ scheduler, running, started, submit, newThread }) => {
    const thread = await newThread();
    const run = submit(thread);
    scheduler.enqueue(run, thread);
    await finish(scheduler, running, started, run);
    scheduler.enqueue(run, thread); // settled now: activating it again is refused
    assert.deepEqual(started, [run]);
  });
});

Deno.test("cancelling a queued Run settles it cancelled without executing it", async () => {
  await withScheduler(
    1,
    async ({ scheduler, running, started, submit, newThread, events, store }) => {
      const waiting = await newThread();
      const active = submit(await newThread());
      const queued = submit(waiting);
      const after = submit(await newThread());
      assert.equal(scheduler.cancel(queued), true, "the scheduler held it");
      assert.equal(statusOf(store, queued), "cancelled");
      const settled = settlementsOf(events, queued);
      assert.equal(settled.length, 1, summarizeEvents(events));
      assert.deepEqual(
        [settled[0]!.payload.status, settled[0]!.payload.reasonCode],
        ["cancelled", "cancelled"],
      );
      assert.equal(scheduler.isThreadBusy(waiting), false);
      await finish(scheduler, running, started, active);
      assert.deepEqual(started, [active, after], "the cancelled Run never ran; the next one did");
    },
  );
});

Deno.test("cancelling a running Run aborts its signal; the Run settles itself, once", async () => {
  await withScheduler(1, async ({ scheduler, running, started, submit, newThread, events }) => {
    const run = submit(await newThread());
    const next = submit(await newThread());
    const signal = running.get(run)!.signal;
    assert.equal(scheduler.cancel(run), true);
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, "cancelled");
    await waitUntil(
      "the next run to take the freed slot",
      () => started.includes(next) || undefined,
    );
    assert.equal(settlementsOf(events, run).length, 1, summarizeEvents(events));
    assert.equal(scheduler.cancel(run), false, "a settled Run is no longer the scheduler's");
    assert.equal(settlementsOf(events, run).length, 1, "cancelling again settles nothing more");
  });
});

Deno.test("cancelling a Run the scheduler never saw still settles it once (idempotent)", async () => {
  await withScheduler(1, async ({ scheduler, queueRun, newThread, events, store }) => {
    const run = queueRun(await newThread()); // committed queued, not yet enqueued
    assert.equal(scheduler.cancel(run), false);
    assert.equal(statusOf(store, run), "cancelled");
    scheduler.cancel(run);
    assert.equal(settlementsOf(events, run).length, 1);
  });
});

Deno.test("a Run settled while it was queued is skipped, and the next one starts", async () => {
  await withScheduler(1, async ({ scheduler, running, started, submit, newThread, store }) => {
    const first = submit(await newThread());
    const gone = submit(await newThread());
    const next = submit(await newThread());
    settleRun(store, gone, "cancelled", "cancelled"); // e.g. cancelled by another path
    await finish(scheduler, running, started, first);
    assert.deepEqual(started, [first, next]);
  });
});

Deno.test("an executor that throws frees its slot for the next Run", async () => {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.join(" "));
  try {
    const dir = await Deno.makeTempDir({ prefix: "daedalus-scheduler-" });
    const store = StateStore.open(`${dir}/state.db`);
    const started: string[] = [];
    const scheduler = new Scheduler({
      store,
      workers: 1,
      execute: (runId) => {
        started.push(runId);
        return started.length === 1 ? Promise.reject(new Error("loop crashed")) : new Promise(
          () => {},
        );
      },
    });
    try {
      const thread = (await createThread(store, { workspacesRoot: `${dir}/ws` })).result.thread.id;
      const turn = () =>
        startTurn(store, {
          threadId: thread,
          content: "go",
          providerId: "scripted",
          modelId: "scripted-model",
          runConfig: testRunConfig({ providerId: "scripted", modelId: "scripted-model" }),
        }).result.runId;
      const first = turn();
      const second = turn();
      scheduler.enqueue(first, thread);
      scheduler.enqueue(second, thread);
      await waitUntil(
        "the second run to start",
        () => started.length === 2 || undefined,
        () => `started: ${started}`,
      );
      assert.ok(String(errors[0]).includes("loop crashed"), `logged: ${errors}`);
    } finally {
      await scheduler.shutdown(0);
      store.close();
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    console.error = original;
  }
});

Deno.test("shutdown cancels queued Runs, aborts running ones and takes no new ones", async () => {
  await withScheduler(1, async ({ scheduler, running, started, submit, newThread, events }) => {
    const active = submit(await newThread());
    const queued = submit(await newThread());
    const signal = running.get(active)!.signal;
    await within(scheduler.shutdown(10_000), "shutdown to wait for the aborted run");
    assert.equal(scheduler.accepting, false);
    assert.equal(signal.reason, "runtime_shutdown");
    assert.equal(scheduler.activeCount, 0, "shutdown waited for the running Run");
    assert.equal(settlementsOf(events, queued)[0]?.payload.reasonCode, "runtime_shutdown");
    submit(await newThread());
    assert.deepEqual(started, [active], "nothing starts after shutdown");
  });
});

Deno.test("shutdown stops waiting for a Run that ignores its abort", async () => {
  await withScheduler(1, async ({ scheduler, submit, newThread }) => {
    submit(await newThread());
    await within(scheduler.shutdown(20), "shutdown to give up on the stuck run");
    assert.equal(scheduler.activeCount, 1, "the stuck Run is still running");
  }, { abortIgnored: true });
});

Deno.test("an inline Run runs beside a full pool and holds its thread until it is done", async () => {
  await withScheduler(1, async ({ scheduler, running, started, queueRun, submit, newThread }) => {
    const pooled = submit(await newThread());
    const child = await newThread();
    const inlineRun = queueRun(child);
    const parent = new AbortController();
    const inline = scheduler.runInline(inlineRun, child, parent.signal);
    assert.deepEqual(started, [pooled, inlineRun], "the full pool did not hold the inline Run");
    assert.equal(scheduler.isThreadBusy(child), true);
    await assert.rejects(
      scheduler.runInline(queueRun(child), child, parent.signal),
      /is busy/,
      "a second inline Run on a busy thread is refused",
    );
    const queuedBehind = submit(child);
    running.get(inlineRun)!.finish();
    await within(inline, "the inline Run to return");
    assert.equal(scheduler.isThreadBusy(child), true, "the queued Run of the thread still waits");
    await finish(scheduler, running, started, pooled);
    assert.deepEqual(started, [pooled, inlineRun, queuedBehind]);
  });
});

Deno.test("an inline Run is cancelled with its caller", async () => {
  await withScheduler(1, async ({ scheduler, running, queueRun, newThread, store }) => {
    const thread = await newThread();
    const run = queueRun(thread);
    const parent = new AbortController();
    const inline = scheduler.runInline(run, thread, parent.signal);
    parent.abort("cancelled");
    await within(inline, "the inline Run to end after its caller was cancelled");
    assert.equal(running.size, 0);
    assert.equal(statusOf(store, run), "cancelled");
    assert.equal(scheduler.isThreadBusy(thread), false);
  });
});

Deno.test("cancel reaches an inline Run too", async () => {
  await withScheduler(1, async ({ scheduler, queueRun, newThread, store }) => {
    const thread = await newThread();
    const run = queueRun(thread);
    const inline = scheduler.runInline(run, thread, new AbortController().signal);
    assert.equal(scheduler.cancel(run), true);
    await within(inline, "the cancelled inline Run to return");
    assert.equal(statusOf(store, run), "cancelled");
  });
});

Deno.test("a thread's later Run waits for an earlier submission that is committed but not queued yet", async () => {
  await withScheduler(3, async ({ scheduler, running, started, queueRun, newThread }) => {
    const thread = await newThread();
    // Two connections' turn.starts: both committed, the later one queued first.
    const first = queueRun(thread);
    const second = queueRun(thread);
    scheduler.enqueue(second, thread);
    assert.deepEqual(started, [], "the later Run did not start ahead of the earlier one");
    scheduler.enqueue(first, thread);
    assert.deepEqual(started, [first]);
    await finish(scheduler, running, started, first);
    assert.deepEqual(started, [first, second]);
  });
});

Deno.test("an inline Run refused on a busy thread is settled, not left queued", async () => {
  await withScheduler(1, async ({ scheduler, queueRun, submit, newThread, store }) => {
    const thread = await newThread();
    submit(thread);
    const refused = queueRun(thread);
    await assert.rejects(
      scheduler.runInline(refused, thread, new AbortController().signal),
      /is busy/,
    );
    assert.equal(statusOf(store, refused), "cancelled");
  });
});

Deno.test("onIdle is called when the last running Run has finished, not while another runs", async () => {
  let idle = 0;
  await withScheduler(2, async ({ scheduler, running, started, submit, newThread }) => {
    const first = submit(await newThread());
    const second = submit(await newThread());
    assert.deepEqual(started, [first, second], "two workers: both run");
    await finish(scheduler, running, started, first);
    assert.equal(idle, 0, "the second still runs");
    await finish(scheduler, running, started, second);
    assert.equal(idle, 1, "none runs any more");
    const third = submit(await newThread());
    await finish(scheduler, running, started, third);
    assert.equal(idle, 2, "idle again after the next one");
  }, { onIdle: () => idle++ });
});
