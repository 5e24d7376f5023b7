/**
 * One page of `memory.list`: `updated_at DESC, id ASC`, filtered by state, scope and
 * kind, with an opaque keyset cursor bound to the filters it was made for.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import {
  type MemoryKind,
  type MemoryScope,
  type MemoryState,
  PAGE_DEFAULT_LIMIT,
  PAGE_MAX_LIMIT,
  type ResultOf,
} from "@daedalus/protocol";
import { MemoryError } from "./errors.ts";
import { statement } from "../_statements.ts";
import {
  MEMORY_ROW_COLUMNS,
  MEMORY_ROW_FROM,
  memoryRow,
  memorySummary,
  sha256,
} from "./_records.ts";

/** Input of a list page (the wire's `memory.list` params). */
export interface ListMemoriesInput {
  /** The previous page's `nextCursor`; absent or null for the first page. */
  cursor?: string | null;
  /** Page size; default 50, at most 100. */
  limit?: number;
  /** Only memories in this state. */
  state?: MemoryState;
  /** Only memories of this scope. */
  scope?: MemoryScope;
  /** Only memories of this kind. */
  kind?: MemoryKind;
}

/** One page of memories (the wire's `memory.list` result). */
export type MemoryPage = ResultOf<"memory.list">;

interface CursorPosition {
  updatedAt: string;
  id: string;
}

/**
 * Reads one page.
 *
 * @param connection memory.db
 * @param input cursor, limit and filters
 * @returns the page
 * @throws {MemoryError} `invalid_cursor` when the cursor is malformed or was made for
 *   other filters
 */
export function listMemoryPage(connection: DatabaseSync, input: ListMemoriesInput): MemoryPage {
  const limit = Math.min(
    Math.max(Math.trunc(input.limit ?? PAGE_DEFAULT_LIMIT), 1),
    PAGE_MAX_LIMIT,
  );
  const filterKey = sha256(JSON.stringify([
    input.state ?? null,
    input.scope?.type ?? null,
    input.scope?.key ?? null,
    input.kind ?? null,
  ])).slice(7, 23);
  const where: string[] = [];
  const values: SQLInputValue[] = [];
  if (input.state !== undefined) {
    where.push("r.state = ?");
    values.push(input.state);
  }
  if (input.scope !== undefined) {
    where.push("r.scope_type = ?", "r.scope_key IS ?");
    values.push(input.scope.type, input.scope.key);
  }
  if (input.kind !== undefined) {
    where.push("r.kind = ?");
    values.push(input.kind);
  }
  const after = input.cursor ? decodeCursor(input.cursor, filterKey) : undefined;
  if (after !== undefined) {
    where.push("(r.updated_at < ? OR (r.updated_at = ? AND r.id > ?))");
    values.push(after.updatedAt, after.updatedAt, after.id);
  }
  // Cached by shape: the optional filters make at most 16 texts.
  const rows = statement(
    connection,
    `SELECT ${MEMORY_ROW_COLUMNS} FROM ${MEMORY_ROW_FROM}
     ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY r.updated_at DESC, r.id ASC LIMIT ?`,
  ).all(...values, limit + 1).map(memoryRow);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    memories: page.map(memorySummary),
    nextCursor: hasMore && last ? encodeCursor(last.updatedAt, last.id, filterKey) : null,
    hasMore,
  };
}

function encodeCursor(updatedAt: string, id: string, filterKey: string): string {
  return btoa(JSON.stringify(["m1", filterKey, updatedAt, id]))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string, filterKey: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw invalidCursor();
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== "m1" ||
    parsed[1] !== filterKey || typeof parsed[2] !== "string" || typeof parsed[3] !== "string"
  ) {
    throw invalidCursor();
  }
  return { updatedAt: parsed[2], id: parsed[3] };
}

function invalidCursor(): MemoryError {
  return new MemoryError(
    "invalid_cursor",
    "The cursor does not belong to this memory list query",
    "cursor",
  );
}
