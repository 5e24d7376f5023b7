/**
 * The approval the app's tests start from: a pending `process_start` of `echo hi` that a
 * rule asks about (all four answers offered), changed field by field with `over`.
 *
 * @module
 */
import type { Approval } from "@daedalus/client";

/** The fixture's creation time. */
export const APPROVAL_CREATED_AT = "2026-12-01T10:00:00.000Z";

/**
 * A pending approval.
 *
 * @param over fields to change
 * @returns the approval
 */
export function approvalFixture(over: Partial<Approval> = {}): Approval {
  return {
    approvalId: "approval_1",
    runId: "run_1",
    threadId: "thread_1",
    toolCallItemId: "item_call",
    tool: "process_start",
    summary: "Run echo hi",
    target: "echo hi",
    risk: "process",
    reasonCode: "permission_ask",
    budget: null,
    decisions: ["allow_once", "allow_thread", "allow_always", "deny"],
    rule: { tool: "process_start", pattern: "echo hi", decision: "allow" },
    status: "pending",
    decision: null,
    message: null,
    createdAt: APPROVAL_CREATED_AT,
    resolvedAt: null,
    ...over,
  };
}
