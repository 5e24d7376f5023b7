import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  newId,
  type ProcessRecord,
  RUN_ERROR_MESSAGE_MAX_CHARS,
  type TokenUsage,
} from "@daedalus/protocol";
import {
  activateRun,
  appendItemDelta,
  completeItem,
  readRunScope,
  settleRun,
  settleToolCall,
  startItem,
  steerRun,
} from "./run_writes.ts";
import {
  recordCompaction,
  recordModelInput,
  recordModelResponse,
  recordProcess,
} from "./run_facts.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  failInsert,
  FakeClock,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
  storeErrorCode,
  type TestStore,
} from "./_test_store.ts";
import type { StateStore } from "./store.ts";
import { listTurns } from "./reads/thread_history.ts";
import { readRunSummary } from "./run_row.ts";

async function runningRun(fixture: TestStore): Promise<{ threadId: string; runId: string }> {
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  assert.equal(activateRun(fixture.store, runId).result, true);
  return { threadId, runId };
}

function item(store: StateStore, id: string): Record<string, unknown> {
  const row = readRow(store, "SELECT * FROM items WHERE id = ?", id);
  return { ...row, data: JSON.parse(String(row.data_json)) };
}

function settledCount(store: StateStore, runId: string): number {
  return countRows(store, "events", "event_type = 'run.settled' AND run_id = ?", runId);
}

const USAGE: TokenUsage = {
  inputTokens: 1200,
  cachedInputTokens: 200,
  outputTokens: 300,
  reasoningOutputTokens: 50,
  totalTokens: 1500,
};

Deno.test("activateRun moves only a queued run to running", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId, turnId } = seedTurn(store, threadId);
  const { result, events } = activateRun(store, runId);
  assert.equal(result, true);
  assert.deepEqual(eventTypes(events), ["run.state_changed"]);
  assertValidEvents(events);
  const changed = events[0];
  assert.ok(changed.type === "run.state_changed");
  assert.deepEqual([changed.payload.previousStatus, changed.payload.status], ["queued", "running"]);
  const run = readRow(store, "SELECT status, started_at FROM runs WHERE id = ?", runId);
  assert.deepEqual([run.status, run.started_at], ["running", changed.timestamp]);
  assert.equal(readRow(store, "SELECT status FROM turns WHERE id = ?", turnId).status, "running");

  const count = countRows(store);
  assert.deepEqual(activateRun(store, runId), { result: false, events: [] }, "already running");
  settleRun(store, runId, "completed", null);
  assert.deepEqual(activateRun(store, runId).result, false, "a settled run stays settled");
  assert.equal(countRows(store), count + 2, "only the settlement wrote events");
  assert.throws(
    () => activateRun(store, "run_0123456789abcdef0123456789abcdef"),
    storeErrorCode("run_not_found"),
  );
});

function threadOf(store: StateStore, runId: string): string {
  return readRunScope(store.db, runId).threadId;
}

Deno.test("streamed deltas reach readers at once and the item row when it completes", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const started = startItem(store, runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  });
  assert.deepEqual(eventTypes(started.events), ["item.started"]);
  assert.equal(started.result.ordinal, 2, "after the user message");
  const id = started.result.id;
  const deltas = [
    appendItemDelta(store, id, "Let me ", "reasoning"),
    appendItemDelta(store, id, "Hello"),
    appendItemDelta(store, id, ", "),
    appendItemDelta(store, id, "think.", "reasoning"),
    appendItemDelta(store, id, "world!"),
  ];
  for (const { events } of deltas) assertValidEvents(events);
  assert.deepEqual(deltas.map((d) => d.result.payload), [
    { delta: "Let me ", field: "reasoning", turnId: started.result.turnId, runId, itemId: id },
    { delta: "Hello", turnId: started.result.turnId, runId, itemId: id },
    { delta: ", ", turnId: started.result.turnId, runId, itemId: id },
    { delta: "think.", field: "reasoning", turnId: started.result.turnId, runId, itemId: id },
    { delta: "world!", turnId: started.result.turnId, runId, itemId: id },
  ]);
  // The row is not rewritten per delta (that would copy the answer each time)…
  const row = item(store, id);
  assert.equal(row.content, "");
  assert.equal(row.status, "streaming");
  // …readers see the text streamed so far.
  const page = listTurns(store.db, { threadId: threadOf(store, runId) });
  const seen = page.turns[0]!.runs[0]!.items.find((i) => i.id === id)!;
  assert.equal(seen.content, "Hello, world!");
  assert.deepEqual(seen.data, { reasoning: "Let me think." });

  const done = completeItem(store, id, { status: "completed", data: { finish: "stop" } });
  assert.equal(done.result.content, "Hello, world!", "streamed content is kept");
  assert.deepEqual(done.result.data, { reasoning: "Let me think.", finish: "stop" });
  assert.equal(item(store, id).status, "completed");
  assert.throws(
    () => appendItemDelta(store, "item_0123456789abcdef0123456789abcdef", "x"),
    storeErrorCode("item_not_found"),
  );
});

Deno.test("an item completed from the writer's streamed text equals one completed from its deltas", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const stream = (id: string) => {
    const streamed = { content: "", reasoning: "" };
    for (
      const [delta, field] of [["Let me ", "reasoning"], ["Hi", "content"], [
        "!",
        "content",
      ]] as const
    ) {
      appendItemDelta(store, id, delta, field);
      streamed[field] += delta;
    }
    return streamed;
  };
  const start = () =>
    startItem(store, runId, { kind: "message", role: "assistant", status: "streaming" }).result.id;
  const readBack = start();
  stream(readBack);
  const buffered = start();
  const streamed = stream(buffered);

  const fromDeltas = completeItem(store, readBack, {
    status: "completed",
    data: { finish: "stop" },
  });
  const fromBuffer = completeItem(store, buffered, {
    status: "completed",
    data: { finish: "stop" },
    streamed,
  });
  const comparable = (event: { payload: Record<string, unknown> }) => {
    const { id: _i, ordinal: _o, createdAt: _c, updatedAt: _u, ...rest } = event.payload
      .item as Record<string, unknown>;
    return rest;
  };
  assert.equal(fromBuffer.result.content, "Hi!");
  assert.deepEqual(fromBuffer.result.data, { reasoning: "Let me ", finish: "stop" });
  assert.deepEqual(comparable(fromBuffer.events[0]!), comparable(fromDeltas.events[0]!));
  const rows = [item(store, readBack), item(store, buffered)].map(
    ({ id: _i, ordinal: _o, created_at: _c, updated_at: _u, ...row }) => row,
  );
  assert.deepEqual(rows[1], rows[0], "the item rows match too");
});

Deno.test("settleToolCall completes the call and records its result in one transaction", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const call = startItem(store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "write", arguments: { path: "a.txt" } },
  }).result;

  const count = countRows(store);
  const restore = failInsert(store, "items", "NEW.kind = 'tool_result'");
  assert.throws(
    () =>
      settleToolCall(store, call.id, { status: "completed" }, {
        status: "completed",
        content: "ok",
      }),
    /injected failure/,
  );
  restore();
  assert.equal(countRows(store), count, "no event of the failed settlement survives");
  assert.equal(item(store, call.id).status, "running", "the call was not completed alone");

  const { result, events } = settleToolCall(
    store,
    call.id,
    { status: "completed", data: { durationMs: 12 } },
    { status: "completed", content: "wrote 3 bytes", data: { bytes: 3 } },
    (context, scope) => {
      context.append({
        type: "file.change_recorded",
        ...scope,
        itemId: call.id,
        payload: {
          toolCallItemId: call.id,
          path: "a.txt",
          operation: "write",
          additions: 1,
          deletions: 0,
        },
      });
    },
  );
  assert.deepEqual(eventTypes(events), [
    "item.completed",
    "file.change_recorded",
    "item.completed",
  ]);
  assertValidEvents(events);
  assert.equal(new Set(events.map((e) => e.timestamp)).size, 1);
  const callRow = item(store, call.id);
  assert.equal(callRow.status, "completed");
  assert.deepEqual(callRow.data, { toolId: "write", arguments: { path: "a.txt" }, durationMs: 12 });
  const resultRow = item(store, result.result.id);
  assert.deepEqual(
    [resultRow.kind, resultRow.role, resultRow.status, resultRow.content, resultRow.ordinal],
    ["tool_result", "tool", "completed", "wrote 3 bytes", call.ordinal + 1],
  );
  assert.deepEqual(resultRow.data, { toolCallItemId: call.id, bytes: 3 });
  const change = readRow(
    store,
    "SELECT record_json FROM file_changes WHERE tool_call_item_id = ?",
    call.id,
  );
  assert.equal(JSON.parse(String(change.record_json)).path, "a.txt");
});

Deno.test("steerRun adds a run.steered user item while active, run_not_active after settlement", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  const queued = steerRun(store, runId, "also check the tests", { clientRequestId: "steer-1" });
  assert.deepEqual(eventTypes(queued.events), ["run.steered"]);
  assertValidEvents(queued.events);
  const row = item(store, queued.result.id);
  assert.deepEqual(
    [row.kind, row.role, row.status, row.content, row.ordinal],
    ["message", "user", "completed", "also check the tests", 2],
  );
  assert.deepEqual(row.data, { steer: true, clientRequestId: "steer-1" });
  activateRun(store, runId);
  assert.equal(steerRun(store, runId, "and the docs").result.ordinal, 3);

  settleRun(store, runId, "completed", null);
  const count = countRows(store);
  assert.throws(() => steerRun(store, runId, "too late"), storeErrorCode("run_not_active"));
  assert.equal(countRows(store), count, "a refused steer writes nothing");
});

Deno.test("model calls record outcome and usage; usage rows only for completed calls with usage", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId, runId } = await runningRun(fixture);
  const scope = readRunScope(store.db, runId);
  const input = (callOrdinal: number, stepOrdinal: number | null, revision?: number) =>
    recordModelInput(store, runId, {
      callOrdinal,
      stepOrdinal,
      purpose: stepOrdinal === null ? "compression" : "execution",
      contextRevision: revision === undefined ? null : { revision, items: [1, 2] },
      stepInput: { revision: revision ?? 1, budget: 8000 },
    });
  assertValidEvents(input(1, 1, 1).events);
  input(2, null);
  input(3, 2);
  input(4, 3);
  const respond = (
    callOrdinal: number,
    outcome: "completed" | "failed" | "cancelled",
    usage: TokenUsage | null,
    reasonCode?: string,
  ) =>
    recordModelResponse(store, runId, {
      callOrdinal,
      outcome,
      usage,
      responseModelId: "test-model-2026",
      requestId: `req_${callOrdinal}`,
      reasonCode,
      activityDate: "2026-09-30",
    });
  const finished = respond(1, "completed", USAGE);
  assertValidEvents(finished.events);
  respond(2, "failed", USAGE, "provider_timeout");
  respond(3, "completed", null);
  respond(4, "cancelled", null, "cancelled");

  const calls = store.db.connection.prepare(
    `SELECT call_ordinal, step_ordinal, purpose, outcome, reason_code, usage_json, activity_date,
       response_model_id, request_id, finished_at FROM model_calls WHERE run_id = ? ORDER BY call_ordinal`,
  ).all(runId).map((r): Record<string, unknown> => ({
    ...r,
    usage_json: r.usage_json === null ? null : JSON.parse(String(r.usage_json)),
  }));
  const at = finished.events[0].timestamp;
  assert.deepEqual(
    calls.map((c) => [c.call_ordinal, c.step_ordinal, c.purpose, c.outcome, c.reason_code]),
    [
      [1, 1, "execution", "completed", null],
      [2, null, "compression", "failed", "provider_timeout"],
      [3, 2, "execution", "completed", null],
      [4, 3, "execution", "cancelled", "cancelled"],
    ],
  );
  assert.deepEqual([calls[0].usage_json, calls[0].activity_date, calls[0].finished_at], [
    USAGE,
    "2026-09-30",
    at,
  ]);
  assert.deepEqual(
    [calls[1].usage_json, calls[1].activity_date],
    [null, null],
    "a failed call keeps no usage",
  );
  assert.deepEqual([calls[2].usage_json, calls[2].activity_date], [null, null]);
  assert.deepEqual([calls[0].response_model_id, calls[0].request_id], ["test-model-2026", "req_1"]);

  const usages = store.db.connection.prepare("SELECT * FROM model_usages").all();
  assert.equal(usages.length, 1, "one usage row: call 1");
  assert.deepEqual({ ...usages[0] }, {
    thread_id: threadId,
    turn_id: scope.turnId,
    run_id: runId,
    call_ordinal: 1,
    step_ordinal: 1,
    provider_id: "test-provider",
    model_id: "test-model",
    input_tokens: 1200,
    cached_input_tokens: 200,
    output_tokens: 300,
    reasoning_output_tokens: 50,
    total_tokens: 1500,
    activity_date: "2026-09-30",
    completed_at: at,
  });
  assert.equal(countRows(store, "context_revisions", "run_id = ?", runId), 1);

  assertValidEvents(recordCompaction(store, runId, 2).events);
  input(5, 4, 2);
  const settled = settleRun(store, runId, "completed", null);
  const changed = settled.events.find((e) => e.type === "run.state_changed");
  assert.ok(changed?.type === "run.state_changed");
  assert.deepEqual([changed.payload.run.modelCalls, changed.payload.run.compactions], [5, 1]);
});

Deno.test("recordProcess keeps the latest record of each process", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId, runId } = await runningRun(fixture);
  const call =
    startItem(store, runId, { kind: "tool_call", role: "assistant", status: "running" }).result;
  const process: ProcessRecord = {
    processId: newId("process"),
    threadId,
    runId,
    itemId: call.id,
    command: "sleep 1",
    cwd: fixture.projectDir,
    state: "running",
    pid: 4242,
    exitCode: null,
    errorCode: null,
    background: true,
    pty: false,
    startedAt: "2026-10-01T10:00:05.000Z",
    finishedAt: null,
  };
  assertValidEvents(recordProcess(store, process).events);
  const exited = {
    ...process,
    state: "exited" as const,
    exitCode: 0,
    finishedAt: "2026-10-01T10:00:06.000Z",
  };
  recordProcess(store, exited);
  const row = readRow(
    store,
    "SELECT * FROM process_sessions WHERE process_id = ?",
    process.processId,
  );
  assert.deepEqual(JSON.parse(String(row.record_json)), exited);
  assert.equal(countRows(store, "process_sessions"), 1);
});

Deno.test("settleRun ends active items with the run's status, keeping partial text", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const message =
    startItem(store, runId, { kind: "message", role: "assistant", status: "streaming" }).result;
  appendItemDelta(store, message.id, "Half an ans");
  appendItemDelta(store, message.id, "hmm", "reasoning");
  const call =
    startItem(store, runId, { kind: "tool_call", role: "assistant", status: "running" }).result;
  const done = startItem(store, runId, {
    kind: "message",
    role: "assistant",
    status: "completed",
    content: "earlier",
  }).result;

  const { result, events } = settleRun(store, runId, "cancelled", "cancelled");
  assert.deepEqual(result, { settled: true, status: "cancelled", reasonCode: "cancelled" });
  assert.deepEqual(eventTypes(events), [
    "item.completed",
    "item.completed",
    "run.state_changed",
    "run.settled",
  ]);
  assertValidEvents(events);
  assert.deepEqual(
    events.map((e) => e.itemId).slice(0, 2),
    [message.id, call.id],
    "in ordinal order",
  );
  const partial = item(store, message.id);
  assert.deepEqual([partial.status, partial.content, partial.data], ["cancelled", "Half an ans", {
    reasoning: "hmm",
  }]);
  assert.equal(item(store, call.id).status, "cancelled");
  assert.equal(item(store, done.id).status, "completed", "a finished item is untouched");
  const run = readRow(store, "SELECT * FROM runs WHERE id = ?", runId);
  assert.deepEqual([run.status, run.reason_code, run.settled_at], [
    "cancelled",
    "cancelled",
    events[3].timestamp,
  ]);
  assert.equal(
    readRow(store, "SELECT status FROM turns WHERE id = ?", message.turnId).status,
    "cancelled",
  );
  assert.equal(settledCount(store, runId), 1);

  const count = countRows(store);
  const again = settleRun(store, runId, "completed", null);
  assert.deepEqual(again, {
    result: { settled: false, status: "cancelled", reasonCode: "cancelled" },
    events: [],
  });
  assert.equal(countRows(store), count, "a second settlement writes nothing");
});

Deno.test("settleRun keeps a failed run's error message on the event, the row and the summary", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const said = "The provider answered HTTP 401: Incorrect API key provided";
  const { events } = settleRun(store, runId, "failed", "provider_authentication", said);
  assertValidEvents(events);
  const settled = events.find((e) => e.type === "run.settled");
  const { status, reasonCode, failureClass, errorMessage } = settled?.payload as Record<
    string,
    unknown
  >;
  assert.deepEqual({ status, reasonCode, failureClass, errorMessage }, {
    status: "failed",
    reasonCode: "provider_authentication",
    failureClass: "unrecoverable",
    errorMessage: said,
  });
  const changed = events.find((e) => e.type === "run.state_changed");
  assert.equal((changed?.payload as { run: { errorMessage?: string } }).run.errorMessage, said);
  assert.equal(
    readRow(store, "SELECT error_message FROM runs WHERE id = ?", runId).error_message,
    said,
  );
  assert.equal(store.read((db) => readRunSummary(db, runId)).errorMessage, said);
  assert.equal(
    store.read((db) => readRunSummary(db, runId)).failureClass,
    "unrecoverable",
    "the summary derives the class from the stored reason code",
  );

  const long = await runningRun(fixture);
  settleRun(store, long.runId, "failed", "provider_server", "x".repeat(5000));
  const clipped = String(
    readRow(store, "SELECT error_message FROM runs WHERE id = ?", long.runId).error_message,
  );
  assert.equal(clipped.length, RUN_ERROR_MESSAGE_MAX_CHARS, "clipped to the protocol's limit");
});

Deno.test("settleRun completed ends streaming items as completed; a queued run can be settled", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const message =
    startItem(store, runId, { kind: "message", role: "assistant", status: "streaming" }).result;
  appendItemDelta(store, message.id, "All done");
  settleRun(store, runId, "completed", null);
  assert.deepEqual([item(store, message.id).status, item(store, message.id).content], [
    "completed",
    "All done",
  ]);

  const { threadId } = await seedThread(fixture);
  const queued = seedTurn(store, threadId).runId;
  const failed = settleRun(store, queued, "failed", "runtime_shutdown");
  assert.deepEqual(failed.result, {
    settled: true,
    status: "failed",
    reasonCode: "runtime_shutdown",
  });
  assert.deepEqual(eventTypes(failed.events), ["run.state_changed", "run.settled"]);
  const changed = failed.events[0];
  assert.ok(changed.type === "run.state_changed");
  assert.equal(changed.payload.previousStatus, "queued");
});

Deno.test("appendItemDelta after settleRun is refused and the settled item keeps its partial text", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const message =
    startItem(store, runId, { kind: "message", role: "assistant", status: "streaming" }).result;
  appendItemDelta(store, message.id, "partial");
  settleRun(store, runId, "cancelled", "cancelled");
  const count = countRows(store);
  assert.throws(
    () => appendItemDelta(store, message.id, " late text"),
    storeErrorCode("run_not_active"),
  );
  assert.equal(countRows(store), count, "no item.delta after run.settled");
  assert.equal(item(store, message.id).content, "partial");
});

Deno.test("a second StateStore that has not seen a settlement reports it and writes nothing", async () => {
  await using fixture = await openTestStore();
  const a = fixture.store;
  const b = fixture.openAnother(new FakeClock("2026-10-01T12:00:00.000Z"));
  const { runId } = await runningRun(fixture);
  assert.equal(readRunScope(b.db, runId).status, "running", "B saw the run running");
  assert.equal(settleRun(a, runId, "completed", null).result.settled, true);
  const count = countRows(a);
  const late = settleRun(b, runId, "cancelled", "cancelled");
  assert.deepEqual(late, {
    result: { settled: false, status: "completed", reasonCode: null },
    events: [],
  });
  assert.equal(countRows(a), count);
  assert.equal(settledCount(a, runId), 1);
});

Deno.test("the unique index refuses a second run.settled appended by another connection", async () => {
  await using fixture = await openTestStore();
  const a = fixture.store;
  const b = fixture.openAnother();
  const { runId } = await runningRun(fixture);
  settleRun(a, runId, "completed", null);
  const count = countRows(a);
  const { status: _status, ...scope } = readRunScope(b.db, runId);
  assert.throws(
    () =>
      b.write(({ append }) =>
        append({
          type: "run.settled",
          ...scope,
          payload: { status: "cancelled", reasonCode: "cancelled", failureClass: null },
        })
      ),
    /UNIQUE constraint failed: events\.run_id/,
  );
  assert.equal(countRows(a), count, "the refused settlement left no event");
  assert.equal(settledCount(a, runId), 1);
});

Deno.test("settleRun falls back to the earlier settlement when the unique index refuses it", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = await runningRun(fixture);
  const { status: _status, ...scope } = readRunScope(store.db, runId);
  // Another writer's run.settled whose projection this connection has not applied:
  // readRunScope still says running, so only the unique index stops a second one.
  const raw = new DatabaseSync(fixture.path);
  raw.prepare(
    `INSERT INTO events (schema_version, event_type, thread_id, branch_id, turn_id, run_id,
       created_at, payload_json) VALUES (1, 'run.settled', ?, ?, ?, ?, ?, ?)`,
  ).run(
    scope.threadId,
    scope.branchId,
    scope.turnId,
    runId,
    "2026-10-01T11:00:00.000Z",
    JSON.stringify({
      status: "failed",
      reasonCode: "agent_error",
      failureClass: "unrecoverable",
      turnId: scope.turnId,
      runId,
    }),
  );
  raw.close();
  const count = countRows(store);
  const attempt = settleRun(store, runId, "completed", null);
  assert.equal(attempt.result.settled, false);
  assert.deepEqual(attempt.events, []);
  assert.equal(countRows(store), count, "the refused settlement rolled back entirely");
  assert.equal(readRow(store, "SELECT status FROM runs WHERE id = ?", runId).status, "running");
});

Deno.test("racing settle attempts from two stores settle the run exactly once", async () => {
  await using fixture = await openTestStore();
  const a = fixture.store;
  const b = fixture.openAnother(new FakeClock("2026-10-01T10:30:00.000Z"));
  const { runId } = await runningRun(fixture);
  startItem(a, runId, { kind: "message", role: "assistant", status: "streaming" });
  const attempts = [
    ["cancelled", "cancelled"],
    ["completed", null],
    ["failed", "agent_error"],
    ["failed", "runtime_shutdown"],
    ["cancelled", "runtime_interrupted"],
    ["completed", null],
  ] as const;
  const results = await Promise.all(
    attempts.flatMap(([status, reason], i) =>
      [a, b].map(async (store, j) => {
        await new Promise((resolve) => setTimeout(resolve, (i * 7 + j * 3) % 5));
        return settleRun(store, runId, status, reason);
      })
    ),
  );
  const winners = results.filter((r) => r.result.settled);
  assert.equal(winners.length, 1, `expected one winner, got ${winners.length}`);
  const { status, reasonCode } = winners[0].result;
  for (const loser of results.filter((r) => !r.result.settled)) {
    assert.deepEqual(loser, { result: { settled: false, status, reasonCode }, events: [] });
  }
  assert.equal(settledCount(a, runId), 1);
  assert.deepEqual(
    { ...readRow(a, "SELECT status, reason_code FROM runs WHERE id = ?", runId) },
    { status, reason_code: reasonCode },
  );
});

Deno.test("settle attempts from separate processes settle the run exactly once", async () => {
  await using fixture = await openTestStore();
  const { runId } = await runningRun(fixture);
  const storeUrl = new URL("./store.ts", import.meta.url).href;
  const writesUrl = new URL("./run_writes.ts", import.meta.url).href;
  const code = [
    `import { StateStore } from ${JSON.stringify(storeUrl)};`,
    `import { settleRun } from ${JSON.stringify(writesUrl)};`,
    `const env = (name) => Deno.env.get(name);`,
    `const store = StateStore.open(env("DB"));`,
    `while (Date.now() < Number(env("START"))) { /* line up with the others */ }`,
    `const { result } = settleRun(store, env("RUN"), env("STATUS"), env("REASON") || null);`,
    `store.close();`,
    `console.log(JSON.stringify(result));`,
  ].join("\n");
  const start = String(Date.now() + 1_500);
  const statuses = [["completed", ""], ["cancelled", "cancelled"], ["failed", "agent_error"]];
  const children = Array.from({ length: 6 }, (_, i) => {
    const [status, reason] = statuses[i % statuses.length];
    return new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      cwd: new URL("../../../", import.meta.url).pathname,
      env: { DB: fixture.path, RUN: runId, STATUS: status, REASON: reason, START: start },
      stdout: "piped",
      stderr: "piped",
    }).output();
  });
  const outputs = await Promise.all(children);
  const results = outputs.map((out) => {
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `a settling process failed: ${stderr}`);
    return JSON.parse(new TextDecoder().decode(out.stdout));
  });
  const winners = results.filter((r) => r.settled);
  assert.equal(winners.length, 1, `expected one winner: ${JSON.stringify(results)}`);
  for (const loser of results.filter((r) => !r.settled)) {
    assert.deepEqual(loser, { ...winners[0], settled: false });
  }
  assert.equal(settledCount(fixture.store, runId), 1);
});
