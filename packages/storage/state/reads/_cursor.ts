/**
 * Opaque page cursors: base64url of a small JSON object holding a format version, the
 * scope the cursor was issued for and the last position of its page. A cursor is only
 * honoured in the scope that issued it, so a client cannot page the archived catalog
 * with an active-catalog cursor or one thread's history with another's.
 *
 * @module
 */
import { BranchId, ThreadId, Timestamp } from "@daedalus/protocol";
import { ReadError } from "./errors.ts";
import { CURSOR_FORMAT_VERSION, CURSOR_MAX_CHARS } from "./limits.ts";

/** Which half of the thread catalog a cursor pages. */
export type CatalogScope = "active" | "archived";

/** The last thread of a catalog page. */
export interface CatalogPosition {
  /** Its `updated_at`. */
  updatedAt: string;
  /** Its id, which breaks ties on `updatedAt`. */
  id: string;
}

/** The branch a history cursor is bound to. */
export interface HistoryScope {
  /** The thread the branch belongs to. */
  threadId: string;
  /** The branch whose turns are paged. */
  branchId: string;
}

const HISTORY_SCOPE = "turns";
/** Backward pages get their own scope, so a forward cursor is never read as a backward one. */
const HISTORY_BACKWARD_SCOPE = "turns_backward";

/** Which way a history cursor pages: `forward` from the oldest turn, `backward` from the newest. */
export type HistoryDirection = "forward" | "backward";

/** Encodes the position after which the next catalog page starts. */
export function encodeCatalogCursor(scope: CatalogScope, position: CatalogPosition): string {
  return encodeCursor({ s: scope, u: position.updatedAt, i: position.id });
}

/**
 * Decodes a catalog cursor issued for `scope`.
 *
 * @throws {ReadError} `invalid_cursor` when it is malformed or was issued for the other scope
 */
export function decodeCatalogCursor(cursor: string, scope: CatalogScope): CatalogPosition {
  const body = decodeCursor(cursor, scope);
  const updatedAt = Timestamp.safeParse(body.u);
  const id = ThreadId.safeParse(body.i);
  if (!updatedAt.success || !id.success) throw malformed("its position is not a thread");
  return { updatedAt: updatedAt.data, id: id.data };
}

/**
 * Encodes where the next page of a branch's turns starts: after `ordinal` going forward,
 * before it going backward.
 */
export function encodeHistoryCursor(
  scope: HistoryScope,
  ordinal: number,
  direction: HistoryDirection = "forward",
): string {
  const s = direction === "forward" ? HISTORY_SCOPE : HISTORY_BACKWARD_SCOPE;
  return encodeCursor({ s, t: scope.threadId, b: scope.branchId, o: ordinal });
}

/**
 * Decodes a history cursor and checks it was issued for the same thread and branch.
 *
 * @returns the ordinal of the last turn of the previous page (its first going backward)
 * @throws {ReadError} `invalid_cursor` when it is malformed, bound to another branch or
 *   issued for the other direction
 */
export function decodeHistoryCursor(
  cursor: string,
  scope: HistoryScope,
  direction: HistoryDirection = "forward",
): number {
  const body = decodeCursor(
    cursor,
    direction === "forward" ? HISTORY_SCOPE : HISTORY_BACKWARD_SCOPE,
  );
  const threadId = ThreadId.safeParse(body.t);
  const branchId = BranchId.safeParse(body.b);
  const ordinal = body.o;
  if (!threadId.success || !branchId.success || !isPositiveSafeInteger(ordinal)) {
    throw malformed("its position is not a turn");
  }
  if (threadId.data !== scope.threadId || branchId.data !== scope.branchId) {
    throw new ReadError(
      "invalid_cursor",
      "Cursor was issued for another thread or branch",
      "cursor",
    );
  }
  return ordinal;
}

const SEARCH_SCOPE = "search";

/**
 * Encodes where the next page of a search starts: after `offset` results of the query
 * whose fingerprint is `queryKey` (a ranked result list has no stable key to resume after).
 */
export function encodeSearchCursor(queryKey: string, offset: number): string {
  return encodeCursor({ s: SEARCH_SCOPE, q: queryKey, o: offset });
}

/**
 * Decodes a search cursor and checks it was issued for the same query.
 *
 * @returns the number of results already returned
 * @throws {ReadError} `invalid_cursor` when it is malformed or was issued for another query
 */
export function decodeSearchCursor(cursor: string, queryKey: string): number {
  const body = decodeCursor(cursor, SEARCH_SCOPE);
  if (typeof body.q !== "string" || !isPositiveSafeInteger(body.o)) {
    throw malformed("its position is not a search offset");
  }
  if (body.q !== queryKey) {
    throw new ReadError("invalid_cursor", "Cursor was issued for another query", "cursor");
  }
  return body.o;
}

function encodeCursor(body: Record<string, string | number>): string {
  const json = JSON.stringify({ v: CURSOR_FORMAT_VERSION, ...body });
  const binary = String.fromCharCode(...new TextEncoder().encode(json));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string, scope: string): Record<string, unknown> {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_CHARS) {
    throw malformed(`it must be 1 to ${CURSOR_MAX_CHARS} characters`);
  }
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed("it is not base64url");
  const body = parseCursorJson(cursor);
  if (body.v !== CURSOR_FORMAT_VERSION) throw malformed("its version is not supported");
  if (typeof body.s !== "string") throw malformed("it names no scope");
  if (body.s !== scope) {
    throw new ReadError(
      "invalid_cursor",
      `Cursor was issued for the ${describeScope(body.s)}, not the ${describeScope(scope)}`,
      "cursor",
    );
  }
  return body;
}

function parseCursorJson(cursor: string): Record<string, unknown> {
  let value: unknown;
  try {
    const base64 = cursor.replaceAll("-", "+").replaceAll("_", "/");
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new ReadError("invalid_cursor", "Cursor is malformed: it cannot be decoded", "cursor", {
      cause: error,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformed("it is not an object");
  }
  return Object.fromEntries(Object.entries(value));
}

function describeScope(scope: string): string {
  if (scope === "active" || scope === "archived") return `${scope} thread catalog`;
  if (scope === HISTORY_SCOPE) return "turn history";
  if (scope === HISTORY_BACKWARD_SCOPE) return "backward turn history";
  if (scope === SEARCH_SCOPE) return "message search";
  return "unknown scope";
}

function malformed(reason: string): ReadError {
  return new ReadError("invalid_cursor", `Cursor is malformed: ${reason}`, "cursor");
}

function isPositiveSafeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}
