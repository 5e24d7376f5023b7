import assert from "node:assert/strict";
import type { Approval, JournalEvent } from "@daedalus/client";
import {
  applyApprovalEvents,
  applyApprovalList,
  approvalOfEvent,
  approvalOfItem,
  budgetApprovalOfRun,
  emptyApprovals,
  threadsAwaitingAnswer,
  threadsAwaitingApproval,
} from "./approvals.ts";
import { APPROVAL_CREATED_AT, approvalFixture } from "./_approval_fixture.ts";

const TS = APPROVAL_CREATED_AT;
const LATER = "2026-12-01T10:05:00.000Z";

const approval = approvalFixture;

const DENIED = {
  status: "denied",
  decision: "deny",
  message: "not now",
  resolvedAt: LATER,
} as const;

/** An `approval.*` event as the runtime sends it: the run id only in the envelope. */
function approvalEvent(
  seq: number,
  type: "approval.requested" | "approval.resolved",
  a: Approval,
  extra: Record<string, unknown> = {},
): JournalEvent {
  const { runId, ...payload } = a;
  return {
    seq,
    schemaVersion: 1,
    threadId: a.threadId,
    branchId: "branch_1",
    turnId: "turn_1",
    runId,
    itemId: a.toolCallItemId,
    timestamp: a.resolvedAt ?? a.createdAt,
    type,
    payload: { ...payload, ...extra },
  } as JournalEvent;
}

Deno.test("approvals: a requested event adds a pending approval with its run id", () => {
  const state = applyApprovalEvents(emptyApprovals(), [
    approvalEvent(5, "approval.requested", approval()),
  ]);
  assert.deepEqual(state.byId["approval_1"], approval());
});

Deno.test("approvals: a resolved event replaces the pending one, without its clientRequestId", () => {
  const state = applyApprovalEvents(emptyApprovals(), [
    approvalEvent(5, "approval.requested", approval()),
    approvalEvent(6, "approval.resolved", approval(DENIED), { clientRequestId: "req-1" }),
  ]);
  assert.deepEqual(state.byId["approval_1"], approval(DENIED));
});

Deno.test("approvals: a resolution wins whichever arrives last", () => {
  const cases: { name: string; first: Approval[]; then: Approval[] }[] = [
    {
      name: "list pending after the event resolved",
      first: [approval(DENIED)],
      then: [approval()],
    },
    {
      name: "event resolved after the list pending",
      first: [approval()],
      then: [approval(DENIED)],
    },
  ];
  for (const { name, first, then } of cases) {
    const state = applyApprovalList(applyApprovalList(emptyApprovals(), first), then);
    assert.equal(state.byId["approval_1"]?.status, "denied", name);
  }
  const resolvedFirst = applyApprovalEvents(
    applyApprovalList(emptyApprovals(), [approval(DENIED)]),
    [approvalEvent(5, "approval.requested", approval())],
  );
  assert.equal(resolvedFirst.byId["approval_1"]?.status, "denied", "a late request event");
});

Deno.test("approvals: a second resolution does not overwrite the first", () => {
  const allowed = approval({
    status: "allowed",
    decision: "allow_once",
    resolvedAt: LATER,
  });
  const state = applyApprovalList(applyApprovalList(emptyApprovals(), [allowed]), [
    approval(DENIED),
  ]);
  assert.equal(state.byId["approval_1"]?.decision, "allow_once");
});

Deno.test("approvals: other events leave the same state object", () => {
  const state = applyApprovalList(emptyApprovals(), [approval()]);
  const other = { ...approvalEvent(7, "approval.requested", approval()), type: "thread.renamed" };
  assert.equal(applyApprovalEvents(state, [other as JournalEvent]), state);
  assert.equal(approvalOfEvent(other as JournalEvent), null);
  assert.equal(
    applyApprovalEvents(state, [approvalEvent(8, "approval.requested", approval())]),
    state,
    "a repeated pending record changes nothing",
  );
});

Deno.test("approvals: a tool call shows its newest approval, none for other items", () => {
  const older = approval({ ...DENIED, approvalId: "approval_old", createdAt: TS });
  const newer = approval({ approvalId: "approval_new", createdAt: LATER });
  const state = applyApprovalList(emptyApprovals(), [newer, older]);
  assert.equal(approvalOfItem(state, "item_call")?.approvalId, "approval_new");
  assert.equal(approvalOfItem(state, "item_other"), null);
});

Deno.test("approvals: the threads awaiting an answer are those with a pending approval", () => {
  const state = applyApprovalList(emptyApprovals(), [
    approval({ approvalId: "approval_a", threadId: "thread_a" }),
    approval({ ...DENIED, approvalId: "approval_b", threadId: "thread_b" }),
    approval({
      approvalId: "approval_c",
      threadId: "thread_c",
      status: "cancelled",
      resolvedAt: LATER,
    }),
  ]);
  assert.deepEqual([...threadsAwaitingApproval(state)], ["thread_a"]);
});

Deno.test("approvals: threads awaiting an answer to a question are those with a pending ask_user", () => {
  const question = { tool: "ask_user", reasonCode: "user_question" as const };
  let state = applyApprovalList(emptyApprovals(), [
    approval({ ...question, approvalId: "approval_q", threadId: "thread_q" }),
    approval({ approvalId: "approval_p", threadId: "thread_p" }),
    approval({ ...question, ...DENIED, approvalId: "approval_old", threadId: "thread_old" }),
  ]);
  assert.deepEqual([...threadsAwaitingAnswer(state)], ["thread_q"], "only the open question");
  assert.deepEqual([...threadsAwaitingApproval(state)].sort(), ["thread_p", "thread_q"]);
  state = applyApprovalEvents(state, [
    approvalEvent(
      9,
      "approval.resolved",
      approval({
        ...question,
        approvalId: "approval_q",
        threadId: "thread_q",
        status: "allowed",
        decision: "allow_once",
        resolvedAt: LATER,
      }),
    ),
  ]);
  assert.deepEqual([...threadsAwaitingAnswer(state)], [], "an answered question still badges");
});

Deno.test("a Run's budget approval is found by its Run, the newest first; a call's is not", () => {
  const budget = {
    approvalId: "approval_b1",
    reasonCode: "budget_reached" as const,
    toolCallItemId: null,
    tool: null,
    risk: null,
    target: null,
    rule: null,
    decisions: ["allow_once" as const, "deny" as const],
    budget: { kind: "modelCalls" as const, limit: 2, used: 2, extension: 2 },
  };
  let state = applyApprovalList(emptyApprovals(), [
    approval(),
    approval({ ...budget, status: "allowed", decision: "allow_once", resolvedAt: LATER }),
    approval({ ...budget, approvalId: "approval_b2", createdAt: LATER }),
  ]);
  assert.equal(budgetApprovalOfRun(state, "run_1")?.approvalId, "approval_b2");
  assert.equal(budgetApprovalOfRun(state, "run_2"), null);
  state = applyApprovalList(emptyApprovals(), [approval()]);
  assert.equal(budgetApprovalOfRun(state, "run_1"), null, "a call's approval is not a budget's");
});
