/**
 * A bounded slice of a thread's items, for the `history_read` and `thread_read`
 * tools: the items around an anchor (or the newest), in conversation order.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { ITEM_COLUMNS, itemFromRow } from "../_rows.ts";
import { overlayStreamedText } from "../streamed_text.ts";
import { statement } from "../../_statements.ts";
import { branchLineage } from "./branch_lineage.ts";

/** Every item id of the thread's active history, in conversation order. */
function historyItemIds(db: StateDatabase, threadId: string): string[] {
  const thread = statement(
    db.connection,
    "SELECT coalesce(active_branch_id, default_branch_id) AS branch_id FROM threads WHERE id = ?",
  ).get(threadId);
  if (thread === undefined) return [];
  const segments = branchLineage(db.connection, String(thread.branch_id))
    .sort((a, b) => a.after - b.after);
  return segments.flatMap((segment) =>
    statement(
      db.connection,
      `SELECT i.id FROM items i JOIN runs r ON r.id = i.run_id JOIN turns t ON t.id = i.turn_id
       WHERE t.branch_id = ? AND t.ordinal > ? AND t.ordinal <= ?
       ORDER BY t.ordinal, r.created_at, r.id, i.ordinal`,
    ).all(segment.branchId, segment.after, segment.upTo).map((row) => String(row.id))
  );
}

/** Options of {@linkcode readThreadSlice}. */
export interface ThreadSliceOptions {
  /** The thread. */
  threadId: string;
  /** The item to center on; the newest items when absent. */
  anchorItemId?: string;
  /** Most items (odd numbers center the anchor). */
  maxItems: number;
}

/** A slice and where it sits. */
export interface ThreadSlice {
  /** The items, oldest first. */
  items: Item[];
  /** Whether older items exist before the slice. */
  hasBefore: boolean;
  /** Whether newer items exist after it. */
  hasAfter: boolean;
  /** Whether the anchor was found (false when one was asked for and is not in the thread). */
  anchorFound: boolean;
}

/**
 * Reads items of a thread's active branch (its whole history: the turns it shares with
 * the branches it was forked from too) around an anchor.
 *
 * @param db the state database
 * @param options thread, anchor and size
 * @returns the slice
 */
export function readThreadSlice(db: StateDatabase, options: ThreadSliceOptions): ThreadSlice {
  return db.readTransaction(() => {
    const ids = historyItemIds(db, options.threadId);
    const anchor = options.anchorItemId ? ids.indexOf(options.anchorItemId) : ids.length - 1;
    const anchorFound = options.anchorItemId === undefined || anchor >= 0;
    const center = anchor >= 0 ? anchor : ids.length - 1;
    const half = Math.floor(options.maxItems / 2);
    let start = options.anchorItemId
      ? Math.max(0, center - half)
      : Math.max(0, ids.length - options.maxItems);
    const end = Math.min(ids.length, start + options.maxItems);
    start = Math.max(0, end - options.maxItems);
    const slice = ids.slice(start, end);
    const rows = slice.length === 0 ? [] : statement(
      db.connection,
      `SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(slice));
    const byId = new Map(rows.map((row) => [String(row.id), itemFromRow(row)]));
    const items = overlayStreamedText(db, slice.map((id) => byId.get(id)!).filter(Boolean));
    return { items, hasBefore: start > 0, hasAfter: end < ids.length, anchorFound };
  });
}
