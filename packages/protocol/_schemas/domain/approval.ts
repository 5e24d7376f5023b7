/**
 * Approvals: a tool call the gate would not run without the user's answer.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { ApprovalId, ItemId, RunId, ThreadId, Timestamp } from "../ids.ts";
import {
  ApprovalDecision,
  ApprovalReasonCode,
  ApprovalStatus,
  ToolId,
  ToolRisk,
} from "../enums.ts";
import { APPROVAL_MESSAGE_MAX_CHARS, APPROVAL_SUMMARY_MAX_CHARS } from "../../limits.ts";

export const ApprovalMessage = z.string().min(1).max(APPROVAL_MESSAGE_MAX_CHARS).register(docs, {
  description: "What the user tells the model with a decision (a denial's reason).",
});

export const Approval = z.looseObject({
  id: ApprovalId,
  runId: RunId,
  threadId: ThreadId,
  /** The tool call item that waits for the answer. */
  toolCallItemId: ItemId,
  toolId: ToolId,
  summary: z.string().min(1).max(APPROVAL_SUMMARY_MAX_CHARS),
  /** The path or command line the call acts on, when it has one. */
  target: z.string().nullable(),
  risk: ToolRisk,
  reasonCode: ApprovalReasonCode,
  status: ApprovalStatus,
  /** Null while pending and when cancelled. */
  decision: ApprovalDecision.nullable(),
  message: ApprovalMessage.nullable(),
  createdAt: Timestamp,
  /** Null while pending. */
  resolvedAt: Timestamp.nullable(),
}).superRefine((approval, ctx) => {
  const pending = approval.status === "pending";
  if (pending !== (approval.resolvedAt === null)) {
    ctx.addIssue({
      code: "custom",
      path: ["resolvedAt"],
      message: "resolvedAt must be null exactly while the approval is pending",
    });
  }
  const expected = { pending: null, cancelled: null, allowed: "allow_once", denied: "deny" }[
    approval.status
  ];
  if (approval.decision !== expected) {
    ctx.addIssue({
      code: "custom",
      path: ["decision"],
      message: `decision must be ${JSON.stringify(expected)} when status is ${approval.status}`,
    });
  }
}).register(docs, {
  description: "One tool call waiting for (or answered by) the user: what it would do, why it " +
    "asks, and the answer.",
});
