import assert from "node:assert/strict";
import { newId } from "@daedalus/protocol";
import { activateRun, readRunScope, settleRun, startItem, steerRun } from "./run_writes.ts";
import {
  APPROVAL_DENIED_ERROR_CODE,
  type ApprovalRequest,
  requestApproval,
  requestBudgetApproval,
  resolveApproval,
} from "./approval_writes.ts";
import { readRunSpend } from "./reads/run_spend.ts";
import { listApprovals, readApproval, readPendingApproval } from "./reads/approvals.ts";
import { checkState } from "./maintenance.ts";
import { hasActiveRun, setThreadArchived } from "./thread_writes.ts";
import { listRecoverableRuns } from "./reads/recovery.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  failInsert,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
  storeErrorCode,
  type TestStore,
} from "./_test_store.ts";

/** A running Run with one running tool call, as the loop has it when the gate asks. */
async function waitingCandidate(fixture: TestStore) {
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  assert.equal(activateRun(fixture.store, runId).result, true);
  const call = startItem(fixture.store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "process_start", callId: "call_1", arguments: { command: "rm -rf b" } },
  }).result;
  const request: ApprovalRequest = {
    runId,
    toolCallItemId: call.id,
    toolId: "process_start",
    summary: "Run rm -rf b",
    target: "rm -rf b",
    risk: "process",
    reasonCode: "high_risk_command",
  };
  return { threadId, runId, callId: call.id, request };
}

function runStatus(fixture: TestStore, runId: string): string {
  return readRunScope(fixture.store.db, runId).status;
}

function assertRebuildable(fixture: TestStore): void {
  const report = checkState(fixture.store.db);
  assert.deepEqual(report.projectionDifferences, [], "projections differ from a rebuild");
  assert.deepEqual(report.journal, [], "journal problems");
  assert.ok(report.ok, `storage check failed: ${JSON.stringify(report)}`);
}

Deno.test("requestApproval records a pending approval and turns the Run waiting, in one transaction", async () => {
  await using fixture = await openTestStore();
  const { runId, threadId, callId, request } = await waitingCandidate(fixture);
  const { result: approval, events } = requestApproval(fixture.store, request);
  assertValidEvents(events);
  assert.deepEqual(eventTypes(events), ["approval.requested", "run.state_changed"]);
  const changed = events[1];
  assert.ok(changed?.type === "run.state_changed");
  assert.deepEqual([changed.payload.previousStatus, changed.payload.status], [
    "running",
    "waiting",
  ]);
  assert.equal(events[0]?.itemId, callId, "the approval event is scoped to the waiting call");
  assert.match(approval.approvalId, /^approval_[0-9a-f]{32}$/);
  assert.deepEqual(
    [approval.status, approval.decision, approval.resolvedAt, approval.threadId],
    ["pending", null, null, threadId],
  );
  assert.equal(runStatus(fixture, runId), "waiting");
  assert.deepEqual(readApproval(fixture.store.db, approval.approvalId), approval);
  assert.deepEqual(readPendingApproval(fixture.store.db, runId), approval);
  assertRebuildable(fixture);
});

Deno.test("requestApproval refuses a Run that is not running or an item that is not its running call", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await waitingCandidate(fixture);
  const other = await waitingCandidate(fixture);
  const result = startItem(fixture.store, runId, {
    kind: "tool_result",
    role: "tool",
    status: "completed",
    content: "x",
  }).result;
  const cases: [string, ApprovalRequest, string][] = [
    ["an unknown run", { ...request, runId: newId("run") }, "run_not_found"],
    ["an unknown item", { ...request, toolCallItemId: newId("item") }, "item_not_found"],
    ["another Run's call", { ...request, toolCallItemId: other.callId }, "item_not_found"],
    ["a tool result", { ...request, toolCallItemId: result.id }, "item_not_found"],
  ];
  for (const [name, input, code] of cases) {
    assert.throws(
      () => requestApproval(fixture.store, input),
      storeErrorCode(code as "item_not_found"),
      name,
    );
  }
  requestApproval(fixture.store, request);
  assert.throws(
    () => requestApproval(fixture.store, request),
    storeErrorCode("run_not_active"),
    "a Run already waiting cannot ask again",
  );
  assert.equal(countRows(fixture.store, "approvals", "run_id = ?", runId), 1);
});

Deno.test("a failed requestApproval writes nothing: the Run stays running", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await waitingCandidate(fixture);
  const before = countRows(fixture.store, "events", "1 = 1");
  const restore = failInsert(fixture.store, "approvals", "1 = 1");
  assert.throws(() => requestApproval(fixture.store, request), /injected failure/);
  restore();
  assert.equal(countRows(fixture.store, "events", "1 = 1"), before);
  assert.equal(runStatus(fixture, runId), "running");
});

Deno.test("allow_once resolves the approval and the Run runs again; the call stays running", async () => {
  await using fixture = await openTestStore();
  const { runId, callId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const { result, events } = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "allow_once",
  });
  assertValidEvents(events);
  assert.deepEqual(eventTypes(events), ["approval.resolved", "run.state_changed"]);
  assert.deepEqual([result.status, result.decision, result.message], [
    "allowed",
    "allow_once",
    null,
  ]);
  assert.equal(result.resolvedAt, events[0]?.timestamp);
  assert.equal(runStatus(fixture, runId), "running");
  assert.equal(
    readRow(fixture.store, "SELECT status FROM items WHERE id = ?", callId).status,
    "running",
  );
  assert.equal(readPendingApproval(fixture.store.db, runId), null);
  assertRebuildable(fixture);
});

Deno.test("deny fails the call with a tool error carrying the user's message, and the Run runs again", async () => {
  await using fixture = await openTestStore();
  const { runId, callId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const { result, events } = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "deny",
    message: "clean only the dist folder",
  });
  assertValidEvents(events);
  assert.deepEqual(eventTypes(events), [
    "approval.resolved",
    "item.completed",
    "item.completed",
    "run.state_changed",
  ]);
  assert.deepEqual([result.status, result.decision, result.message], [
    "denied",
    "deny",
    "clean only the dist folder",
  ]);
  assert.equal(
    readRow(fixture.store, "SELECT status FROM items WHERE id = ?", callId).status,
    "failed",
  );
  const toolResult = readRow(
    fixture.store,
    "SELECT status, content, data_json FROM items WHERE run_id = ? AND kind = 'tool_result'",
    runId,
  );
  assert.equal(toolResult.status, "failed");
  assert.match(String(toolResult.content), /denied.*clean only the dist folder/);
  const data = JSON.parse(String(toolResult.data_json));
  assert.deepEqual(
    [data.toolCallItemId, data.callId, data.isError, data.errorCode, data.approvalId],
    [callId, "call_1", true, APPROVAL_DENIED_ERROR_CODE, approval.approvalId],
  );
  assert.equal(runStatus(fixture, runId), "running");
  assertRebuildable(fixture);
});

Deno.test("answering twice: the same clientRequestId and decision is the first answer; anything else is already resolved", async () => {
  await using fixture = await openTestStore();
  const { request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const first = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "deny",
    clientRequestId: "answer-1",
  });
  const retry = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "deny",
    clientRequestId: "answer-1",
  });
  assert.deepEqual(retry.result, first.result);
  assert.deepEqual(retry.events, [], "a retry writes nothing");
  const refused = [
    { decision: "deny" as const },
    { decision: "deny" as const, clientRequestId: "answer-2" },
    { decision: "allow_once" as const, clientRequestId: "answer-1" },
  ];
  for (const answer of refused) {
    assert.throws(
      () => resolveApproval(fixture.store, { approvalId: approval.approvalId, ...answer }),
      storeErrorCode("approval_already_resolved"),
      JSON.stringify(answer),
    );
  }
  assert.throws(
    () => resolveApproval(fixture.store, { approvalId: newId("approval"), decision: "deny" }),
    storeErrorCode("approval_not_found"),
  );
  assertRebuildable(fixture);
});

Deno.test("an approval accepts only the decisions it offers: a high-risk command cannot become a rule", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  assert.deepEqual(approval.decisions, ["allow_once", "deny"]);
  for (const decision of ["allow_thread", "allow_always"] as const) {
    assert.throws(
      () => resolveApproval(fixture.store, { approvalId: approval.approvalId, decision }),
      storeErrorCode("approval_decision_invalid"),
      decision,
    );
  }
  assert.equal(runStatus(fixture, runId), "waiting", "a refused answer changes nothing");
  const other = await waitingCandidate(fixture);
  const unnamed = requestApproval(fixture.store, {
    ...(await waitingCandidate(fixture)).request,
    reasonCode: "permission_ask",
  }).result;
  assert.deepEqual(unnamed.decisions, ["allow_once", "deny"], "no rule, no rule-making answers");
  const rule = { tool: "process_start", pattern: "rm", decision: "allow" } as const;
  const asked = requestApproval(fixture.store, {
    ...other.request,
    reasonCode: "permission_ask",
    rule,
  }).result;
  assert.deepEqual(asked.rule, rule);
  assert.deepEqual(asked.decisions, ["allow_once", "allow_thread", "allow_always", "deny"]);
  const answered = resolveApproval(fixture.store, {
    approvalId: asked.approvalId,
    decision: "allow_always",
  }).result;
  assert.deepEqual([answered.status, answered.decision], ["allowed", "allow_always"]);
  assertRebuildable(fixture);
});

Deno.test("settling a waiting Run cancels its approval and ends the call; a later answer is refused", async () => {
  await using fixture = await openTestStore();
  const { runId, callId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const { result, events } = settleRun(fixture.store, runId, "cancelled", "cancelled");
  assertValidEvents(events);
  assert.equal(result.settled, true);
  assert.deepEqual(eventTypes(events).slice(0, 2), ["approval.resolved", "item.completed"]);
  const cancelled = readApproval(fixture.store.db, approval.approvalId);
  assert.deepEqual([cancelled?.status, cancelled?.decision], ["cancelled", null]);
  assert.ok(cancelled?.resolvedAt, "a cancelled approval has resolvedAt");
  assert.equal(runStatus(fixture, runId), "cancelled");
  assert.equal(
    readRow(fixture.store, "SELECT status FROM items WHERE id = ?", callId).status,
    "cancelled",
  );
  assert.throws(
    () =>
      resolveApproval(fixture.store, { approvalId: approval.approvalId, decision: "allow_once" }),
    storeErrorCode("approval_already_resolved"),
  );
  assertRebuildable(fixture);
});

Deno.test("steering a waiting Run adds the message and keeps the approval pending", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const steer = steerRun(fixture.store, runId, "use the other folder");
  assert.equal(steer.result.content, "use the other folder");
  assert.equal(runStatus(fixture, runId), "waiting");
  assert.equal(readPendingApproval(fixture.store.db, runId)?.approvalId, approval.approvalId);
});

Deno.test("a waiting Run keeps its thread busy: it cannot be archived", async () => {
  await using fixture = await openTestStore();
  const { threadId, request } = await waitingCandidate(fixture);
  requestApproval(fixture.store, request);
  assert.equal(hasActiveRun(fixture.store.db, threadId), true);
  assert.throws(
    () => setThreadArchived(fixture.store, threadId, true),
    storeErrorCode("thread_busy"),
  );
});

Deno.test("a waiting Run is not recoverable (a restart leaves it waiting); answered, it is again", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await waitingCandidate(fixture);
  const approval = requestApproval(fixture.store, request).result;
  const recoverable = () => listRecoverableRuns(fixture.store.db).map((run) => run.runId);
  assert.deepEqual(recoverable(), [], "a waiting Run must not be marked runtime_interrupted");
  resolveApproval(fixture.store, { approvalId: approval.approvalId, decision: "allow_once" });
  assert.deepEqual(recoverable(), [runId]);
});

Deno.test("listApprovals filters by thread and status, newest first", async () => {
  await using fixture = await openTestStore();
  const a = await waitingCandidate(fixture);
  const b = await waitingCandidate(fixture);
  const first = requestApproval(fixture.store, a.request).result;
  const second = requestApproval(fixture.store, b.request).result;
  resolveApproval(fixture.store, { approvalId: first.approvalId, decision: "allow_once" });
  const ids = (filter: Parameters<typeof listApprovals>[1]) =>
    listApprovals(fixture.store.db, filter).map((approval) => approval.approvalId);
  assert.deepEqual(ids({}), [second.approvalId, first.approvalId]);
  assert.deepEqual(ids({ status: "pending" }), [second.approvalId]);
  assert.deepEqual(ids({ status: "allowed" }), [first.approvalId]);
  assert.deepEqual(ids({ threadId: a.threadId }), [first.approvalId]);
  assert.deepEqual(ids({ threadId: a.threadId, status: "pending" }), []);
  assert.deepEqual(ids({ status: "denied" }), []);
  assertRebuildable(fixture);
});

Deno.test("a budget approval is the Run's: deny settles it failed budget_exceeded in the answer's transaction", async () => {
  await using fixture = await openTestStore();
  const { runId } = await waitingCandidate(fixture);
  const budget = { kind: "modelCalls" as const, limit: 3, used: 3, extension: 3 };
  const { result: approval, events } = requestBudgetApproval(fixture.store, {
    runId,
    summary: "Budget reached: 3 of 3 model calls. Continue with +3 model calls?",
    budget,
  });
  assertValidEvents(events);
  assert.equal(events[0]?.itemId, null, "scoped to the Run, not an item");
  assert.deepEqual(
    [approval.reasonCode, approval.toolCallItemId, approval.tool, approval.decisions],
    ["budget_reached", null, null, ["allow_once", "deny"]],
  );
  assert.equal(runStatus(fixture, runId), "waiting");
  const denied = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "deny",
  });
  assertValidEvents(denied.events);
  assert.deepEqual(eventTypes(denied.events).slice(0, 1), ["approval.resolved"]);
  assert.ok(eventTypes(denied.events).includes("run.settled"));
  const scope = readRunScope(fixture.store.db, runId);
  assert.equal(scope.status, "failed");
  assertRebuildable(fixture);
});

Deno.test("allowed budget approvals add their extension to the Run's spend; running time leaves out waiting", async () => {
  await using fixture = await openTestStore();
  const { runId } = await waitingCandidate(fixture);
  const budget = { kind: "tokens" as const, limit: 10, used: 12, extension: 10 };
  const asked = requestBudgetApproval(fixture.store, { runId, summary: "Budget reached", budget })
    .result;
  resolveApproval(fixture.store, { approvalId: asked.approvalId, decision: "allow_once" });
  const spend = readRunSpend(fixture.store.db, runId, new Date(Date.now() + 3_600_000));
  assert.equal(spend.extensions.tokens, 10);
  assert.equal(spend.extensions.modelCalls, 0);
  assert.ok(spend.runningSeconds >= 3_600, "running again since the answer: the hour counts");
  const waitingRun = await waitingCandidate(fixture);
  requestBudgetApproval(fixture.store, { runId: waitingRun.runId, summary: "Budget", budget });
  const whileWaiting = readRunSpend(
    fixture.store.db,
    waitingRun.runId,
    new Date(Date.now() + 3_600_000),
  );
  assert.ok(
    whileWaiting.runningSeconds < 60,
    `waiting does not count: ${whileWaiting.runningSeconds}`,
  );
});
