/**
 * The approvals the app knows, as a pure projection: `approval.list` answers (the pending
 * ones of every thread when the app connects, all of the open thread's when it opens)
 * merged with `approval.requested` / `approval.resolved` events. An approval only moves
 * forward (pending → allowed, denied or cancelled, once), so merging needs no seq: a
 * resolved record always wins over a pending one, whichever arrived last.
 *
 * @module
 */
import type { Approval, JournalEvent } from "@daedalus/client";

/** Approvals by id. */
export interface ApprovalsState {
  byId: Readonly<Record<string, Approval>>;
}

/** No approvals known yet. */
export function emptyApprovals(): ApprovalsState {
  return { byId: {} };
}

/**
 * Merges approvals from `approval.list`.
 *
 * @param state the known approvals
 * @param approvals the listed ones
 * @returns the state with each listed approval, unless a resolved copy is already known
 */
export function applyApprovalList(
  state: ApprovalsState,
  approvals: readonly Approval[],
): ApprovalsState {
  return approvals.reduce(merge, state);
}

/**
 * Applies live events; anything but `approval.*` is ignored.
 *
 * @param state the known approvals
 * @param events journal events in any order
 * @returns the new state (the same object when nothing changed)
 */
export function applyApprovalEvents(
  state: ApprovalsState,
  events: readonly JournalEvent[],
): ApprovalsState {
  let next = state;
  for (const event of events) {
    const approval = approvalOfEvent(event);
    if (approval) next = merge(next, approval);
  }
  return next;
}

/**
 * The approval an `approval.*` event carries (its payload is the approval flat, with the
 * run id in the envelope).
 *
 * @param event a journal event
 * @returns the approval, or null for any other event
 */
export function approvalOfEvent(event: JournalEvent): Approval | null {
  if (event.type !== "approval.requested" && event.type !== "approval.resolved") return null;
  const { clientRequestId: _id, ...fields } = event.payload as typeof event.payload & {
    clientRequestId?: string;
  };
  const runId = event.runId ?? (event.payload as { runId?: string }).runId;
  if (typeof runId !== "string") return null;
  return { ...fields, runId } as Approval;
}

function merge(state: ApprovalsState, approval: Approval): ApprovalsState {
  const known = state.byId[approval.approvalId];
  if (known && !replaces(approval, known)) return state;
  return { byId: { ...state.byId, [approval.approvalId]: approval } };
}

/** Whether `candidate` is newer than `known`: only a resolution replaces a record. */
function replaces(candidate: Approval, known: Approval): boolean {
  if (known.status !== "pending") return false;
  return candidate.status !== "pending";
}

/**
 * The approval of a tool call: the newest one asked for that item.
 *
 * @param state the known approvals
 * @param toolCallItemId the tool call item
 * @returns the approval, or null when the call never waited for the user
 */
export function approvalOfItem(state: ApprovalsState, toolCallItemId: string): Approval | null {
  let found: Approval | null = null;
  for (const approval of Object.values(state.byId)) {
    if (approval.toolCallItemId !== toolCallItemId) continue;
    if (!found || approval.createdAt > found.createdAt) found = approval;
  }
  return found;
}

/**
 * A Run's budget approval: the newest `budget_reached` one asked for the Run (it is the
 * Run's, not a call's, so the feed shows it with the Run's progress).
 *
 * @param state the known approvals
 * @param runId the run
 * @returns the approval, or null when the Run never reached a budget
 */
export function budgetApprovalOfRun(state: ApprovalsState, runId: string): Approval | null {
  let found: Approval | null = null;
  for (const approval of Object.values(state.byId)) {
    if (approval.runId !== runId || approval.reasonCode !== "budget_reached") continue;
    if (!found || approval.createdAt > found.createdAt) found = approval;
  }
  return found;
}

/**
 * The threads with an approval still waiting for the user.
 *
 * @param state the known approvals
 * @returns their ids
 */
export function threadsAwaitingApproval(state: ApprovalsState): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const approval of Object.values(state.byId)) {
    if (approval.status === "pending") ids.add(approval.threadId);
  }
  return ids;
}

/**
 * The threads whose Run waits for the user's answer to an `ask_user` question (the
 * sidebar's "question" badge, in place of the approval badge).
 *
 * @param state the known approvals
 * @returns their ids
 */
export function threadsAwaitingAnswer(state: ApprovalsState): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const approval of Object.values(state.byId)) {
    if (approval.status === "pending" && approval.reasonCode === "user_question") {
      ids.add(approval.threadId);
    }
  }
  return ids;
}

/**
 * Whether a Run waits for the user's answer to a question (`ask_user`) rather than for an
 * approval: its pending approval asks one.
 *
 * @param state the known approvals
 * @param runId the run
 * @returns true when the Run's pending approval is a question
 */
export function runAwaitsAnswer(state: ApprovalsState, runId: string): boolean {
  return Object.values(state.byId).some((approval) =>
    approval.runId === runId && approval.status === "pending" &&
    approval.reasonCode === "user_question"
  );
}
