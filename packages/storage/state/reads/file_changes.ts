/**
 * Recorded file changes (the `file_changes` projection) as `file.change.get` reads
 * them.
 *
 * @module
 */
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/** A recorded change: its thread and the record the file tool captured. */
export interface StoredFileChange {
  /** The thread of the tool call. */
  threadId: string;
  /** The record (path, operation, captures, diff, counts, recordedAt). */
  record: Record<string, unknown>;
}

/**
 * Reads the change a write/edit tool call recorded.
 *
 * @param db the state database
 * @param toolCallItemId the tool_call item
 * @returns the change, or null when none was recorded
 */
export function readFileChange(db: StateDatabase, toolCallItemId: string): StoredFileChange | null {
  const row = statement(
    db.connection,
    `SELECT f.record_json, t.thread_id FROM file_changes f
     JOIN items i ON i.id = f.tool_call_item_id JOIN turns t ON t.id = i.turn_id
     WHERE f.tool_call_item_id = ?`,
  ).get(toolCallItemId);
  if (!row) return null;
  return { threadId: String(row.thread_id), record: JSON.parse(String(row.record_json)) };
}

/**
 * Whether a thread recorded a change to a path (a file outside the workspace may be
 * previewed only then).
 *
 * @param db the state database
 * @param threadId the thread
 * @param path the absolute path
 * @returns true when a write/edit of the thread touched it
 */
export function threadChangedPath(db: StateDatabase, threadId: string, path: string): boolean {
  return statement(
    db.connection,
    `SELECT 1 FROM file_changes f JOIN items i ON i.id = f.tool_call_item_id
     JOIN turns t ON t.id = i.turn_id
     WHERE t.thread_id = ? AND json_extract(f.record_json, '$.path') = ? LIMIT 1`,
  ).get(threadId, path) !== undefined;
}
