/**
 * Approvals: a tool call the gate would not run without the user's answer.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { PermissionRule } from "./permission_rule.ts";
import { BudgetReached } from "./budget.ts";
import { ApprovalId, Identifier, ItemId, RunId, ThreadId, Timestamp } from "../ids.ts";
import { ApprovalDecision, ApprovalReasonCode, ApprovalStatus, ToolRisk } from "../enums.ts";
import {
  APPROVAL_MESSAGE_MAX_CHARS,
  APPROVAL_SUMMARY_MAX_CHARS,
  QUESTION_ANSWER_MAX_CHARS,
  QUESTION_CHOICE_MAX_CHARS,
  QUESTION_CHOICES_MAX_COUNT,
  QUESTION_TEXT_MAX_CHARS,
} from "../../limits.ts";

export const ApprovalMessage = z.string().min(1).max(APPROVAL_MESSAGE_MAX_CHARS).register(docs, {
  description: "What the user tells the model with a decision (a denial's reason).",
});

export const QuestionChoice = z.string().trim().min(1).max(QUESTION_CHOICE_MAX_CHARS);

export const UserQuestion = z.strictObject({
  /** What the model asks. */
  text: z.string().trim().min(1).max(QUESTION_TEXT_MAX_CHARS),
  /** The answers offered (distinct); absent: the user types one. */
  choices: z.array(QuestionChoice).min(1).max(QUESTION_CHOICES_MAX_COUNT).refine(
    (choices) => new Set(choices).size === choices.length,
    "choices must be distinct",
  ).optional(),
  /** Whether several choices may be picked (only with choices). */
  multiple: z.boolean().optional(),
}).refine((question) => question.multiple !== true || question.choices !== undefined, {
  message: "multiple needs choices",
  path: ["multiple"],
}).register(docs, {
  description: "A question the model asks the user (`ask_user`): its text, and the choices " +
    "offered when it has some (several may be picked when `multiple`).",
});

export const QuestionAnswerText = z.string().trim().min(1).max(QUESTION_ANSWER_MAX_CHARS);

export const QuestionAnswer = z.union([
  QuestionAnswerText,
  z.array(QuestionChoice).min(1).max(QUESTION_CHOICES_MAX_COUNT),
]).register(docs, {
  description: "The user's answer to an `ask_user` question: the text typed or the choice " +
    "picked, or the choices picked when the question allows several.",
});

/** An approval's fields (the events carry them flat, with their scope ids). */
export const APPROVAL_FIELDS = {
  approvalId: ApprovalId,
  runId: RunId,
  threadId: ThreadId,
  /** The tool call item that waits for the answer; null for a budget (no call waits). */
  toolCallItemId: ItemId.nullable(),
  /**
   * The tool the call would run: a built-in tool id (`TOOL_IDS`), or the name of a tool the
   * runtime was given (later: an MCP tool); null for a budget.
   */
  tool: Identifier.nullable(),
  summary: z.string().min(1).max(APPROVAL_SUMMARY_MAX_CHARS),
  /** The path or command line the call acts on, when it has one. */
  target: z.string().nullable(),
  /** The tool's risk class; null for a budget. */
  risk: ToolRisk.nullable(),
  reasonCode: ApprovalReasonCode,
  /** The budget reached (`budget_reached` only, else null): allow_once adds its extension. */
  budget: BudgetReached.nullable(),
  /**
   * The rule an `allow_thread` or `allow_always` answer adds (allow this tool on this exact
   * path or command prefix), or null when the call cannot be named by a rule.
   */
  rule: PermissionRule.nullable(),
  /**
   * The answers this approval accepts: `APPROVAL_DECISIONS_BY_REASON` of its reason, without
   * the rule-making ones when `rule` is null.
   */
  decisions: z.array(ApprovalDecision).min(1),
  status: ApprovalStatus,
  /** Null while pending and when cancelled. */
  decision: ApprovalDecision.nullable(),
  message: ApprovalMessage.nullable(),
  createdAt: Timestamp,
  /** Null while pending. */
  resolvedAt: Timestamp.nullable(),
  /** The question, for `user_question` only (absent on every other approval). */
  question: UserQuestion.optional(),
  /** The user's answer to the question, once answered (absent otherwise). */
  answer: QuestionAnswer.optional(),
};

type ApprovalShape = Pick<
  z.infer<z.ZodObject<typeof APPROVAL_FIELDS>>,
  | "status"
  | "decision"
  | "decisions"
  | "resolvedAt"
  | "rule"
  | "reasonCode"
  | "budget"
  | "toolCallItemId"
  | "tool"
  | "risk"
  | "question"
  | "answer"
>;

/**
 * The checks of an approval's fields that one field cannot make alone: status, decision and
 * resolvedAt agree, and the decision is one the approval offers.
 *
 * @param approval the fields
 * @param ctx where issues go
 */
export function checkApproval(approval: ApprovalShape, ctx: z.RefinementCtx): void {
  const pending = approval.status === "pending";
  if (pending !== (approval.resolvedAt === null)) {
    ctx.addIssue({
      code: "custom",
      path: ["resolvedAt"],
      message: "resolvedAt must be null exactly while the approval is pending",
    });
  }
  const decided = approval.decision;
  const consistent = {
    pending: decided === null,
    cancelled: decided === null,
    allowed: decided !== null && decided !== "deny",
    denied: decided === "deny",
  }[approval.status];
  if (!consistent) {
    ctx.addIssue({
      code: "custom",
      path: ["decision"],
      message: approval.status === "allowed"
        ? "decision must be allow_once, allow_thread or allow_always when status is allowed"
        : approval.status === "denied"
        ? 'decision must be "deny" when status is denied'
        : `decision must be null when status is ${approval.status}`,
    });
  }
  // A budget approval is about the Run, not a call; every other one is about one call.
  const aboutBudget = approval.reasonCode === "budget_reached";
  const callFields = [approval.toolCallItemId, approval.tool, approval.risk];
  if (aboutBudget !== (approval.budget !== null)) {
    ctx.addIssue({
      code: "custom",
      path: ["budget"],
      message: "budget is set exactly when reasonCode is budget_reached",
    });
  }
  if (callFields.some((field) => (field === null) !== aboutBudget)) {
    ctx.addIssue({
      code: "custom",
      path: ["toolCallItemId"],
      message: "toolCallItemId, tool and risk are null exactly for a budget approval",
    });
  }
  if ((approval.reasonCode === "user_question") !== (approval.question !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["question"],
      message: "question is set exactly when reasonCode is user_question",
    });
  }
  if (approval.answer !== undefined && approval.status !== "allowed") {
    ctx.addIssue({
      code: "custom",
      path: ["answer"],
      message: "answer is set only on an answered (allowed) question",
    });
  }
  const makesRule = approval.decisions.some((d) => d === "allow_thread" || d === "allow_always");
  if (makesRule && approval.rule === null) {
    ctx.addIssue({
      code: "custom",
      path: ["decisions"],
      message: "allow_thread and allow_always need the rule they would add",
    });
  }
  if (decided !== null && !approval.decisions.includes(decided)) {
    ctx.addIssue({
      code: "custom",
      path: ["decision"],
      message: `decision ${decided} is not one this approval offers`,
    });
  }
}

export const Approval = z.looseObject(APPROVAL_FIELDS).superRefine(checkApproval).register(docs, {
  description: "One tool call waiting for (or answered by) the user: what it would do, why it " +
    "asks, and the answer.",
});
