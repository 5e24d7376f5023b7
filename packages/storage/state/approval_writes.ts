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
  type QuestionAnswer,
  type ToolRisk,
  type UserQuestion,
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
  /** The question the call asks (`user_question` only: an `ask_user` call). */
  question?: UserQuestion;
}

/** The user's answer. */
export interface ApprovalAnswer {
  /** The approval. */
  approvalId: string;
  /** Run the call once, or refuse it. */
  decision: ApprovalDecision;
  /** What the user tells the model (a denial's reason). */
  message?: string;
  /** The answer to a question (`user_question`, with allow_once): the call's result. */
  answer?: QuestionAnswer;
  /** Makes a retried answer return the first one instead of `approval_already_resolved`. */
  clientRequestId?: string;
}

/** The `errorCode` of the tool result a denial gives the model. */
export const APPROVAL_DENIED_ERROR_CODE = "approval_denied";

/** The `errorCode` of the tool result an `ask_user` question the user declined gives the model. */
export const QUESTION_DECLINED_ERROR_CODE = "question_declined";

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
    if ((request.reasonCode === "user_question") !== (request.question !== undefined)) {
      // A producer's bug, never user input: the tool always sends both or neither.
      throw new StoreError(
        "invalid_event",
        "A question is asked exactly by a user_question approval",
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
      ...(request.question !== undefined ? { question: request.question } : {}),
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
    const stored = readAnsweredApproval(context.db, answer);
    const question = stored.approval.question;
    if (stored.approval.status !== "pending") {
      const retry = answer.clientRequestId !== undefined &&
        stored.clientRequestId === answer.clientRequestId &&
        stored.approval.decision === answer.decision;
      if (retry) return stored.approval;
      throw new StoreError(
        question === undefined ? "approval_already_resolved" : "question_already_answered",
        question === undefined
          ? `Approval ${answer.approvalId} is already ${stored.approval.status}`
          : `Question ${answer.approvalId} was already ${
            stored.approval.status === "cancelled" ? "cancelled" : "answered"
          }`,
      );
    }
    if (!stored.approval.decisions.includes(answer.decision)) {
      throw new StoreError(
        "approval_decision_invalid",
        `Approval ${answer.approvalId} (${stored.approval.reasonCode}) accepts ` +
          `${stored.approval.decisions.join(", ")}, not ${answer.decision}`,
      );
    }
    const answered = question === undefined ? undefined : checkedAnswer(question, answer);
    const scope = readRunScope(context.db, stored.approval.runId);
    const message = answer.message ?? null;
    const approval: Approval = {
      ...stored.approval,
      status: answer.decision === "deny" ? "denied" : "allowed",
      decision: answer.decision,
      message,
      resolvedAt: context.now,
      ...(answered !== undefined ? { answer: answered } : {}),
    };
    appendApproval(context, scope, "approval.resolved", approval, answer.clientRequestId);
    if (question !== undefined) {
      // The answer (or the refusal to give one) is the call's result: the call settles here
      // and the Run goes on with the model's next step, as after a denial.
      recordAnswer(context, scope, approval, approval.toolCallItemId!);
      changeState(context, scope, scope.status, "running", {});
      return approval;
    }
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

/**
 * The stored approval an answer names. An answer carrying `answer` is meant for a question:
 * an unknown id, or an approval that asks no question, is `question_not_found`.
 */
function readAnsweredApproval(db: StateDatabase, answer: ApprovalAnswer): StoredApproval {
  if (answer.answer === undefined) return readStoredApproval(db, answer.approvalId);
  let stored: StoredApproval;
  try {
    stored = readStoredApproval(db, answer.approvalId);
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== "approval_not_found") throw error;
    throw new StoreError("question_not_found", `Question ${answer.approvalId} does not exist`);
  }
  if (stored.approval.question === undefined) {
    throw new StoreError(
      "question_not_found",
      `Approval ${answer.approvalId} (${stored.approval.reasonCode}) asks no question to answer`,
    );
  }
  return stored;
}

/**
 * The answer a question accepts: allow_once needs one (typed text for a question without
 * choices, one of the choices, or several of them when it allows that); deny takes none.
 */
function checkedAnswer(question: UserQuestion, answer: ApprovalAnswer): QuestionAnswer | undefined {
  const invalid = (why: string) =>
    new StoreError("question_answer_invalid", `Question ${answer.approvalId}: ${why}`);
  if (answer.decision === "deny") {
    if (answer.answer !== undefined) throw invalid("a declined question takes no answer");
    return undefined;
  }
  const given = answer.answer;
  if (given === undefined) throw invalid("allow_once needs the answer");
  const picked = typeof given === "string" ? [given] : given;
  if (typeof given !== "string" && question.multiple !== true) {
    throw invalid("this question takes one answer, not a list");
  }
  if (question.choices !== undefined) {
    const offered = new Set(question.choices);
    const other = picked.find((choice) => !offered.has(choice));
    if (other !== undefined) {
      throw invalid(`"${other}" is not one of its choices (${question.choices.join(", ")})`);
    }
    if (new Set(picked).size !== picked.length) throw invalid("a choice is picked twice");
  } else if (typeof given !== "string") {
    throw invalid("a question without choices takes a text answer");
  }
  return given;
}

/**
 * The answered (or declined) question's call settles: completed with the answer as its
 * result, or failed with `question_declined` and the user's message.
 */
function recordAnswer(
  context: WriteContext,
  scope: RunScope,
  approval: Approval,
  toolCallItemId: string,
): void {
  const answer = approval.answer;
  const status = answer === undefined ? "failed" : "completed";
  const call = finishItem(context, toolCallItemId, { status });
  const content = answer !== undefined
    ? typeof answer === "string"
      ? `The user answered: ${answer}`
      : `The user picked: ${answer.join("; ")}`
    : approval.message === null
    ? "The user declined to answer the question."
    : `The user declined to answer the question: ${approval.message}`;
  addItem(context, scope, {
    kind: "tool_result",
    role: "tool",
    status,
    content,
    data: {
      toolCallItemId: call.id,
      toolId: approval.tool,
      callId: call.data.callId ?? null,
      isError: answer === undefined,
      ...(answer === undefined ? { errorCode: QUESTION_DECLINED_ERROR_CODE } : { answer }),
      approvalId: approval.approvalId,
    },
  });
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
