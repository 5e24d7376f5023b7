import assert from "node:assert/strict";
import { activateRun, readRunScope, settleRun, startItem } from "./run_writes.ts";
import {
  awaitClientTools,
  readClientToolWait,
  readWaitingRunId,
  submitClientToolResult,
} from "./client_tool_writes.ts";
import { requestApproval } from "./approval_writes.ts";
import { checkState } from "./maintenance.ts";
import {
  assertValidEvents,
  eventTypes,
  openTestStore,
  seedThread,
  seedTurn,
  storeErrorCode,
  type TestStore,
} from "./_test_store.ts";

/** A running Run with two client-side calls and one of the runtime's, all running. */
async function clientCalls(fixture: TestStore) {
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  activateRun(fixture.store, runId);
  const call = (toolId: string, clientTool: boolean) =>
    startItem(fixture.store, runId, {
      kind: "tool_call",
      role: "assistant",
      status: "running",
      data: {
        toolId,
        callId: `call_${toolId}`,
        arguments: {},
        ...(clientTool ? { clientTool } : {}),
      },
    }).result.id;
  return {
    threadId,
    runId,
    weather: call("get_weather", true),
    time: call("get_time", true),
    server: call("read", false),
  };
}

function assertRebuildable(fixture: TestStore): void {
  const report = checkState(fixture.store.db);
  assert.deepEqual(report.projectionDifferences, [], "projections differ from a rebuild");
  assert.ok(report.ok, `storage check failed: ${JSON.stringify(report)}`);
}

Deno.test("a Run waits for its client-side calls; the last result turns it running again", async () => {
  await using fixture = await openTestStore();
  const { threadId, runId, weather, time } = await clientCalls(fixture);
  const waited = awaitClientTools(fixture.store, runId);
  assertValidEvents(waited.events);
  assert.deepEqual(eventTypes(waited.events), ["run.state_changed"]);
  assert.deepEqual(waited.result.calls.map((c) => c.id), [weather, time]);
  assert.equal(readWaitingRunId(fixture.store.db, threadId), runId);
  assert.deepEqual(
    readClientToolWait(fixture.store.db, threadId)?.calls.map((c) => c.id),
    [weather, time],
  );

  const first = submitClientToolResult(fixture.store, {
    runId,
    toolCallItemId: weather,
    content: '{"tempC":21}',
  });
  assertValidEvents(first.events);
  assert.deepEqual(first.result.pending, [time]);
  assert.equal(first.result.resumed, false);
  assert.equal(readRunScope(fixture.store.db, runId).status, "waiting", "one result is missing");
  assert.equal(first.result.result.data.toolCallItemId, weather);

  const last = submitClientToolResult(fixture.store, {
    runId,
    toolCallItemId: time,
    content: "no clock",
    isError: true,
  });
  assert.deepEqual(eventTypes(last.events), [
    "item.completed",
    "item.completed",
    "run.state_changed",
  ]);
  assert.equal(last.result.resumed, true);
  assert.equal(last.result.result.status, "failed");
  assert.equal(readRunScope(fixture.store.db, runId).status, "running");
  assert.equal(readWaitingRunId(fixture.store.db, threadId), null);
  assertRebuildable(fixture);
});

Deno.test("client-side results: refusals leave the store as it was", async () => {
  await using fixture = await openTestStore();
  const { threadId, runId, weather, server } = await clientCalls(fixture);
  assert.throws(
    () => submitClientToolResult(fixture.store, { runId, toolCallItemId: weather, content: "x" }),
    storeErrorCode("run_not_active"),
    "a running Run does not take results",
  );
  awaitClientTools(fixture.store, runId);
  for (
    const [what, itemId] of [
      ["the runtime's own call", server],
      ["an unknown item", `item_${"0".repeat(32)}`],
    ]
  ) {
    assert.throws(
      () => submitClientToolResult(fixture.store, { runId, toolCallItemId: itemId!, content: "x" }),
      storeErrorCode("tool_call_not_pending"),
      what,
    );
  }
  assert.throws(
    () => awaitClientTools(fixture.store, runId),
    storeErrorCode("run_not_active"),
    "a waiting Run cannot wait again",
  );
  settleRun(fixture.store, runId, "cancelled", "cancelled");
  assert.equal(readClientToolWait(fixture.store.db, threadId), null);
  assertRebuildable(fixture);
});

Deno.test("a Run waiting for an approval is not waiting for the client", async () => {
  await using fixture = await openTestStore();
  const { threadId, runId, server } = await clientCalls(fixture);
  requestApproval(fixture.store, {
    runId,
    toolCallItemId: server,
    toolId: "read",
    summary: "Read it",
    target: "a",
    risk: "read",
    reasonCode: "permission_ask",
  });
  assert.equal(readWaitingRunId(fixture.store.db, threadId), runId);
  assert.equal(readClientToolWait(fixture.store.db, threadId), null);
});
