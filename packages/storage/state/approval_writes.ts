/**
 * Approvals in the state store: a tool call the gate will not run without the user's
 * answer. Asking turns the Run `waiting` and answering turns it `running` again, each in
 * the transaction that records the approval, so the journal never shows a waiting Run
 * without its pending approval (recovery and the runtime's resume read it from there).
 *
 * @module
 */
import {
  type Approval,
  APPROVAL_DECISIONS_BY_REASON,
  type ApprovalDecision,
  type ApprovalReasonCode,
  type BudgetReached,
  newId,
  type PermissionRule,
  type ToolRisk,
} from "@daedalus/protocol";
import type { Committed, StateStore, WriteContext } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { readRunScope, type RunScope } from "./run_writes.ts";
import { addItem, finishItem, readItem, scopeIds } from "./_item_writes.ts";
import { changeState, settleWithin } from "./_settlement.ts";

/** What the runtime asks the user about: one running tool call of a running Run. */
export interface ApprovalRequest {
  /** The Run that waits. */
  runId: string;
  /** Its running `tool_call` Item. */
  toolCallItemId: string;
  /** The tool (a built-in id, or another tool's name). */
  toolId: string;
  /** One line for the person who answers. */
  summary: string;
  /** The path or command line the call acts on, if any. */
  target: string | null;
  /** The tool's risk class. */
  risk: ToolRisk;
  /** Why the gate asks. */
  reasonCode: ApprovalReasonCode;
  /**
   * The rule an allow_thread / allow_always answer would add; absent or null: the call
   * cannot be named by a rule, and only allow_once and deny are offered.
   */
  rule?: PermissionRule | null;
}

/** The user's answer. */
export interface ApprovalAnswer {
  /** The approval. */
  approvalId: string;
  /** Run the call once, or refuse it. */
  decision: ApprovalDecision;
  /** What the user tells the model (a denial's reason). */
  message?: string;
  /** Makes a retried answer return the first one instead of `approval_already_resolved`. */
  clientRequestId?: string;
}

/** The `errorCode` of the tool result a denial gives the model. */
export const APPROVAL_DENIED_ERROR_CODE = "approval_denied";

/**
 * Records an approval for a running tool call and turns its Run `waiting`, in one
 * transaction (`approval.requested`, then `run.state_changed` running → waiting).
 *
 * @param store the state store
 * @param request the call and what to show about it
 * @returns the pending approval
 * @throws {StoreError} `run_not_found`; `run_not_active` when the Run is not running
 *   (already waiting, or settled); `item_not_found` when the item is not a running
 *   tool call of that Run
 */
export function requestApproval(store: StateStore, request: ApprovalRequest): Committed<Approval> {
  return store.write((context) => {
    const scope = readRunScope(context.db, request.runId);
    if (scope.status !== "running") {
      throw new StoreError(
        "run_not_active",
        `Run ${request.runId} is ${scope.status}; only a running Run can wait for approval`,
      );
    }
    const call = readItem(context.db, request.toolCallItemId);
    if (call.runId !== request.runId || call.kind !== "tool_call" || call.status !== "running") {
      throw new StoreError(
        "item_not_found",
        `Item ${request.toolCallItemId} is not a running tool call of Run ${request.runId}`,
      );
    }
    const approval: Approval = {
      approvalId: newId("approval"),
      runId: request.runId,
      threadId: scope.threadId,
      toolCallItemId: request.toolCallItemId,
      tool: request.toolId,
      summary: request.summary,
      target: request.target,
      risk: request.risk,
      reasonCode: request.reasonCode,
      budget: null,
      rule: request.rule ?? null,
      decisions: APPROVAL_DECISIONS_BY_REASON[request.reasonCode].filter((decision) =>
        (request.rule ?? null) !== null ||
        (decision !== "allow_thread" && decision !== "allow_always")
      ),
      status: "pending",
      decision: null,
      message: null,
      createdAt: context.now,
      resolvedAt: null,
    };
    appendApproval(context, scope, "approval.requested", approval);
    changeState(context, scope, "running", "waiting", {});
    return approval;
  });
}

/** What a Run that reached its budget asks the user. */
export interface BudgetApprovalRequest {
  /** The Run that waits. */
  runId: string;
  /** One line for the person who answers ("Budget reached: …; continue with +N?"). */
  summary: string;
  /** The budget reached, and what allowing adds. */
  budget: BudgetReached;
}

/**
 * Records that a running Run reached a budget and turns it `waiting`, in one transaction
 * (`approval.requested` scoped to the Run, then `run.state_changed` running → waiting).
 * Allowing it raises that limit by `budget.extension`; denying it settles the Run
 * `failed` with `budget_exceeded`.
 *
 * @param store the state store
 * @param request the Run, the summary and the budget
 * @returns the pending approval
 * @throws {StoreError} `run_not_found`; `run_not_active` when the Run is not running
 */
export function requestBudgetApproval(
  store: StateStore,
  request: BudgetApprovalRequest,
): Committed<Approval> {
  return store.write((context) => {
    const scope = readRunScope(context.db, request.runId);
    if (scope.status !== "running") {
      throw new StoreError(
        "run_not_active",
        `Run ${request.runId} is ${scope.status}; only a running Run can wait for approval`,
      );
    }
    const approval: Approval = {
      approvalId: newId("approval"),
      runId: request.runId,
      threadId: scope.threadId,
      toolCallItemId: null,
      tool: null,
      summary: request.summary,
      target: null,
      risk: null,
      reasonCode: "budget_reached",
      budget: request.budget,
      rule: null,
      decisions: [...APPROVAL_DECISIONS_BY_REASON.budget_reached],
      status: "pending",
      decision: null,
      message: null,
      createdAt: context.now,
      resolvedAt: null,
    };
    appendApproval(context, scope, "approval.requested", approval);
    changeState(context, scope, "running", "waiting", {});
    return approval;
  });
}

/**
 * Answers a pending approval and turns its Run `running` again, in one transaction:
 * `approval.resolved`; for a denial the call's `tool_call` Item fails and its
 * `tool_result` (an error carrying the user's message) is recorded, so the Run goes on
 * with the model's next step; then `run.state_changed` waiting → running. An allowed
 * call stays running: the runtime runs it next.
 *
 * @param store the state store
 * @param answer the approval, decision, message and clientRequestId
 * @returns the resolved approval (the first answer again, with no events, when retried
 *   with the same clientRequestId and decision)
 * @throws {StoreError} `approval_not_found`; `approval_already_resolved` when it was
 *   answered or cancelled before (and this is not a retry of that answer)
 */
export function resolveApproval(store: StateStore, answer: ApprovalAnswer): Committed<Approval> {
  return store.write((context) => {
    const stored = readStoredApproval(context.db, answer.approvalId);
    if (stored.approval.status !== "pending") {
      const retry = answer.clientRequestId !== undefined &&
        stored.clientRequestId === answer.clientRequestId &&
        stored.approval.decision === answer.decision;
      if (retry) return stored.approval;
      throw new StoreError(
        "approval_already_resolved",
        `Approval ${answer.approvalId} is already ${stored.approval.status}`,
      );
    }
    if (!stored.approval.decisions.includes(answer.decision)) {
      throw new StoreError(
        "approval_decision_invalid",
        `Approval ${answer.approvalId} (${stored.approval.reasonCode}) accepts ` +
          `${stored.approval.decisions.join(", ")}, not ${answer.decision}`,
      );
    }
    const scope = readRunScope(context.db, stored.approval.runId);
    const message = answer.message ?? null;
    const approval: Approval = {
      ...stored.approval,
      status: answer.decision === "deny" ? "denied" : "allowed",
      decision: answer.decision,
      message,
      resolvedAt: context.now,
    };
    appendApproval(context, scope, "approval.resolved", approval, answer.clientRequestId);
    if (answer.decision === "deny" && approval.toolCallItemId === null) {
      // A budget the user will not raise ends the Run.
      settleWithin(context, approval.runId, { status: "failed", reasonCode: "budget_exceeded" });
      return approval;
    }
    if (answer.decision === "deny") {
      recordDenial(context, scope, approval, approval.toolCallItemId!);
    }
    changeState(context, scope, scope.status, "running", {});
    return approval;
  });
}

/**
 * Cancels a Run's pending approvals inside the caller's transaction (the Run settles
 * while waiting: run.cancel, shutdown). Called by the settlement before it ends the
 * Run's active Items.
 *
 * @param context the write context
 * @param scope the Run's scope
 */
export function cancelPendingApprovals(context: WriteContext, scope: RunScope): void {
  const rows = statement(
    context.db.connection,
    "SELECT record_json FROM approvals WHERE run_id = ? AND status = 'pending' ORDER BY created_at",
  ).all(scope.runId);
  for (const row of rows) {
    const pending = JSON.parse(String(row.record_json)) as Approval;
    appendApproval(context, scope, "approval.resolved", {
      ...pending,
      status: "cancelled",
      decision: null,
      resolvedAt: context.now,
    });
  }
}

/** The denied call fails and the model gets the user's words as the tool's error. */
function recordDenial(
  context: WriteContext,
  scope: RunScope,
  approval: Approval,
  toolCallItemId: string,
): void {
  const call = finishItem(context, toolCallItemId, { status: "failed" });
  const content = approval.message === null
    ? `The user denied this ${approval.tool} call.`
    : `The user denied this ${approval.tool} call: ${approval.message}`;
  addItem(context, scope, {
    kind: "tool_result",
    role: "tool",
    status: "failed",
    content,
    data: {
      toolCallItemId: call.id,
      toolId: approval.tool,
      callId: call.data.callId ?? null,
      isError: true,
      errorCode: APPROVAL_DENIED_ERROR_CODE,
      approvalId: approval.approvalId,
    },
  });
}

function appendApproval(
  context: WriteContext,
  scope: RunScope,
  type: "approval.requested" | "approval.resolved",
  approval: Approval,
  clientRequestId?: string,
): void {
  context.append({
    type,
    ...scopeIds(scope),
    // Item-scoped to the call that waits, so a feed places the approval with its call.
    itemId: approval.toolCallItemId,
    // The payload is the approval itself, flat (issue 14's `approval.requested {approvalId,
    // runId, toolCallItemId, tool, …}`).
    payload: clientRequestId === undefined ? { ...approval } : { ...approval, clientRequestId },
  });
}

/** One stored approval with the clientRequestId of its answer. */
interface StoredApproval {
  approval: Approval;
  clientRequestId: string | null;
}

function readStoredApproval(db: StateDatabase, approvalId: string): StoredApproval {
  const row = statement(
    db.connection,
    "SELECT record_json, client_request_id FROM approvals WHERE id = ?",
  ).get(approvalId);
  if (!row) throw new StoreError("approval_not_found", `Approval ${approvalId} does not exist`);
  return {
    approval: JSON.parse(String(row.record_json)) as Approval,
    clientRequestId: row.client_request_id === null ? null : String(row.client_request_id),
  };
}
