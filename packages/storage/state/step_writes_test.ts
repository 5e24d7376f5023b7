import assert from "node:assert/strict";
import {
  activateRun,
  appendItemDelta,
  settleRun,
  startItem,
  startStreamedItem,
} from "./run_writes.ts";
import { recordModelInput } from "./run_facts.ts";
import { completeAnswer, completeCompaction, completeStep } from "./step_writes.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  failInsert,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
} from "./_test_store.ts";

const USAGE = {
  inputTokens: 10,
  cachedInputTokens: 0,
  outputTokens: 5,
  reasoningOutputTokens: 0,
  totalTokens: 15,
};

async function streamingStep() {
  const fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  activateRun(store, runId);
  recordModelInput(store, runId, {
    callOrdinal: 1,
    stepOrdinal: 1,
    purpose: "execution",
    contextRevision: null,
    stepInput: {},
  });
  const message = startItem(store, runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  }).result;
  appendItemDelta(store, message.id, "Hello, ");
  appendItemDelta(store, message.id, "world");
  return { fixture, store, runId, itemId: message.id };
}

const response = {
  callOrdinal: 1,
  outcome: "completed" as const,
  usage: USAGE,
  responseModelId: "test-model",
  requestId: "req-1",
  activityDate: "2026-10-01",
};

Deno.test("a step's completion commits its message and the call's end together", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const done = completeStep(store, runId, {
    message: { itemId, completion: { status: "completed" } },
    response,
  });
  assertValidEvents(done.events);
  assert.deepEqual(eventTypes(done.events), ["item.completed", "model.response_finished"]);
  assert.equal(done.result.item?.content, "Hello, world", "the streamed text is the item's");
  assert.equal(done.result.settlement, null, "no settlement was asked for");
  assert.equal(done.events[0]!.timestamp, done.events[1]!.timestamp, "one transaction");
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "completed");
  assert.equal(countRows(store, "model_usages"), 1);
});

Deno.test("a step whose call end cannot be stored leaves its message streaming", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const before = countRows(store);
  const restore = failInsert(store, "model_usages", "1");
  assert.throws(
    () =>
      completeStep(store, runId, {
        message: { itemId, completion: { status: "completed" } },
        response,
      }),
    /injected failure/,
  );
  restore();
  assert.equal(countRows(store), before, "neither event was written");
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "streaming");
});

Deno.test("a step without a message to end records only the call's end", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const done = completeStep(store, runId, {
    response: { ...response, outcome: "failed", usage: null, reasonCode: "provider_network" },
  });
  assert.equal(done.result.item, null);
  assert.deepEqual(eventTypes(done.events), ["model.response_finished"]);
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "streaming");
});

Deno.test("a step's end and its tool calls' start commit together, or neither does", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const call = (callId: string) => ({
    kind: "tool_call" as const,
    role: "assistant" as const,
    status: "running" as const,
    data: { toolId: "read", callId, arguments: {} },
  });
  const step = {
    message: { itemId, completion: { status: "completed" as const } },
    response,
    startItems: [call("c1"), call("c2")],
  };
  const restore = failInsert(store, "items", "json_extract(NEW.data_json, '$.callId') = 'c2'");
  const events = countRows(store, "events");
  assert.throws(() => completeStep(store, runId, step), /injected failure/);
  restore();
  assert.equal(countRows(store, "events"), events, "the step's end was rolled back too");
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "streaming");
  const done = completeStep(store, runId, step);
  assertValidEvents(done.events);
  assert.deepEqual(eventTypes(done.events), [
    "item.completed",
    "model.response_finished",
    "item.started",
    "item.started",
  ]);
  assert.deepEqual(done.result.started.map((item) => item.data.callId), ["c1", "c2"]);
  const [first, second] = done.result.started.map((item) => item.ordinal);
  assert.equal(second! - first!, 1, "consecutive ordinals");
});

Deno.test("a Run's last step and its settlement commit together", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const done = completeStep(store, runId, {
    message: { itemId, completion: { status: "completed" } },
    response,
    settle: { status: "completed", reasonCode: null },
  });
  assertValidEvents(done.events);
  assert.deepEqual(eventTypes(done.events), [
    "item.completed",
    "model.response_finished",
    "run.state_changed",
    "run.settled",
  ]);
  assert.deepEqual(done.result.settlement, {
    settled: true,
    status: "completed",
    reasonCode: null,
  });
  assert.equal(new Set(done.events.map((event) => event.timestamp)).size, 1, "one transaction");
  assert.equal(readRow(store, "SELECT status FROM runs WHERE id = ?", runId).status, "completed");
});

Deno.test("a settlement that cannot be stored leaves the last step unrecorded too", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  const before = countRows(store);
  const restore = failInsert(store, "events", "NEW.event_type = 'run.settled'");
  assert.throws(
    () =>
      completeStep(store, runId, {
        message: { itemId, completion: { status: "completed" } },
        response,
        settle: { status: "completed", reasonCode: null },
      }),
    /injected failure/,
  );
  restore();
  assert.equal(countRows(store), before, "no event of the step was written");
  assert.equal(countRows(store, "model_usages"), 0, "the call's end was rolled back");
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "streaming");
  assert.equal(readRow(store, "SELECT status FROM runs WHERE id = ?", runId).status, "running");
});

Deno.test("a last step of a Run settled meanwhile keeps the first settlement", async () => {
  const { fixture, store, runId, itemId } = await streamingStep();
  await using _ = fixture;
  settleRun(store, runId, "cancelled", "cancelled");
  const done = completeStep(store, runId, {
    response,
    settle: { status: "completed", reasonCode: null },
  });
  assert.deepEqual(eventTypes(done.events), ["model.response_finished"]);
  assert.deepEqual(done.result.settlement, {
    settled: false,
    status: "cancelled",
    reasonCode: "cancelled",
  });
  assert.equal(readRow(store, "SELECT status FROM items WHERE id = ?", itemId).status, "cancelled");
});

Deno.test("a stream starts with its first delta in one transaction, or not at all", async () => {
  const { fixture, store, runId } = await streamingStep();
  await using _ = fixture;
  const input = {
    kind: "message" as const,
    role: "assistant" as const,
    status: "streaming" as const,
  };
  const before = countRows(store, "items");
  const restore = failInsert(store, "events", "NEW.event_type = 'item.delta'");
  assert.throws(() => startStreamedItem(store, runId, input, "Hi"), /injected failure/);
  restore();
  assert.equal(countRows(store, "items"), before, "no item was started without its text");
  const started = startStreamedItem(store, runId, input, "Hi", "reasoning");
  assertValidEvents(started.events);
  assert.deepEqual(eventTypes(started.events), ["item.started", "item.delta"]);
  assert.equal(started.events[1]!.itemId, started.result.item.id);
  assert.equal(started.result.delta.payload.delta, "Hi");
  assert.equal(started.result.delta.payload.field, "reasoning");
  assert.equal(started.events[0]!.timestamp, started.events[1]!.timestamp, "one transaction");
});

Deno.test("the completion check's call end and its answer commit together, or not at all", async () => {
  const { fixture, store, runId } = await streamingStep();
  await using _ = fixture;
  const answer = {
    kind: "message" as const,
    role: "assistant" as const,
    status: "completed" as const,
    content: "A command is still running.",
    data: { completionCheck: true },
  };
  const restore = failInsert(
    store,
    "items",
    "json_extract(NEW.data_json, '$.completionCheck') = 1",
  );
  assert.throws(() => completeAnswer(store, runId, response, answer), /injected failure/);
  restore();
  assert.equal(countRows(store, "model_usages"), 0, "the call's end was rolled back with it");
  const done = completeAnswer(store, runId, response, answer);
  assertValidEvents(done.events);
  assert.deepEqual(eventTypes(done.events), ["model.response_finished", "item.completed"]);
  assert.equal(done.result?.content, "A command is still running.");
});

Deno.test("a compaction's summary call end and its revision commit together, or not at all", async () => {
  const { fixture, store, runId } = await streamingStep();
  await using _ = fixture;
  const restore = failInsert(store, "events", "NEW.event_type = 'context.compacted'");
  assert.throws(() => completeCompaction(store, runId, response, 1), /injected failure/);
  restore();
  assert.equal(countRows(store, "model_usages"), 0, "the call's end was rolled back with it");
  assert.equal(countRows(store, "context_revisions"), 0);
  const done = completeCompaction(store, runId, response, 1);
  assertValidEvents(done.events);
  assert.deepEqual(eventTypes(done.events), ["model.response_finished", "context.compacted"]);
  assert.equal(countRows(store, "model_usages"), 1);
});
