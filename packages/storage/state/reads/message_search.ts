/**
 * `thread.search`: the messages whose text contains a query, over the FTS5 index of
 * search_index.ts. The query is always one literal phrase, never FTS syntax: what the
 * user typed (quotes, `*`, `:`, `NEAR`, `-`) is matched as text. Queries of three or more
 * characters use the trigram index and rank by bm25, then newest; shorter ones (a
 * two-character Chinese word) scan the same table with LIKE, newest first (the scan goes
 * newest first and stops once the page is full).
 *
 * @module
 */
import type { MessageSearchResult, ResultOf } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { decodeSearchCursor, encodeSearchCursor } from "./_cursor.ts";
import { pageLimit } from "./_params.ts";
import { ReadError } from "./errors.ts";
import { buildSnippet } from "./search_snippet.ts";
import {
  SEARCH_DEFAULT_ROWS,
  SEARCH_MAX_DEPTH,
  SEARCH_MAX_ROWS,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_TRIGRAM_MIN_CHARS,
} from "./limits.ts";
import { statement } from "../../_statements.ts";

/** What {@linkcode searchMessages} returns: the `thread.search` result. */
export type MessageSearchPage = ResultOf<"thread.search">;

/** Options of {@linkcode searchMessages}. */
export interface SearchMessagesOptions {
  /** The text to find; trimmed, then 1–200 characters. */
  query: string;
  /** Results per page, 1–50; default 20. */
  limit?: number;
  /** `nextCursor` of the previous page of the same query; absent or null for the first. */
  cursor?: string | null;
}

const COLUMNS = `s.item_id, s.turn_id, s.thread_id, s.role, s.created_at, s.content,
  th.title, th.archived_at, t.branch_id`;

/**
 * The page's rows: the matching rowids are ordered and cut first (`hits`), so the text and
 * ids are read for one page only, not for every match before the sort. "Newest" is the
 * rowid, the order the messages' rows were written (a rebuild keeps it: journal order).
 */
function pageSql(match: string, order: string): string {
  return `WITH hits AS (
    SELECT rowid AS r, ${order === "rank" ? "rank" : "0"} AS k FROM message_search
    WHERE ${match}
    ORDER BY ${order === "rank" ? "rank, " : ""}rowid DESC LIMIT ? OFFSET ?
  )
  SELECT ${COLUMNS} FROM hits
  JOIN message_search s ON s.rowid = hits.r
  JOIN threads th ON th.id = s.thread_id
  JOIN turns t ON t.id = s.turn_id
  ORDER BY hits.k, hits.r DESC`;
}

const RANKED_SQL = pageSql("message_search MATCH ?", "rank");

const SHORT_SQL = pageSql("content LIKE ? ESCAPE '\\'", "newest");

/**
 * Finds the user and assistant messages that contain `query`, archived threads included.
 *
 * @param db the state database
 * @param options the query, page size and cursor
 * @returns one page of results and `nextCursor` (null on the last page, or past
 *   {@linkcode SEARCH_MAX_DEPTH} results)
 * @throws {ReadError} `invalid_params` for an empty or too long query or a limit outside
 *   1–50, `invalid_cursor` for a malformed cursor or one issued for another query
 * @example
 * ```ts
 * const page = searchMessages(db, { query: "migration plan", limit: 10 });
 * for (const hit of page.results) console.log(hit.threadTitle, hit.snippet);
 * ```
 */
export function searchMessages(
  db: StateDatabase,
  options: SearchMessagesOptions,
): MessageSearchPage {
  const query = typeof options.query === "string" ? options.query.trim() : "";
  if (query.length === 0 || query.length > SEARCH_QUERY_MAX_LENGTH) {
    throw new ReadError(
      "invalid_params",
      `Parameter query must be 1 to ${SEARCH_QUERY_MAX_LENGTH} characters after trimming`,
      "query",
    );
  }
  const limit = pageLimit(options.limit, SEARCH_DEFAULT_ROWS, SEARCH_MAX_ROWS);
  const key = queryKey(query);
  const offset = options.cursor == null ? 0 : decodeSearchCursor(options.cursor, key);
  const take = Math.min(limit, Math.max(0, SEARCH_MAX_DEPTH - offset));
  if (take === 0) return { results: [], nextCursor: null };
  const short = [...query].length < SEARCH_TRIGRAM_MIN_CHARS;
  const rows = db.readTransaction(() =>
    short
      ? statement(db.connection, SHORT_SQL).all(likePattern(query), take + 1, offset)
      : statement(db.connection, RANKED_SQL).all(phrase(query), take + 1, offset)
  );
  const results = rows.slice(0, take).map((row) => resultFromRow(row, query));
  const next = offset + results.length;
  const hasMore = rows.length > take && next < SEARCH_MAX_DEPTH;
  return { results, nextCursor: hasMore ? encodeSearchCursor(key, next) : null };
}

/**
 * The query as one FTS5 phrase: in double quotes, each quote inside doubled, so nothing
 * the user typed is read as FTS syntax.
 *
 * @param query the trimmed query
 * @returns the MATCH expression
 */
export function phrase(query: string): string {
  return `"${query.replaceAll('"', '""')}"`;
}

/**
 * The query as a LIKE pattern that matches it anywhere, its `%`, `_` and `\` literal.
 *
 * @param query the trimmed query
 * @returns the pattern, for `LIKE ? ESCAPE '\'`
 */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A short fingerprint of the query (FNV-1a, 32 bits) that binds a cursor to it. */
function queryKey(query: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < query.length; i++) {
    hash ^= query.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function resultFromRow(row: Record<string, unknown>, query: string): MessageSearchResult {
  const role = row.role;
  if (role !== "user" && role !== "assistant") {
    throw new ReadError("projection_corrupt", `Search row has role ${String(role)}`);
  }
  const snippet = buildSnippet(String(row.content), query);
  return {
    threadId: String(row.thread_id),
    threadTitle: row.title === null ? null : String(row.title),
    branchId: String(row.branch_id),
    turnId: String(row.turn_id),
    itemId: String(row.item_id),
    role,
    snippet: snippet.text,
    highlights: snippet.highlights,
    createdAt: String(row.created_at),
    archived: row.archived_at !== null,
  };
}
