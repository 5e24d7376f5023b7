import assert from "node:assert/strict";
import { activateRun, settleToolCall, startItem } from "./run_writes.ts";
import { appendFileChange } from "./run_facts.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
} from "./_test_store.ts";

Deno.test("a file change is committed with the tool result it belongs to", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  activateRun(store, runId);
  const call = startItem(store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "write", callId: "c1", arguments: { path: "a.txt" } },
  }).result;
  const change = {
    toolCallItemId: call.id,
    path: "a.txt",
    operation: "write" as const,
    additions: 2,
    deletions: 0,
    diff: "@@ -0,0 +1,2 @@\n+a\n+b",
  };
  const settled = settleToolCall(
    store,
    call.id,
    { status: "completed" },
    { status: "completed", content: "wrote a.txt" },
    (context, scope) => void appendFileChange(context, scope, change),
  );
  assertValidEvents(settled.events);
  assert.deepEqual(eventTypes(settled.events), [
    "item.completed",
    "file.change_recorded",
    "item.completed",
  ]);
  const row = readRow(
    store,
    "SELECT record_json FROM file_changes WHERE tool_call_item_id = ?",
    call.id,
  );
  const record = JSON.parse(String(row.record_json));
  assert.equal(record.diff, change.diff);
  assert.equal(record.additions, 2);
  assert.equal(record.recordedAt, settled.events[1]!.timestamp);
});

Deno.test("a failing tool result leaves no file change behind", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  activateRun(store, runId);
  const call =
    startItem(store, runId, { kind: "tool_call", role: "assistant", status: "running" }).result;
  assert.throws(() =>
    settleToolCall(
      store,
      call.id,
      { status: "completed" },
      { status: "completed", content: "x" },
      (context, scope) => {
        appendFileChange(context, scope, {
          toolCallItemId: call.id,
          path: "a.txt",
          operation: "edit",
          additions: 1,
          deletions: 1,
        });
        throw new Error("result could not be stored");
      },
    )
  );
  assert.equal(countRows(store, "file_changes"), 0);
  assert.equal(countRows(store, "events", "event_type = 'file.change_recorded'"), 0);
});

Deno.test("a steer retried with its clientRequestId is written once; other text conflicts", async () => {
  const { steerRun, settleRun } = await import("./run_writes.ts");
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  activateRun(store, runId);
  const first = steerRun(store, runId, "also X", { clientRequestId: "s1" });
  const again = steerRun(store, runId, "also X", { clientRequestId: "s1" });
  assert.equal(again.result.id, first.result.id);
  assert.deepEqual(again.events, []);
  assert.throws(
    () => steerRun(store, runId, "also Y", { clientRequestId: "s1" }),
    /different steer/,
  );
  settleRun(store, runId, "completed", null);
  assert.equal(
    steerRun(store, runId, "also X", { clientRequestId: "s1" }).result.id,
    first.result.id,
  );
  assert.equal(countRows(store, "events", "event_type = 'run.steered'"), 1);
});
