/**
 * A thread's branches as the wire shows them: `branch.list`, and the branch `thread.get`
 * returns beside its thread.
 *
 * @module
 */
import { type Branch, BranchId, type ResultOf, type Thread, ThreadId } from "@daedalus/protocol";
import type { DatabaseSync } from "node:sqlite";
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";
import { nullableTextColumn, textColumn } from "../_sqlite.ts";
import type { Row } from "../_rows.ts";
import { getThread } from "./thread_catalog.ts";
import { requireId } from "./_params.ts";
import { ReadError } from "./errors.ts";

const BRANCH_COLUMNS = "id, thread_id, created_at, is_default, parent_branch_id, fork_turn_id";

/** Maps a `branches` row to a Branch. */
function branchFromRow(row: Row): Branch {
  return {
    id: textColumn(row, "id"),
    threadId: textColumn(row, "thread_id"),
    createdAt: textColumn(row, "created_at"),
    isDefault: Number(row.is_default) === 1,
    parentBranchId: nullableTextColumn(row, "parent_branch_id"),
    forkTurnId: nullableTextColumn(row, "fork_turn_id"),
  };
}

/**
 * Reads one branch of a thread.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @param branchId the branch
 * @returns the branch, or null when the thread has no such branch
 */
export function selectBranch(
  connection: DatabaseSync,
  threadId: string,
  branchId: string,
): Branch | null {
  const row = statement(
    connection,
    `SELECT ${BRANCH_COLUMNS} FROM branches WHERE id = ? AND thread_id = ?`,
  ).get(branchId, threadId);
  return row === undefined ? null : branchFromRow(row);
}

/** The `branch.list` result: the branches oldest first, the active one, the snapshot seq. */
export type BranchList = ResultOf<"branch.list">;

/**
 * Lists a thread's branches, oldest first (the default branch is the oldest).
 *
 * @param db the state database
 * @param threadId the thread
 * @returns its branches and its active branch
 * @throws {ReadError} `invalid_params` for a malformed id, `thread_not_found`
 */
export function listBranches(db: StateDatabase, threadId: string): BranchList {
  const id = requireId(ThreadId, threadId, "threadId");
  return db.readTransaction(() => {
    const { thread, snapshotSeq } = getThread(db, id);
    const branches = statement(
      db.connection,
      `SELECT ${BRANCH_COLUMNS} FROM branches WHERE thread_id = ?
       ORDER BY is_default DESC, created_at, id`,
    ).all(id).map(branchFromRow);
    return { branches, activeBranchId: activeBranchOf(thread), snapshotSeq };
  });
}

/** The `thread.get` result: the thread and one of its branches (the active one by default). */
export type ThreadWithBranch = ResultOf<"thread.get"> & { branch: Branch };

/**
 * Reads a thread and one of its branches (its active branch when none is named).
 *
 * @param db the state database
 * @param threadId the thread
 * @param branchId the branch, or undefined for the active one
 * @returns the thread, the branch and `snapshotSeq`
 * @throws {ReadError} `invalid_params`, `thread_not_found`, `branch_not_found` when the
 *   branch is not the thread's
 */
export function getThreadWithBranch(
  db: StateDatabase,
  threadId: string,
  branchId?: string,
): ThreadWithBranch {
  const wanted = branchId === undefined ? undefined : requireId(BranchId, branchId, "branchId");
  return db.readTransaction(() => {
    const { thread, snapshotSeq } = getThread(db, threadId);
    const id = wanted ?? activeBranchOf(thread);
    const branch = selectBranch(db.connection, thread.id, id);
    if (branch === null) {
      throw new ReadError(
        "branch_not_found",
        `Branch ${id} does not belong to thread ${thread.id}`,
        "branchId",
      );
    }
    return { thread, branch, snapshotSeq };
  });
}

/**
 * The branch a thread shows: its active branch, else (rows and events older than
 * branches) its default one.
 *
 * @param thread the thread
 * @returns the branch id
 */
export function activeBranchOf(thread: Thread): string {
  return thread.activeBranchId ?? thread.defaultBranchId;
}
