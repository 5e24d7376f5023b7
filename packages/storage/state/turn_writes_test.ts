import assert from "node:assert/strict";
import type { Attachment } from "@daedalus/protocol";
import { startTurn, type StartTurnInput } from "./turn_writes.ts";
import { settleRun } from "./run_writes.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  failInsert,
  openTestStore,
  readRow,
  seedThread,
  storeErrorCode,
  TEST_RUN_CONFIG,
} from "./_test_store.ts";

const ATTACHMENT: Attachment = {
  kind: "text",
  path: "/tmp/notes.txt",
  mimeType: "text/plain",
  size: 12,
  sha256: "a".repeat(64),
};

function turnInput(threadId: string, extra: Partial<StartTurnInput> = {}): StartTurnInput {
  return {
    threadId,
    content: "Summarise the notes",
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
    ...extra,
  };
}

Deno.test("startTurn writes the user item, turn, queued run and run config together", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId, branchId } = await seedThread(fixture);
  const { result, events } = startTurn(
    store,
    turnInput(threadId, { attachments: [ATTACHMENT], itemData: { hops: 1 } }),
  );
  assert.equal(result.created, true);
  assert.equal(result.branchId, branchId, "the default branch is used");
  assert.deepEqual(eventTypes(events), ["run.state_changed", "item.completed"]);
  assertValidEvents(events);
  assert.equal(events[0].timestamp, events[1].timestamp, "one transaction, one timestamp");
  assert.equal(events[1].seq, events[0].seq + 1);

  const turn = readRow(store, "SELECT * FROM turns WHERE id = ?", result.turnId);
  assert.deepEqual(
    [turn.thread_id, turn.branch_id, turn.ordinal, turn.status],
    [threadId, branchId, 1, "queued"],
  );
  const run = readRow(store, "SELECT * FROM runs WHERE id = ?", result.runId);
  assert.deepEqual(
    [run.turn_id, run.status, run.provider_id, run.model_id, run.execution_policy],
    [result.turnId, "queued", "test-provider", "test-model", "ask"],
  );
  assert.equal(run.started_at, null);
  const config = readRow(
    store,
    "SELECT config_json FROM run_configs WHERE run_id = ?",
    result.runId,
  );
  const { tools: _t, identity: _i, skills: _s, ...record } = TEST_RUN_CONFIG;
  assert.deepEqual(JSON.parse(String(config.config_json)), record, "parts are stored by reference");
  const item = readRow(store, "SELECT * FROM items WHERE run_id = ?", result.runId);
  assert.deepEqual(
    [item.ordinal, item.kind, item.role, item.status, item.content],
    [1, "message", "user", "completed", "Summarise the notes"],
  );
  assert.deepEqual(JSON.parse(String(item.data_json)), { hops: 1, attachments: [ATTACHMENT] });
  const thread = readRow(store, "SELECT updated_at FROM threads WHERE id = ?", threadId);
  assert.equal(thread.updated_at, events[0].timestamp, "a new turn moves the thread up");
});

Deno.test("startTurn is one transaction: a failing user item leaves no turn, run or config", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const count = countRows(store);
  const restore = failInsert(store, "items", "NEW.role = 'user'");
  assert.throws(() => startTurn(store, turnInput(threadId)), /injected failure/);
  restore();
  assert.equal(countRows(store), count, "no event was committed");
  for (const table of ["turns", "runs", "run_configs", "items"]) {
    assert.equal(countRows(store, table), 0, `${table} has a row from the failed turn`);
  }
  assert.equal(startTurn(store, turnInput(threadId)).result.created, true);
});

Deno.test("turn ordinals count 1, 2, 3 per branch across turns", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const a = await seedThread(fixture);
  const b = await seedThread(fixture);
  const ordinals: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const { result } = startTurn(store, turnInput(a.threadId, { content: `turn ${i}` }));
    ordinals.push(
      Number(readRow(store, "SELECT ordinal FROM turns WHERE id = ?", result.turnId).ordinal),
    );
    settleRun(store, result.runId, "completed", null);
  }
  assert.deepEqual(ordinals, [1, 2, 3]);
  const other = startTurn(store, turnInput(b.threadId)).result;
  assert.equal(readRow(store, "SELECT ordinal FROM turns WHERE id = ?", other.turnId).ordinal, 1);
});

Deno.test("startTurn retried with the same clientRequestId returns the same ids and writes nothing", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId, branchId } = await seedThread(fixture);
  const input = turnInput(threadId, { clientRequestId: "turn-1", attachments: [ATTACHMENT] });
  const first = startTurn(store, input);
  const count = countRows(store);
  const again = startTurn(store, input);
  assert.equal(again.result.created, false);
  assert.deepEqual(
    { ...again.result, created: true },
    first.result,
    "a replay returns the first ids",
  );
  assert.deepEqual(again.events, []);
  assert.equal(countRows(store), count);
  assert.equal(countRows(store, "runs"), 1);
  const explicit = startTurn(store, { ...input, branchId });
  assert.equal(explicit.result.runId, first.result.runId, "naming the default branch is the same");
  settleRun(store, first.result.runId, "completed", null);
  assert.equal(startTurn(store, input).result.runId, first.result.runId, "even after settlement");
});

Deno.test("startTurn with a reused clientRequestId and other params is an idempotency_conflict", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const other = await seedThread(fixture);
  const input = turnInput(threadId, { clientRequestId: "turn-1", attachments: [ATTACHMENT] });
  startTurn(store, input);
  const count = countRows(store);
  const variants: Record<string, StartTurnInput> = {
    content: { ...input, content: "Something else" },
    model: { ...input, modelId: "other-model" },
    provider: { ...input, providerId: "other-provider" },
    "no attachments": { ...input, attachments: [] },
    "other attachments": { ...input, attachments: [{ ...ATTACHMENT, sha256: "b".repeat(64) }] },
    thread: { ...input, threadId: other.threadId },
    branch: { ...input, branchId: other.branchId },
  };
  for (const [name, variant] of Object.entries(variants)) {
    assert.throws(
      () => startTurn(store, variant),
      storeErrorCode("idempotency_conflict"),
      `a different ${name} must conflict`,
    );
    assert.equal(countRows(store), count, `the ${name} conflict wrote an event`);
  }
});

Deno.test("startTurn refuses an unknown thread and another thread's branch", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const mine = await seedThread(fixture);
  const theirs = await seedThread(fixture);
  const count = countRows(store);
  assert.throws(
    () => startTurn(store, turnInput("thread_0123456789abcdef0123456789abcdef")),
    storeErrorCode("thread_not_found"),
  );
  assert.throws(
    () => startTurn(store, turnInput(mine.threadId, { branchId: theirs.branchId })),
    storeErrorCode("branch_not_found"),
  );
  assert.throws(
    () =>
      startTurn(
        store,
        turnInput(mine.threadId, { branchId: "branch_0123456789abcdef0123456789abcdef" }),
      ),
    storeErrorCode("branch_not_found"),
  );
  assert.equal(countRows(store), count, "refused turns write nothing");
  assert.equal(countRows(store, "turns"), 0);
});

Deno.test("startTurn freezes the execution policy it is given", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { result, events } = startTurn(
    store,
    turnInput(threadId, { executionPolicy: "read_only" }),
  );
  const run = readRow(store, "SELECT execution_policy FROM runs WHERE id = ?", result.runId);
  assert.equal(run.execution_policy, "read_only");
  const changed = events[0];
  assert.ok(changed.type === "run.state_changed");
  assert.equal(changed.payload.run.executionPolicy, "read_only");
  assert.equal(changed.payload.previousStatus, null);
  assert.equal(changed.payload.turn?.ordinal, 1);
});
