import assert from "node:assert/strict";
import type { Item, JournalEvent, RunSummary, Thread, Turn } from "@daedalus/client";
import {
  activeRunId,
  applyConversationEvents,
  applyOlderTurns,
  applyThreadEvents,
  applyThreadList,
  applyTurnList,
  emptyConversation,
  emptyThreads,
  visibleThreads,
  withoutThread,
} from "./projection.ts";

const T1 = "thread_1";
const T2 = "thread_2";
const TS = "2026-10-01T10:00:00.000Z";

function thread(id: string, over: Partial<Thread> = {}): Thread {
  return {
    id,
    title: id,
    defaultBranchId: "branch_1",
    workspace: null,
    createdAt: TS,
    updatedAt: TS,
    archivedAt: null,
    ...over,
  };
}

function envelope(seq: number, rest: Record<string, unknown>): JournalEvent {
  return {
    seq,
    schemaVersion: 1,
    threadId: T1,
    branchId: "branch_1",
    turnId: null,
    runId: null,
    itemId: null,
    timestamp: TS,
    ...rest,
  } as JournalEvent;
}

function threadEvent(seq: number, type: string, t: Thread): JournalEvent {
  return envelope(seq, {
    threadId: t.id,
    type,
    payload: type === "thread.created"
      ? { thread: t, branch: { id: "branch_1" }, clientRequestId: null }
      : { thread: t },
  });
}

function item(id: string, ordinal: number, over: Partial<Item> = {}): Item {
  return {
    id,
    turnId: "turn_1",
    runId: "run_1",
    ordinal,
    kind: "message",
    role: "assistant",
    status: "streaming",
    content: "",
    data: {},
    createdAt: TS,
    updatedAt: TS,
    ...over,
  };
}

function run(status: RunSummary["status"], over: Partial<RunSummary> = {}): RunSummary {
  return {
    id: "run_1",
    turnId: "turn_1",
    threadId: T1,
    branchId: "branch_1",
    providerId: "deepseek",
    modelId: "deepseek-chat",
    executionPolicy: "workspace_write",
    status,
    reasonCode: null,
    failureClass: null,
    modelCalls: 0,
    compactions: 0,
    createdAt: TS,
    startedAt: null,
    settledAt: null,
    ...over,
  };
}

const scope = { turnId: "turn_1", runId: "run_1" };

function stateChanged(
  seq: number,
  status: RunSummary["status"],
  previous: RunSummary["status"] | null,
) {
  return envelope(seq, {
    ...scope,
    type: "run.state_changed",
    payload: {
      status,
      previousStatus: previous,
      run: run(status),
      turn: { id: "turn_1", threadId: T1, branchId: "branch_1", ordinal: 1, createdAt: TS },
      ...scope,
    },
  });
}

function itemEvent(seq: number, type: "item.started" | "item.completed", it: Item) {
  return envelope(seq, {
    ...scope,
    itemId: it.id,
    type,
    payload: { item: it, ...scope, itemId: it.id },
  });
}

function delta(seq: number, itemId: string, text: string) {
  return envelope(seq, {
    ...scope,
    itemId,
    type: "item.delta",
    payload: { delta: text, ...scope, itemId },
  });
}

function settled(
  seq: number,
  status: "completed" | "failed" | "cancelled",
  reasonCode: string | null,
  failureClass: RunSummary["failureClass"] = null,
) {
  return envelope(seq, {
    ...scope,
    type: "run.settled",
    payload: { status, reasonCode, failureClass, ...scope },
  });
}

function turnWith(items: Item[], status: RunSummary["status"] = "completed"): Turn {
  return {
    id: "turn_1",
    threadId: T1,
    branchId: "branch_1",
    ordinal: 1,
    status,
    createdAt: TS,
    updatedAt: TS,
    runs: [{ ...run(status), items }],
  };
}

function itemsOf(state: ReturnType<typeof emptyConversation>): Item[] {
  return state.turns.flatMap((turn) => turn.runs.flatMap((r) => [...r.items]));
}

Deno.test("threads: snapshot, then live created/renamed/archived events", () => {
  let state = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 10 });
  state = applyThreadEvents(state, [
    threadEvent(11, "thread.created", thread(T2, { updatedAt: "2026-10-02T00:00:00.000Z" })),
  ]);
  assert.deepEqual(visibleThreads(state).map((t) => t.id), [T2, T1]);
  state = applyThreadEvents(state, [
    threadEvent(12, "thread.renamed", thread(T1, { title: "New" })),
  ]);
  assert.equal(state.byId[T1]?.title, "New");
  state = applyThreadEvents(state, [
    threadEvent(13, "thread.archived", thread(T2, { archivedAt: TS })),
  ]);
  assert.deepEqual(visibleThreads(state).map((t) => t.id), [T1]);
  assert.equal(state.appliedSeq, 13);
});

Deno.test("threads: thread.deleted drops the thread and its Run flags, only its", () => {
  let state = applyThreadList(emptyThreads(), {
    threads: [thread(T1), thread(T2)],
    snapshotSeq: 10,
  });
  state = applyThreadEvents(state, [stateChanged(11, "running", "queued")]);
  assert.ok(T1 in state.running, "the Run of T1 runs");
  const deleted = envelope(12, {
    threadId: T1,
    type: "thread.deleted",
    payload: { threadId: T1, deletedAt: TS, erasedEvents: 7, clientRequestId: "r" },
  });
  state = applyThreadEvents(state, [deleted]);
  assert.deepEqual(visibleThreads(state).map((t) => t.id), [T2]);
  assert.equal(T1 in state.byId, false);
  assert.equal(T1 in state.running, false, "a deleted thread keeps no running flag");
  assert.equal(state.appliedSeq, 12);
  // A page read before the deletion does not bring it back once the event is applied.
  const before = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 11 });
  assert.deepEqual(Object.keys(applyThreadEvents(before, [deleted]).byId), []);
  assert.equal(withoutThread(state, T1), state, "removing an absent thread changes nothing");
});

Deno.test("threads: events before the snapshot are held, those it covers are dropped", () => {
  let state = applyThreadEvents(emptyThreads(), [
    threadEvent(12, "thread.renamed", thread(T1, { title: "after" })),
    threadEvent(9, "thread.renamed", thread(T1, { title: "before" })),
  ]);
  assert.equal(state.pending.length, 2);
  assert.deepEqual(state.byId, {});
  state = applyThreadList(state, { threads: [thread(T1, { title: "snapshot" })], snapshotSeq: 10 });
  assert.equal(state.byId[T1]?.title, "after");
  assert.equal(state.pending.length, 0);
  assert.equal(state.appliedSeq, 12);
});

Deno.test("threads: duplicates and stale seqs are ignored", () => {
  let state = applyThreadList(emptyThreads(), { threads: [], snapshotSeq: 5 });
  const created = threadEvent(6, "thread.created", thread(T1, { title: "one" }));
  state = applyThreadEvents(state, [created]);
  const once = state;
  state = applyThreadEvents(state, [created]);
  assert.equal(state, once);
  state = applyThreadEvents(state, [
    threadEvent(4, "thread.renamed", thread(T1, { title: "old" })),
  ]);
  assert.equal(state.byId[T1]?.title, "one");
});

Deno.test("threads: a later page does not overwrite threads changed by events", () => {
  let state = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 5 });
  state = applyThreadEvents(state, [
    threadEvent(6, "thread.renamed", thread(T2, { title: "live" })),
  ]);
  state = applyThreadList(state, { threads: [thread(T2, { title: "paged" })], snapshotSeq: 7 });
  assert.equal(state.byId[T2]?.title, "live");
  assert.equal(state.snapshotSeq, 5);
});

Deno.test("threads: running indicator follows run state and settle", () => {
  let state = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 1 });
  state = applyThreadEvents(state, [stateChanged(2, "running", "queued")]);
  assert.deepEqual(state.running, { [T1]: true });
  state = applyThreadEvents(state, [settled(3, "completed", null)]);
  assert.deepEqual(state.running, {});
});

Deno.test("threads: a waiting Run badges its thread until it runs again or settles", () => {
  let state = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 1 });
  state = applyThreadEvents(state, [stateChanged(2, "running", "queued")]);
  assert.deepEqual(state.waiting, {}, "a running Run does not wait");
  state = applyThreadEvents(state, [stateChanged(3, "waiting", "running")]);
  assert.deepEqual(state.waiting, { [T1]: true }, "waiting must badge the thread");
  assert.deepEqual(state.running, { [T1]: true }, "a waiting Run is still unsettled");
  state = applyThreadEvents(state, [stateChanged(4, "running", "waiting")]);
  assert.deepEqual(state.waiting, {}, "an answered approval clears the badge");
  state = applyThreadEvents(state, [stateChanged(5, "waiting", "running")]);
  state = applyThreadEvents(state, [settled(6, "cancelled", "cancelled")]);
  assert.deepEqual(state.waiting, {}, "a Run cancelled while waiting clears the badge");
  assert.deepEqual(state.running, {});
});

Deno.test("threads: an event that changes no flag keeps the same state object", () => {
  let state = applyThreadList(emptyThreads(), { threads: [thread(T1)], snapshotSeq: 1 });
  state = applyThreadEvents(state, [stateChanged(2, "waiting", "running")]);
  const { running, waiting } = state;
  state = applyThreadEvents(state, [stateChanged(3, "waiting", "waiting")]);
  assert.equal(state.running, running);
  assert.equal(state.waiting, waiting);
});

Deno.test("conversation: a waiting Run is what Stop cancels", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  state = applyConversationEvents(state, [
    stateChanged(2, "queued", null),
    stateChanged(3, "running", "queued"),
    stateChanged(4, "waiting", "running"),
  ]);
  assert.equal(state.turns[0]?.runs[0]?.status, "waiting");
  assert.equal(activeRunId(state), "run_1", "Stop must be able to cancel a waiting Run");
});

Deno.test("conversation: live stream of a run builds turn, run and items", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  const user = item("item_u", 0, { role: "user", status: "completed", content: "Hi" });
  state = applyConversationEvents(state, [
    stateChanged(2, "queued", null),
    itemEvent(3, "item.started", user),
    stateChanged(4, "running", "queued"),
    itemEvent(5, "item.started", item("item_a", 1)),
    delta(6, "item_a", "Hel"),
    delta(7, "item_a", "lo"),
  ]);
  assert.equal(state.turns.length, 1);
  assert.equal(state.turns[0]?.runs[0]?.status, "running");
  assert.deepEqual(itemsOf(state).map((i) => [i.id, i.content]), [["item_u", "Hi"], [
    "item_a",
    "Hello",
  ]]);
  assert.equal(activeRunId(state), "run_1");
  state = applyConversationEvents(state, [
    itemEvent(8, "item.completed", item("item_a", 1, { status: "completed", content: "Hello!" })),
    settled(9, "completed", null),
  ]);
  assert.equal(itemsOf(state)[1]?.content, "Hello!");
  assert.equal(state.turns[0]?.runs[0]?.status, "completed");
  assert.equal(activeRunId(state), null);
});

Deno.test("conversation: a replayed delta is not appended twice", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  const events = [itemEvent(2, "item.started", item("item_a", 1)), delta(3, "item_a", "ab")];
  state = applyConversationEvents(state, events);
  state = applyConversationEvents(state, events); // e.g. replay after a reconnect
  state = applyConversationEvents(state, [delta(3, "item_a", "ab"), delta(4, "item_a", "c")]);
  assert.equal(itemsOf(state)[0]?.content, "abc");
});

Deno.test("conversation: an out-of-order batch is applied in seq order", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  state = applyConversationEvents(state, [
    delta(4, "item_a", "c"),
    delta(3, "item_a", "b"),
    itemEvent(2, "item.started", item("item_a", 1, { content: "a" })),
  ]);
  assert.equal(itemsOf(state)[0]?.content, "abc");
  assert.equal(state.appliedSeq, 4);
});

Deno.test("conversation: events before turn.list are held and merged by snapshotSeq", () => {
  let state = emptyConversation(T1);
  state = applyConversationEvents(state, [
    delta(6, "item_a", " world"),
    delta(5, "item_a", "Hello"), // already inside the snapshot (snapshotSeq 5)
  ]);
  assert.equal(state.turns.length, 0);
  state = applyTurnList(state, {
    turns: [turnWith([item("item_a", 1, { content: "Hello" })], "running")],
    snapshotSeq: 5,
  });
  assert.equal(itemsOf(state)[0]?.content, "Hello world");
  assert.equal(state.pending.length, 0);
});

Deno.test("conversation: events of other threads are ignored", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  state = applyConversationEvents(state, [
    envelope(2, { threadId: T2, type: "thread.renamed", payload: { thread: thread(T2) } }),
  ]);
  assert.equal(state.appliedSeq, 1);
});

Deno.test("conversation: delta for an unknown item creates a streaming placeholder", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  state = applyConversationEvents(state, [delta(2, "item_x", "hi")]);
  const [only] = itemsOf(state);
  assert.equal(only?.id, "item_x");
  assert.equal(only?.status, "streaming");
  assert.equal(only?.content, "hi");
});

Deno.test("conversation: reasoning deltas do not enter the visible text", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  state = applyConversationEvents(state, [
    itemEvent(2, "item.started", item("item_a", 1)),
    envelope(3, {
      ...scope,
      itemId: "item_a",
      type: "item.delta",
      payload: { delta: "thinking", field: "reasoning", ...scope, itemId: "item_a" },
    }),
  ]);
  assert.equal(itemsOf(state)[0]?.content, "");
});

Deno.test("conversation: settle records status and reason; older pages merge under newer state", () => {
  let state = applyTurnList(emptyConversation(T1), {
    turns: [turnWith([item("item_a", 1)], "running")],
    snapshotSeq: 3,
  });
  assert.equal(state.turns[0]?.runs[0]?.failureClass, null, "an active Run has no class");
  state = applyConversationEvents(state, [
    settled(4, "failed", "provider_unavailable", "retryable"),
  ]);
  assert.equal(state.turns[0]?.runs[0]?.status, "failed");
  assert.equal(state.turns[0]?.runs[0]?.reasonCode, "provider_unavailable");
  assert.equal(state.turns[0]?.runs[0]?.failureClass, "retryable", "class from run.settled");
  const older: Turn = { ...turnWith([]), id: "turn_0", ordinal: 0 };
  state = applyOlderTurns(state, [older, turnWith([], "running")]);
  assert.deepEqual(state.turns.map((t) => t.id), ["turn_0", "turn_1"]);
  assert.equal(state.turns[1]?.runs[0]?.status, "failed");
});

Deno.test("conversation: a listed failed Run keeps its failure class", () => {
  const failed: Turn = {
    ...turnWith([], "failed"),
    runs: [{
      ...run("failed", { reasonCode: "loop_detected", failureClass: "needs_user" }),
      items: [],
    }],
  };
  const state = applyTurnList(emptyConversation(T1), { turns: [failed], snapshotSeq: 1 });
  assert.equal(state.turns[0]?.runs[0]?.failureClass, "needs_user");
});

Deno.test("conversation: tool calls keep kind and data", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  const call = item("item_t", 2, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "read", arguments: { path: "a.txt" } },
  });
  state = applyConversationEvents(state, [itemEvent(2, "item.started", call)]);
  state = applyConversationEvents(state, [
    itemEvent(3, "item.completed", { ...call, status: "completed" }),
  ]);
  const [only] = itemsOf(state);
  assert.equal(only?.kind, "tool_call");
  assert.equal(only?.status, "completed");
  assert.equal(only?.data.toolId, "read");
});

Deno.test("conversation: a Run's budget reaches its view from run.state_changed", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  const queued = stateChanged(2, "queued", null);
  const payload = queued.payload as { run: Record<string, unknown> };
  payload.run = { ...payload.run, budget: { modelCalls: 5, tokens: 100_000 } };
  state = applyConversationEvents(state, [queued, stateChanged(3, "running", "queued")]);
  assert.deepEqual(state.turns[0]?.runs[0]?.budget, { modelCalls: 5, tokens: 100_000 });
});

Deno.test("conversation: a Run's model events fold into its usage", () => {
  let state = applyTurnList(emptyConversation(T1), { turns: [], snapshotSeq: 1 });
  const prepared = (seq: number, callOrdinal: number, estimate: number) =>
    envelope(seq, {
      ...scope,
      type: "model.input_prepared",
      payload: {
        callOrdinal,
        stepOrdinal: callOrdinal,
        purpose: "execution",
        contextRevision: null,
        stepInput: { estimatedInputTokens: estimate, contextWindow: 64_000 },
        ...scope,
      },
    });
  const finished = (seq: number, callOrdinal: number, input: number, output: number) =>
    envelope(seq, {
      ...scope,
      type: "model.response_finished",
      payload: {
        callOrdinal,
        usage: {
          inputTokens: input,
          cachedInputTokens: null,
          outputTokens: output,
          reasoningOutputTokens: null,
          totalTokens: input + output,
        },
        responseModelId: null,
        requestId: null,
        ...scope,
      },
    });
  state = applyConversationEvents(state, [
    stateChanged(2, "running", "queued"),
    prepared(3, 1, 900),
    finished(4, 1, 1_000, 30),
    prepared(5, 2, 1_100),
  ]);
  const mid = state.turns[0]?.runs[0]?.usage;
  assert.deepEqual(
    [mid?.inputTokens, mid?.outputTokens, mid?.contextTokens, mid?.contextEstimated],
    [1_000, 30, 1_100, true],
    "the second step's estimate until its call reports",
  );
  state = applyConversationEvents(state, [
    finished(6, 2, 1_200, 50),
    settled(7, "completed", null),
  ]);
  const usage = state.turns[0]?.runs[0]?.usage;
  assert.deepEqual(
    [usage?.inputTokens, usage?.outputTokens, usage?.reportedCalls, usage?.contextTokens],
    [2_200, 80, 2, 1_200],
  );
  assert.equal(usage?.contextWindow, 64_000);
});
