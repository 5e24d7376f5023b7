/**
 * Branch writes: `branch.create` forks a thread at a settled turn (idempotent on
 * clientRequestId) and makes the fork the thread's active branch;
 * `thread.set_active_branch` chooses the branch the thread shows.
 *
 * @module
 */
import { type Branch, type JournalEvent, newId, type Thread } from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { envelopeFromRow, EVENT_COLUMNS } from "./_rows.ts";
import { readThread } from "./thread_writes.ts";
import { activeBranchOf, selectBranch } from "./reads/branches.ts";

/** What {@linkcode createBranch} needs. */
export interface CreateBranchInput {
  /** The thread to fork. */
  threadId: string;
  /** The last turn the branch shares (null: it shares nothing). */
  fromTurnId: string | null;
  /** Makes retries return the first result. */
  clientRequestId: string;
}

/** The result of {@linkcode createBranch}. */
export interface CreateBranchResult {
  /** The branch. */
  branch: Branch;
  /** Its branch.created event (the original one for a retry). */
  event: JournalEvent;
  /** Whether this call created it (false for an idempotent retry). */
  created: boolean;
}

/**
 * Forks a thread at a turn. The branch's parent is the branch the fork turn lives on (for
 * a branch that shares nothing, the thread's active branch), and the branch becomes the
 * thread's active branch. Nothing is written when the request is refused.
 *
 * @param store the state store
 * @param input thread, fork turn, clientRequestId
 * @returns the branch and its branch.created event
 * @throws {StoreError} `thread_not_found`, `thread_archived`, `turn_not_found`,
 *   `turn_not_in_thread`, `turn_active` (the fork turn's Run has not settled),
 *   `idempotency_conflict` (the clientRequestId was used with other params)
 */
export function createBranch(
  store: StateStore,
  input: CreateBranchInput,
): Committed<CreateBranchResult> {
  return store.write(({ db, now, append }) => {
    const replay = replayCreate(db, input);
    if (replay) return replay;
    const thread = readThread(db, input.threadId);
    if (thread.archivedAt !== null) {
      throw new StoreError(
        "thread_archived",
        `Thread ${thread.id} is archived; unarchive it first`,
      );
    }
    const parentBranchId = input.fromTurnId === null
      ? activeBranchOf(thread)
      : forkTurnBranch(db, thread.id, input.fromTurnId);
    const branch: Branch = {
      id: newId("branch"),
      threadId: thread.id,
      createdAt: now,
      isDefault: false,
      parentBranchId,
      forkTurnId: input.fromTurnId,
    };
    const event = append({
      type: "branch.created",
      threadId: thread.id,
      branchId: branch.id,
      payload: { branch, clientRequestId: input.clientRequestId },
    });
    return { branch, event, created: true };
  });
}

/** The branch the fork turn lives on, after checking the turn may be forked from. */
function forkTurnBranch(db: StateDatabase, threadId: string, turnId: string): string {
  const turn = statement(db.connection, "SELECT thread_id, branch_id FROM turns WHERE id = ?")
    .get(turnId);
  if (turn === undefined) throw new StoreError("turn_not_found", `Turn ${turnId} does not exist`);
  if (turn.thread_id !== threadId) {
    throw new StoreError(
      "turn_not_in_thread",
      `Turn ${turnId} belongs to another thread than ${threadId}`,
    );
  }
  const active = statement(
    db.connection,
    `SELECT 1 FROM runs WHERE turn_id = ? AND status IN ('queued', 'running', 'waiting') LIMIT 1`,
  ).get(turnId);
  if (active !== undefined) {
    throw new StoreError(
      "turn_active",
      `Turn ${turnId} has not settled yet: cancel its Run or wait until it settles`,
    );
  }
  return String(turn.branch_id);
}

function replayCreate(db: StateDatabase, input: CreateBranchInput): CreateBranchResult | null {
  const row = statement(
    db.connection,
    "SELECT id, thread_id, fork_turn_id FROM branches WHERE client_request_id = ?",
  ).get(input.clientRequestId);
  if (row === undefined) return null;
  if (row.thread_id !== input.threadId || (row.fork_turn_id ?? null) !== input.fromTurnId) {
    throw new StoreError(
      "idempotency_conflict",
      `clientRequestId "${input.clientRequestId}" was already used with different params`,
    );
  }
  const branch = selectBranch(db.connection, input.threadId, String(row.id));
  const eventRow = statement(
    db.connection,
    `SELECT ${EVENT_COLUMNS} FROM events WHERE event_type = 'branch.created' AND branch_id = ?
     ORDER BY seq LIMIT 1`,
  ).get(String(row.id));
  if (branch === null || eventRow === undefined) {
    throw new StoreError("branch_not_found", `Branch ${row.id} lost its branch.created event`);
  }
  return { branch, event: envelopeFromRow(eventRow) as JournalEvent, created: false };
}

/** The result of {@linkcode setActiveBranch}. */
export interface ActiveBranchChange {
  /** The thread after the change. */
  thread: Thread;
  /** False when the branch already was the active one (nothing was written). */
  changed: boolean;
}

/**
 * Chooses the branch a thread shows and a `turn.start` without a branch continues.
 *
 * @param store the state store
 * @param threadId the thread
 * @param branchId one of its branches
 * @returns the thread and whether it changed
 * @throws {StoreError} `thread_not_found`, `branch_not_found` (not a branch of the thread)
 */
export function setActiveBranch(
  store: StateStore,
  threadId: string,
  branchId: string,
): Committed<ActiveBranchChange> {
  return store.write(({ db, append }) => {
    const current = readThread(db, threadId);
    if (selectBranch(db.connection, current.id, branchId) === null) {
      throw new StoreError(
        "branch_not_found",
        `Branch ${branchId} is not a branch of ${current.id}`,
      );
    }
    const previousBranchId = activeBranchOf(current);
    if (previousBranchId === branchId) return { thread: current, changed: false };
    // Not an activity: the catalog keeps its order (updatedAt follows turns).
    const thread = { ...current, activeBranchId: branchId };
    append({
      type: "thread.branch_switched",
      threadId: current.id,
      branchId,
      payload: { thread, branchId, previousBranchId },
    });
    return { thread, changed: true };
  });
}
