/**
 * Reads of the `approvals` projection: one approval, a thread's (or every) approvals,
 * and the approval a waiting Run waits for.
 *
 * @module
 */
import {
  type Approval,
  APPROVAL_LIST_MAX_COUNT,
  type ApprovalStatus,
  type PermissionRule,
} from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/**
 * Reads one approval.
 *
 * @param db the state database
 * @param approvalId the approval
 * @returns it, or null when there is none
 */
export function readApproval(db: StateDatabase, approvalId: string): Approval | null {
  const row = statement(db.connection, "SELECT record_json FROM approvals WHERE id = ?").get(
    approvalId,
  );
  return row ? JSON.parse(String(row.record_json)) as Approval : null;
}

/** Filters of {@linkcode listApprovals}. */
export interface ApprovalFilter {
  /** Only this thread's approvals. */
  threadId?: string;
  /** Only approvals in this status. */
  status?: ApprovalStatus;
}

/**
 * Lists approvals, newest first, at most `APPROVAL_LIST_MAX_COUNT`.
 *
 * @param db the state database
 * @param filter thread and status
 * @returns the approvals
 */
export function listApprovals(db: StateDatabase, filter: ApprovalFilter = {}): Approval[] {
  return statement(
    db.connection,
    `SELECT record_json FROM approvals
     WHERE (?1 IS NULL OR thread_id = ?1) AND (?2 IS NULL OR status = ?2)
     ORDER BY created_at DESC, id DESC LIMIT ?3`,
  ).all(filter.threadId ?? null, filter.status ?? null, APPROVAL_LIST_MAX_COUNT)
    .map((row) => JSON.parse(String(row.record_json)) as Approval);
}

/**
 * The approval a Run waits for: what the runtime resumes from after an answer or a
 * restart.
 *
 * @param db the state database
 * @param runId the run
 * @returns its pending approval, or null
 */
export function readPendingApproval(db: StateDatabase, runId: string): Approval | null {
  const row = statement(
    db.connection,
    "SELECT record_json FROM approvals WHERE run_id = ? AND status = 'pending'",
  ).get(runId);
  return row ? JSON.parse(String(row.record_json)) as Approval : null;
}

/**
 * The newest approval of one tool call: how a resumed Run learns that the call it runs next
 * was allowed (and for which reason).
 *
 * @param db the state database
 * @param runId the run
 * @param toolCallItemId the call's item
 * @returns the approval, or null when the call never asked
 */
export function readCallApproval(
  db: StateDatabase,
  runId: string,
  toolCallItemId: string,
): Approval | null {
  const row = statement(
    db.connection,
    `SELECT record_json FROM approvals WHERE run_id = ? AND tool_call_item_id = ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  ).get(runId, toolCallItemId);
  return row ? JSON.parse(String(row.record_json)) as Approval : null;
}

/**
 * A thread's rules: the rule of each approval answered `allow_thread` in it, oldest first
 * (later answers win, as later rules do).
 *
 * @param db the state database
 * @param threadId the thread
 * @returns the rules
 */
export function readThreadRules(db: StateDatabase, threadId: string): PermissionRule[] {
  return statement(
    db.connection,
    `SELECT record_json FROM approvals WHERE thread_id = ? AND status = 'allowed'
     ORDER BY created_at, rowid`,
  ).all(threadId)
    .map((row) => JSON.parse(String(row.record_json)) as Approval)
    .filter((approval) => approval.decision === "allow_thread" && approval.rule !== null)
    .map((approval) => approval.rule!);
}
