/**
 * The app's approvals as signals: the pending ones of every thread (listed when the app
 * connects, so the sidebar's badge survives a reload), every approval of the open thread
 * (listed when it opens, so old cards show how they were answered), and the live
 * `approval.*` events. Answers go out as `approval.respond` with a clientRequestId kept
 * per approval, so a retried click is idempotent; a refusal is kept beside the card.
 *
 * @module
 */
import { computed, effect, signal } from "@preact/signals";
import type { Approval, ApprovalDecision } from "@daedalus/client";
import { connection, conversation, onJournalEvent } from "./store.ts";
import {
  applyApprovalEvents,
  applyApprovalList,
  approvalOfEvent,
  type ApprovalsState,
  emptyApprovals,
  threadsAwaitingAnswer,
  threadsAwaitingApproval,
} from "./approvals.ts";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** Every approval the app knows. */
export const approvals = signal<ApprovalsState>(emptyApprovals());

/** Threads with an approval waiting for the user (the sidebar's badge). */
export const awaitingThreads = computed(() => threadsAwaitingApproval(approvals.value));

/** Threads whose pending approval is an `ask_user` question (the sidebar's question badge). */
export const questioningThreads = computed(() => threadsAwaitingAnswer(approvals.value));

/** An answer on its way, or the refusal of the last one. */
export interface AnswerState {
  /** The decision being sent, or null when none is. */
  sending: ApprovalDecision | null;
  /** Why the last answer was refused, until the next one. */
  failure: CallFailure | null;
}

/** Answers by approval id. */
export const answers = signal<Readonly<Record<string, AnswerState>>>({});

/** Listeners for each approval that arrives live (notifications). */
const arrivals = new Set<(approval: Approval) => void>();

/**
 * Calls `listener` for each approval requested while the app runs.
 *
 * @param listener gets the new approval
 * @returns a function that stops listening
 */
export function onApprovalRequested(listener: (approval: Approval) => void): () => void {
  arrivals.add(listener);
  return () => arrivals.delete(listener);
}

/**
 * Lands an `approval.list` answer.
 *
 * @param list the approvals listed
 */
export function landApprovals(list: readonly Approval[]): void {
  approvals.value = applyApprovalList(approvals.value, list);
}

/**
 * Lists approvals and lands them. A runtime without `approval.list` (or a failed call)
 * leaves the state to the live events: a card still appears when its request arrives.
 *
 * @param params which approvals
 * @param call the RPC call, the app's connection by default
 */
export async function loadApprovals(
  params: { threadId?: string; status?: "pending" },
  call: RpcCall = liveCall,
): Promise<void> {
  try {
    landApprovals((await call("approval.list", params)).approvals);
  } catch {
    // Nothing to show instead: the cards and badges of live requests still work.
  }
}

/** Starts following the connection, the open thread and the journal. */
export function startApprovals(): void {
  onJournalEvent((event) => {
    const next = applyApprovalEvents(approvals.value, [event]);
    if (next === approvals.value) return;
    approvals.value = next;
    const approval = approvalOfEvent(event);
    if (event.type === "approval.requested" && approval) {
      for (const listener of arrivals) listener(approval);
    }
  });
  effect(() => {
    if (connection.value === "connected") void loadApprovals({ status: "pending" });
  });
  let shown: string | null = null;
  effect(() => {
    const threadId = conversation.value?.threadId ?? null;
    if (threadId === shown) return;
    shown = threadId;
    if (threadId !== null) void loadApprovals({ threadId });
  });
}

const requestIds = new Map<string, string>();

/**
 * Answers an approval. The card shows the runtime's answer, not a guess: the approval
 * changes when `approval.respond` returns it (or its `approval.resolved` arrives). While
 * one answer is on its way, another is ignored.
 *
 * @param approvalId the approval
 * @param decision one of the approval's `decisions`
 * @param message what the model is told (a denial's reason); blank sends none
 * @param call the RPC call, the app's connection by default
 * @param answer the answer to an `ask_user` question (with allow_once)
 * @returns whether the runtime accepted it
 */
export async function respondToApproval(
  approvalId: string,
  decision: ApprovalDecision,
  message?: string,
  call: RpcCall = liveCall,
  answer?: string | string[],
): Promise<boolean> {
  if (answers.value[approvalId]?.sending) return false;
  setAnswer(approvalId, { sending: decision, failure: null });
  const text = message?.trim();
  // One id per answer: the same answer repeated after a lost reply is idempotent, while
  // another answer is a request of its own.
  const answerKey = JSON.stringify([approvalId, decision, text ?? "", answer ?? null]);
  const clientRequestId = requestIds.get(answerKey) ?? crypto.randomUUID();
  requestIds.set(answerKey, clientRequestId);
  try {
    const { approval } = await call("approval.respond", {
      approvalId,
      decision,
      clientRequestId,
      ...(text ? { message: text } : {}),
      ...(answer !== undefined ? { answer } : {}),
    });
    landApprovals([approval]);
    setAnswer(approvalId, { sending: null, failure: null });
    return true;
  } catch (error) {
    setAnswer(approvalId, { sending: null, failure: callFailure(error) });
    // Another answer (or a cancel) may have won: show how it ended rather than the buttons.
    const threadId = approvals.value.byId[approvalId]?.threadId;
    if (threadId) void loadApprovals({ threadId }, call);
    return false;
  }
}

function setAnswer(approvalId: string, state: AnswerState): void {
  answers.value = { ...answers.value, [approvalId]: state };
}

/**
 * Forgets everything (tests).
 */
export function resetApprovals(): void {
  approvals.value = emptyApprovals();
  answers.value = {};
  requestIds.clear();
}
