/**
 * What `turn.revert` needs of a turn, derived from the journal alone (no projection of its
 * own): the turn's scope and workspace, whether a Run is still active, its recorded file
 * changes and its earlier reverts, each in seq order.
 *
 * @module
 */
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/** A journal fact of the turn (`file.change_recorded` or `turn.reverted`) with its seq. */
export interface TurnFileFact {
  /** The event's seq. */
  seq: number;
  /** The event's payload. */
  payload: Record<string, unknown>;
}

/** A turn as `turn.revert` sees it. */
export interface TurnRevertSource {
  /** The turn's thread. */
  threadId: string;
  /** The turn's branch. */
  branchId: string;
  /** The thread's workspace root, null when it has none. */
  workspaceRoot: string | null;
  /** Whether one of its Runs is queued, running or waiting. */
  active: boolean;
  /** Its `file.change_recorded` events, oldest first. */
  changes: TurnFileFact[];
  /** Its `turn.reverted` events, oldest first. */
  reverts: TurnFileFact[];
}

const ACTIVE_STATUSES = ["queued", "running", "waiting"];

/**
 * Reads a turn's revert source.
 *
 * @param db the state database
 * @param turnId the turn
 * @returns the source, or null when the turn is unknown
 */
export function readTurnRevertSource(db: StateDatabase, turnId: string): TurnRevertSource | null {
  const turn = statement(
    db.connection,
    `SELECT t.thread_id, t.branch_id, th.workspace_json FROM turns t
     JOIN threads th ON th.id = t.thread_id WHERE t.id = ?`,
  ).get(turnId);
  if (!turn) return null;
  const statuses = statement(db.connection, "SELECT status FROM runs WHERE turn_id = ?")
    .all(turnId).map((row) => String(row.status));
  const facts = statement(
    db.connection,
    `SELECT seq, event_type, payload_json FROM events
     WHERE turn_id = ? AND event_type IN ('file.change_recorded', 'turn.reverted') ORDER BY seq`,
  ).all(turnId);
  const of = (type: string) =>
    facts.filter((row) => row.event_type === type).map((row) => ({
      seq: Number(row.seq),
      payload: JSON.parse(String(row.payload_json)) as Record<string, unknown>,
    }));
  return {
    threadId: String(turn.thread_id),
    branchId: String(turn.branch_id),
    workspaceRoot: workspaceRootOf(turn.workspace_json),
    active: statuses.some((status) => ACTIVE_STATUSES.includes(status)),
    changes: of("file.change_recorded"),
    reverts: of("turn.reverted"),
  };
}

function workspaceRootOf(json: unknown): string | null {
  if (typeof json !== "string") return null;
  const workspace = JSON.parse(json) as { rootUri?: unknown } | null;
  return typeof workspace?.rootUri === "string" ? workspace.rootUri : null;
}
