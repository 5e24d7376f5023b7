/**
 * The Items of one Run in order (streaming text included): how the loop and the
 * tools read their own Run.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { ITEM_COLUMNS, itemFromRow } from "../_rows.ts";
import { overlayStreamedText } from "../streamed_text.ts";
import { statement } from "../../_statements.ts";

/**
 * Reads a Run's Items by ordinal.
 *
 * @param db the state database
 * @param runId the run
 * @param fromOrdinal only items at or after this ordinal (a Run's loop re-reads only what
 *   may have changed since its last read)
 * @returns its items (empty for an unknown run)
 */
export function readRunItems(db: StateDatabase, runId: string, fromOrdinal = 0): Item[] {
  const rows = statement(
    db.connection,
    `SELECT ${ITEM_COLUMNS} FROM items WHERE run_id = ? AND ordinal >= ? ORDER BY ordinal`,
  ).all(runId, fromOrdinal);
  return overlayStreamedText(db, rows.map(itemFromRow));
}
