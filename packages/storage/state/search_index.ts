/**
 * The message search index: an FTS5 table (`message_search`, trigram tokenizer, so any
 * substring of three or more characters matches, CJK included) over the text of finished
 * user and assistant messages. Tool calls, tool results and reasoning are not indexed:
 * search finds what was said. It is a projection like the others: {@linkcode indexItem}
 * runs from `applyEvent` (live and in rebuilds), the rebuild clears it with the other
 * projection tables, and migration 8 fills it from the items already stored.
 *
 * Each row's rowid is the rowid of its `items` row, so replacing an item's text (a second
 * `item.completed`) is one lookup by rowid rather than a scan.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Item } from "@daedalus/protocol";
import { statement } from "../_statements.ts";

/** The FTS5 table of the index; a projection table (rebuilt from the journal). */
export const MESSAGE_SEARCH_TABLE = "message_search";

/**
 * The DDL of the index (migration 8). Only `content` is tokenized; the ids beside it are
 * stored with the text so a match needs no join to find its thread and turn.
 */
export const MESSAGE_SEARCH_DDL = `CREATE VIRTUAL TABLE message_search USING fts5(
    content,
    thread_id UNINDEXED,
    turn_id UNINDEXED,
    item_id UNINDEXED,
    role UNINDEXED,
    created_at UNINDEXED,
    tokenize = 'trigram'
  )`;

/**
 * FTS5's secure-delete option (stored in the table, so set once at creation): a deleted
 * row's tokens leave the index at once instead of lingering until a merge, so a deleted
 * thread's words are gone from the index as from the tables.
 */
export const MESSAGE_SEARCH_SECURE_DELETE =
  "INSERT INTO message_search(message_search, rank) VALUES('secure-delete', 1)";

/**
 * Which `items` rows the index holds, as SQL over an `items` row aliased `i`: the one
 * definition shared by the migration's fill and (as {@linkcode isSearchable}) the live path.
 */
const SEARCHABLE_SQL = `i.kind = 'message' AND i.role IN ('user', 'assistant')
  AND i.status IN ('completed', 'failed', 'cancelled') AND trim(i.content) <> ''`;

/**
 * Whether an item belongs in the index: a finished user or assistant message with text.
 * Finished includes `failed` and `cancelled`, whose partial text the conversation shows.
 *
 * @param item the item as its event carries it
 * @returns true when {@linkcode indexItem} stores it
 */
export function isSearchable(item: Pick<Item, "kind" | "role" | "status" | "content">): boolean {
  return item.kind === "message" && (item.role === "user" || item.role === "assistant") &&
    (item.status === "completed" || item.status === "failed" || item.status === "cancelled") &&
    item.content.trim() !== "";
}

/**
 * Brings the index in line with one item after its row was written: stores (or replaces)
 * its text when it is searchable, removes it otherwise. Runs inside the caller's
 * transaction, after the `items` upsert of the same event.
 *
 * @param connection the state.db connection
 * @param threadId the thread the item's turn belongs to
 * @param item the item as its event carries it
 */
export function indexItem(connection: DatabaseSync, threadId: string, item: Item): void {
  const row = statement(connection, "SELECT rowid AS r FROM items WHERE id = ?").get(item.id);
  if (row === undefined) return;
  const rowid = Number(row.r);
  statement(connection, "DELETE FROM message_search WHERE rowid = ?").run(rowid);
  if (!isSearchable(item)) return;
  statement(
    connection,
    `INSERT INTO message_search (rowid, content, thread_id, turn_id, item_id, role, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(rowid, item.content, threadId, item.turnId, item.id, item.role, item.createdAt);
}

/**
 * Removes every indexed message of a thread (for deleting a thread). It reads the ids
 * stored beside the text, so it works before or after the thread's `items` rows are gone;
 * it scans the index, which a rare, user-initiated deletion can afford.
 *
 * @param connection the state.db connection, inside the caller's transaction
 * @param threadId the thread
 * @returns the number of index rows removed
 */
export function clearThreadIndex(connection: DatabaseSync, threadId: string): number {
  return Number(
    statement(connection, "DELETE FROM message_search WHERE thread_id = ?").run(threadId).changes,
  );
}

/**
 * Fills the index from the stored items (migration 8), so a home that predates search
 * can search its old conversations at once. Produces exactly what replaying the journal
 * through {@linkcode indexItem} produces.
 *
 * @param connection the state.db connection, inside the migration's transaction
 */
export function fillSearchIndex(connection: DatabaseSync): void {
  connection.exec(
    `INSERT INTO message_search (rowid, content, thread_id, turn_id, item_id, role, created_at)
     SELECT i.rowid, i.content, t.thread_id, i.turn_id, i.id, i.role, i.created_at
     FROM items i JOIN turns t ON t.id = i.turn_id
     WHERE ${SEARCHABLE_SQL}
     ORDER BY i.rowid`,
  );
}
