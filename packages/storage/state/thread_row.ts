/**
 * The `threads` row as the wire's Thread.
 *
 * @module
 */
import type { Thread } from "@daedalus/protocol";

/**
 * Maps a `threads` row to the Thread DTO.
 *
 * @param row a `SELECT * FROM threads` row
 * @returns the thread
 */
export function threadFromRow(row: Record<string, unknown>): Thread {
  return {
    id: String(row.id),
    title: row.title === null ? null : String(row.title),
    defaultBranchId: String(row.default_branch_id),
    workspace: row.workspace_json === null ? null : JSON.parse(String(row.workspace_json)),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    archivedAt: row.archived_at === null ? null : String(row.archived_at),
  };
}
