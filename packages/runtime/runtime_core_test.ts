import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import {
  activateRun,
  appendItemDelta,
  createThread,
  homePaths,
  startItem,
  startTurn,
  StateStore,
} from "@daedalus/storage";
import { openRuntimeCore, type RuntimeCoreOptions } from "./runtime_core.ts";
import { createScriptedProvider, type Script } from "./providers/scripted.ts";
import { messageText } from "./providers/provider.ts";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import type { RpcSession } from "./server/dispatcher.ts";
import { eventSeen, runSettled, waitUntil } from "./_test_wait.ts";
import { testRunConfig } from "./_test_run_config.ts";

const session: RpcSession = { id: "test", transport: "http" };

async function withCore(
  script: Script,
  fn: (core: Awaited<ReturnType<typeof openRuntimeCore>>, events: JournalEvent[]) => Promise<void>,
  options: Partial<RuntimeCoreOptions> & { home?: string } = {},
) {
  const home = options.home ?? await Deno.makeTempDir({ prefix: "daedalus-core-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [createScriptedProvider({ script })],
    tools: [echoTool],
    threadTitles: false,
    memoryRefinement: false,
    ...options,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  try {
    await fn(core, events);
  } finally {
    await core.close();
    if (!options.home) await Deno.remove(home, { recursive: true });
  }
}

const echoTool = defineTool({
  id: "echo",
  description: "Echoes its text",
  params: z.object({ text: z.string().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: `echo: ${params.text}` }),
});

async function call(
  core: Awaited<ReturnType<typeof openRuntimeCore>>,
  method: string,
  params: unknown,
) {
  const outcome = await core.dispatcher.dispatch(method, params, session);
  outcome.afterResponse?.();
  // deno-lint-ignore no-explicit-any
  return outcome.result as any;
}

const settled = runSettled;

async function newThread(core: Awaited<ReturnType<typeof openRuntimeCore>>) {
  return (await call(core, "thread.create", { title: "t" })).thread;
}

const turn = (threadId: string, content: string, extra = {}) => ({
  threadId,
  content,
  providerId: "scripted",
  modelId: "scripted-model",
  // The tools these Runs call run without asking (the default preset, ask, is tested in
  // loop/approvals_flow_test.ts).
  executionPolicy: "full_access",
  ...extra,
});

Deno.test("a scripted run streams text, calls a tool and completes with one settlement", async () => {
  await withCore([
    { text: ["Let me ", "check."], toolCalls: [{ name: "echo", arguments: { text: "hi" } }] },
    { text: ["Done: ", "echo: hi"] },
  ], async (core, events) => {
    const thread = await newThread(core);
    const started = await call(core, "turn.start", turn(thread.id, "go"));
    const done = await settled(events, started.runId);
    assert.deepEqual(done.payload, {
      status: "completed",
      reasonCode: null,
      failureClass: null,
      turnId: started.turnId,
      runId: started.runId,
    });
    const page = await call(core, "turn.list", { threadId: thread.id });
    const items = page.turns[0].runs[0].items;
    assert.deepEqual(
      items.map((
        i: { kind: string; role: string; status: string; content: string },
      ) => [i.kind, i.role, i.status, i.content]),
      [
        ["message", "user", "completed", "go"],
        ["message", "assistant", "completed", "Let me check."],
        ["tool_call", "assistant", "completed", ""],
        ["tool_result", "tool", "completed", "echo: hi"],
        ["message", "assistant", "completed", "Done: echo: hi"],
      ],
    );
    assert.equal(page.turns[0].runs[0].modelCalls, 2);
    assert.equal(events.filter((e) => e.type === "run.settled").length, 1);
    // the hub delivered a gap-free, ordered stream
    events.forEach((event, index) =>
      index > 0 && assert.equal(event.seq, events[index - 1]!.seq + 1)
    );
  });
});

Deno.test("cancel mid-stream keeps the partial text as cancelled and settles once", async () => {
  await withCore([{ text: ["partial ", "more ", "never"], delayMs: 40 }], async (core, events) => {
    const thread = await newThread(core);
    const started = await call(core, "turn.start", turn(thread.id, "go"));
    await eventSeen(events, "the answer to start streaming", (e) => e.type === "item.delta");
    const cancel = await call(core, "run.cancel", { runId: started.runId });
    assert.equal(cancel.accepted, true);
    const done = await settled(events, started.runId);
    assert.equal(done.payload.status, "cancelled");
    const items = (await call(core, "turn.list", { threadId: thread.id })).turns[0].runs[0].items;
    const answer = items.find((i: { role: string }) => i.role === "assistant");
    assert.equal(answer.status, "cancelled");
    assert.ok(answer.content.startsWith("partial"), answer.content);
    assert.ok(!answer.content.includes("never"));
    const again = await call(core, "run.cancel", { runId: started.runId });
    assert.equal(again.status, "cancelled");
    assert.equal(events.filter((e) => e.type === "run.settled").length, 1);
  });
});

Deno.test("steer text enters the running run's next model call", async () => {
  let steered = false;
  await withCore((request, index) => {
    if (index === 0) {
      return {
        text: ["working"],
        toolCalls: [{ name: "echo", arguments: { text: "x" } }],
        delayMs: 60,
      };
    }
    steered = request.messages.some((m) =>
      m.role === "user" && messageText(m.content) === "also do Y"
    );
    return { text: ["ok"] };
  }, async (core, events) => {
    const thread = await newThread(core);
    const started = await call(core, "turn.start", turn(thread.id, "do X"));
    await eventSeen(events, "the answer to start streaming", (e) => e.type === "item.delta");
    const steer = await call(core, "run.steer", {
      runId: started.runId,
      content: "also do Y",
      clientRequestId: "s1",
    });
    assert.deepEqual(steer, {
      accepted: true,
      runId: started.runId,
      clientRequestId: "s1",
      status: "received",
    });
    await settled(events, started.runId);
    assert.ok(events.some((e) => e.type === "run.steered"));
    assert.ok(steered, "the second model call did not see the steer text");
  });
});

Deno.test("20 threads × 5 turns: worker cap and per-thread order hold", async () => {
  let active = 0;
  let peak = 0;
  const script: Script = () => ({ text: ["a", "b"], delayMs: 2 });
  const counting = createScriptedProvider({ script });
  const provider = {
    ...counting,
    async *stream(request: Parameters<typeof counting.stream>[0], signal: AbortSignal) {
      active++;
      peak = Math.max(peak, active);
      try {
        yield* counting.stream(request, signal);
      } finally {
        active--;
      }
    },
  };
  await withCore([], async (core, events) => {
    const runs: { threadId: string; runId: string }[] = [];
    for (let t = 0; t < 20; t++) {
      const thread = await newThread(core);
      for (let n = 0; n < 5; n++) {
        const started = await call(core, "turn.start", turn(thread.id, `turn ${n}`));
        runs.push({ threadId: thread.id, runId: started.runId });
      }
    }
    await Promise.all(runs.map((r) => settled(events, r.runId)));
    assert.ok(peak <= 3, `peak concurrency ${peak} exceeds 3 workers`);
    assert.ok(peak >= 2, "runs of different threads never overlapped");
    for (let t = 0; t < 20; t++) {
      const threadRuns = runs.filter((r) => r.threadId === runs[t * 5]!.threadId);
      const starts = threadRuns.map((r) =>
        events.findIndex((e) =>
          e.type === "run.state_changed" && e.runId === r.runId && e.payload.status === "running"
        )
      );
      const ends = threadRuns.map((r) =>
        events.findIndex((e) => e.type === "run.settled" && e.runId === r.runId)
      );
      for (let n = 1; n < 5; n++) {
        assert.ok(starts[n]! > ends[n - 1]!, `thread ${t} run ${n} started early`);
      }
    }
  }, { workers: 3, providers: [provider] });
});

Deno.test("recovery: running → failed runtime_interrupted with partial text; queued runs run", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-recover-" });
  const store = StateStore.open(homePaths(home).stateDb);
  const { result } = await createThread(store, { title: "r", workspacesRoot: `${home}/ws` });
  const base = {
    threadId: result.thread.id,
    providerId: "scripted",
    modelId: "scripted-model",
    runConfig: testRunConfig({ providerId: "scripted", modelId: "scripted-model" }),
  };
  const first = startTurn(store, { ...base, content: "one" }).result;
  activateRun(store, first.runId);
  const item = startItem(store, first.runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  });
  appendItemDelta(store, item.result.id, "half an ans");
  const second = startTurn(store, { ...base, content: "two" }).result;
  store.close();

  await withCore([{ text: ["second answer"] }], async (core) => {
    assert.deepEqual(core.recovered.interrupted, [first.runId]);
    assert.deepEqual(core.recovered.requeued, [second.runId]);
    // Read from the store, not the live events: the requeued Run starts while the core
    // is still opening, and may settle before the test's listener subscribes.
    const page = await waitUntil("the requeued run to settle", async () => {
      const listed = await call(core, "turn.list", { threadId: result.thread.id });
      return listed.turns[1]?.runs[0]?.settledAt ? listed : null;
    });
    const [one, two] = page.turns;
    assert.equal(one.runs[0].status, "failed");
    assert.equal(one.runs[0].reasonCode, "runtime_interrupted");
    assert.equal(one.runs[0].items[1].content, "half an ans");
    assert.equal(two.runs[0].status, "completed");
  }, { home });
  // a second start re-runs nothing and settles nothing again
  await withCore([], (core) => {
    assert.deepEqual(core.recovered, { interrupted: [], requeued: [] });
    const count = core.store.db.connection.prepare(
      "SELECT count(*) AS n FROM events WHERE event_type = 'run.settled'",
    ).get();
    assert.equal(count?.n, 2);
    return Promise.resolve();
  }, { home });
  await Deno.remove(home, { recursive: true });
});

Deno.test("turn.start refuses an unknown provider or model with model_not_configured", async () => {
  await withCore([], async (core) => {
    const thread = await newThread(core);
    await assert.rejects(
      () => call(core, "turn.start", { ...turn(thread.id, "x"), providerId: "nope" }),
      (e: { data?: { reasonCode?: string } }) => e.data?.reasonCode === "model_not_configured",
    );
    await assert.rejects(
      () => call(core, "thread.get", { threadId: "thread_" + "0".repeat(32) }),
      (e: { code?: number; data?: { reasonCode?: string } }) =>
        e.code === -32602 && e.data?.reasonCode === "thread_not_found",
    );
  });
});

Deno.test("after a thread's first run, a short call names it; a user title is never replaced", async () => {
  await withCore((request) => {
    const naming = request.tools.length === 0 &&
      messageText(request.messages[0]!.content).startsWith("Name this conversation");
    return naming
      ? { text: ['"Weekly report plan."\nextra line'] }
      : { text: ["Here is the plan."] };
  }, async (core, events) => {
    const thread = await newThread(core);
    const first = await call(core, "turn.start", turn(thread.id, "plan my weekly report"));
    await settled(events, first.runId);
    await eventSeen(events, "the thread to be named", (e) => e.type === "thread.renamed");
    const renamed = events.find((e) => e.type === "thread.renamed")!;
    assert.equal(
      (renamed.payload as { thread: { title: string } }).thread.title,
      "Weekly report plan",
    );
    // a second run does not rename; a user rename is kept
    await call(core, "thread.rename", { threadId: thread.id, title: "Mine" });
    const second = await call(core, "turn.start", turn(thread.id, "more"));
    await settled(events, second.runId);
    assert.equal((await call(core, "thread.get", { threadId: thread.id })).thread.title, "Mine");
  }, { threadTitles: true });
});
