/**
 * The thread catalog: one thread by id, and the active or archived catalog paged newest
 * first. Pages use keyset pagination over the partial indexes
 * `threads_active_catalog_order_idx` / `threads_archived_catalog_order_idx`, so a page
 * costs the same at any depth and never needs a sort.
 *
 * @module
 */
import { type ResultOf, type Thread, ThreadId } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { type CatalogScope, decodeCatalogCursor, encodeCatalogCursor } from "./_cursor.ts";
import { pageLimit, requireId } from "./_params.ts";
import { selectLatestSeq, THREAD_COLUMNS, threadFromRow } from "../_rows.ts";
import { ReadError } from "./errors.ts";
import { PAGE_DEFAULT_ROWS, PAGE_MAX_ROWS } from "./limits.ts";
import { statement } from "../../_statements.ts";

/** What {@linkcode getThread} returns: a thread and the seq it was read at. */
export interface ThreadSnapshot {
  /** The thread. */
  thread: Thread;
  /** The highest seq committed when it was read. */
  snapshotSeq: number;
}

/** What {@linkcode listThreads} returns: the `thread.list` result. */
export type ThreadPage = ResultOf<"thread.list">;

/** Options of {@linkcode listThreads}. */
export interface ListThreadsOptions {
  /** `nextCursor` of the previous page of the same catalog; absent or null for the first. */
  cursor?: string | null;
  /** Threads per page, 1–100; default 50. */
  limit?: number;
  /** Page the archived catalog instead of the active one. Default `false`. */
  archived?: boolean;
}

/**
 * Reads one thread, archived or not, with the journal seq it reflects.
 *
 * @param db the state database
 * @param threadId the thread to read
 * @returns the thread and `snapshotSeq`, the highest seq committed when it was read
 * @throws {ReadError} `invalid_params` for a malformed id, `thread_not_found` when there is
 *   no such thread, `projection_corrupt` when its row does not fit the protocol
 * @example
 * ```ts
 * const { thread, snapshotSeq } = getThread(db, "thread_0123456789abcdef0123456789abcdef");
 * ```
 */
export function getThread(db: StateDatabase, threadId: string): ThreadSnapshot {
  const id = requireId(ThreadId, threadId, "threadId");
  return db.readTransaction(() => {
    const row = statement(db.connection, `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`)
      .get(id);
    if (row === undefined) {
      throw new ReadError("thread_not_found", `Thread ${id} does not exist`, "threadId");
    }
    return { thread: threadFromRow(row), snapshotSeq: selectLatestSeq(db.connection) };
  });
}

/**
 * Whether a user named the thread (`thread.rename`): an automatic title must then not be
 * asked for, since it would never replace the user's.
 *
 * @param db the state database
 * @param threadId the thread
 * @returns true when its title came from the user; false for provisional, automatic, no
 *   title, or no such thread
 */
export function isThreadUserNamed(db: StateDatabase, threadId: string): boolean {
  const row = statement(db.connection, "SELECT title_source FROM threads WHERE id = ?")
    .get(threadId) as { title_source?: unknown } | undefined;
  return row?.title_source === "user";
}

/**
 * Pages the active (default) or archived thread catalog, most recently updated first;
 * threads updated at the same instant are ordered by id.
 *
 * @param db the state database
 * @param options cursor, limit and which catalog
 * @returns the page, `nextCursor` (null on the last page), `hasMore` and `snapshotSeq`
 * @throws {ReadError} `invalid_params` for a limit outside 1–100, `invalid_cursor` for a
 *   malformed cursor or one issued for the other catalog
 * @example
 * ```ts
 * let page = listThreads(db, { limit: 20 });
 * while (page.hasMore) page = listThreads(db, { cursor: page.nextCursor, limit: 20 });
 * ```
 */
export function listThreads(db: StateDatabase, options: ListThreadsOptions = {}): ThreadPage {
  const scope: CatalogScope = options.archived === true ? "archived" : "active";
  const limit = pageLimit(options.limit, PAGE_DEFAULT_ROWS, PAGE_MAX_ROWS);
  const after = options.cursor == null ? null : decodeCatalogCursor(options.cursor, scope);
  return db.readTransaction(() => {
    const rows = selectCatalogRows(db, scope, after, limit + 1);
    const threads = rows.slice(0, limit).map(threadFromRow);
    const hasMore = rows.length > limit;
    const last = threads.at(-1);
    return {
      threads,
      nextCursor: hasMore && last !== undefined ? encodeCatalogCursor(scope, last) : null,
      hasMore,
      snapshotSeq: selectLatestSeq(db.connection),
    };
  });
}

/** The partial-index predicate of each catalog; it must match the index text exactly. */
const SCOPE_PREDICATE: Record<CatalogScope, string> = {
  active: "archived_at IS NULL",
  archived: "archived_at IS NOT NULL",
};

function selectCatalogRows(
  db: StateDatabase,
  scope: CatalogScope,
  after: { updatedAt: string; id: string } | null,
  rowLimit: number,
) {
  const order = "ORDER BY updated_at DESC, id ASC LIMIT ?";
  if (after === null) {
    return statement(
      db.connection,
      `SELECT ${THREAD_COLUMNS} FROM threads WHERE ${SCOPE_PREDICATE[scope]} ${order}`,
    ).all(rowLimit);
  }
  // `updated_at <= ?` is the index range; the OR then drops the ties already returned.
  return statement(
    db.connection,
    `SELECT ${THREAD_COLUMNS} FROM threads
     WHERE ${SCOPE_PREDICATE[scope]} AND updated_at <= ?
       AND (updated_at < ? OR id > ?)
     ${order}`,
  ).all(after.updatedAt, after.updatedAt, after.id, rowLimit);
}
