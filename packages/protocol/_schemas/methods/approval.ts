/**
 * `approval.*`: answering and listing the tool calls that wait for the user.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { ApprovalId, Identifier, ThreadId } from "../ids.ts";
import { ApprovalDecision, ApprovalStatus } from "../enums.ts";
import { Approval, ApprovalMessage, QuestionAnswer } from "../domain/approval.ts";
import { APPROVAL_LIST_MAX_COUNT } from "../../limits.ts";

/** Methods of the `approval` namespace. */
export const approvalMethods = {
  "approval.respond": method({
    description: "Answers a pending approval: allow_once runs the waiting call, deny gives the " +
      "model a tool error with the message; either way the Run goes on. Idempotent on " +
      "clientRequestId (the same answer again returns the resolved approval). An `ask_user` " +
      "question (reasonCode user_question) is answered with allow_once and `answer` (the " +
      "model's tool result), or declined with deny",
    params: z.strictObject({
      approvalId: ApprovalId,
      decision: ApprovalDecision,
      message: ApprovalMessage.optional(),
      /** The answer to a question (user_question, with allow_once only). */
      answer: QuestionAnswer.optional(),
      clientRequestId: Identifier.optional(),
    }),
    result: z.looseObject({ approval: Approval }),
  }),
  "approval.list": method({
    description: `Lists approvals, newest first (at most ${APPROVAL_LIST_MAX_COUNT}), of one ` +
      "thread or all, optionally of one status",
    params: z.strictObject({
      threadId: ThreadId.optional(),
      status: ApprovalStatus.optional(),
    }),
    result: z.looseObject({ approvals: z.array(Approval).max(APPROVAL_LIST_MAX_COUNT) }),
  }),
};
