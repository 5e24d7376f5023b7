/**
 * Shared pieces of the memory store: input types, digests, row mapping and the FTS row
 * upkeep used by both the mutations and the reads.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type {
  MemoryKind,
  MemoryScope,
  MemorySourceKind,
  MemoryState,
  MemorySummary,
} from "@daedalus/protocol";
import { MEMORY_PREVIEW_MAX_CHARS } from "@daedalus/protocol";
import { nullableText, numeric, type Row, text } from "./_sqlite.ts";
import { statement } from "../_statements.ts";
import { memoryIndexText } from "./tokenize.ts";

/** An Item of state.db that a memory's source points at. */
export interface ResolvedItem {
  /** The Item's thread. */
  threadId: string;
  /** The Item's turn. */
  turnId: string;
  /** The Item itself. */
  itemId: string;
  /** A digest of the Item's content at the time it was cited. */
  contentDigest: string;
}

/** Looks an Item up in state.db; `null` when it does not (or no longer) exist. */
export type ResolveItem = (itemId: string) => ResolvedItem | null;

/** Where a revision came from: an Item of a session, cited explicitly or auto-extracted. */
export interface MemorySourceInput {
  /** Always `session_item` on the wire. */
  type: "session_item";
  /** The cited Item. */
  itemId: string;
  /** `auto_extracted` for background refinement; default `session_item`. */
  sourceKind?: "session_item" | "auto_extracted";
}

/** The columns of `memory_records` joined with the current revision. */
export interface MemoryRow {
  id: string;
  kind: MemoryKind;
  scope: MemoryScope;
  revision: number;
  state: MemoryState;
  content: string | null;
  sourceKind: MemorySourceKind;
  sourceThreadId: string | null;
  sourceTurnId: string | null;
  sourceItemId: string | null;
  createdAt: string;
  updatedAt: string;
  forgottenAt: string | null;
}

/** The SELECT list that {@linkcode memoryRow} reads (aliases `r` and `v`). */
export const MEMORY_ROW_COLUMNS = `r.id, r.kind, r.scope_type, r.scope_key, r.current_revision,
  r.state, r.created_at, r.updated_at, r.forgotten_at, v.content, v.source_kind,
  v.source_thread_id, v.source_turn_id, v.source_item_id`;

/** The FROM clause matching {@linkcode MEMORY_ROW_COLUMNS}. */
export const MEMORY_ROW_FROM = `memory_records r JOIN memory_revisions v
  ON v.memory_id = r.id AND v.revision = r.current_revision`;

/** Maps a row selected with {@linkcode MEMORY_ROW_COLUMNS}. */
export function memoryRow(row: Row): MemoryRow {
  const scopeKey = nullableText(row, "scope_key");
  return {
    id: text(row, "id"),
    kind: text(row, "kind") as MemoryKind,
    scope: scopeKey === null ? { type: "global", key: null } : { type: "workspace", key: scopeKey },
    revision: numeric(row, "current_revision"),
    state: text(row, "state") as MemoryState,
    content: nullableText(row, "content"),
    sourceKind: text(row, "source_kind") as MemorySourceKind,
    sourceThreadId: nullableText(row, "source_thread_id"),
    sourceTurnId: nullableText(row, "source_turn_id"),
    sourceItemId: nullableText(row, "source_item_id"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
    forgottenAt: nullableText(row, "forgotten_at"),
  };
}

/** The list-page view of a row. */
export function memorySummary(row: MemoryRow): MemorySummary {
  return {
    id: row.id,
    kind: row.kind,
    scope: row.scope,
    revision: row.revision,
    state: row.state,
    preview: preview(row.content ?? ""),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    forgottenAt: row.forgottenAt,
  };
}

/** Whitespace collapsed, cut to the preview limit without splitting a surrogate pair. */
export function preview(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  if (flat.length <= MEMORY_PREVIEW_MAX_CHARS) return flat;
  let cut = "";
  for (const char of flat) {
    if (cut.length + char.length > MEMORY_PREVIEW_MAX_CHARS - 1) break;
    cut += char;
  }
  return `${cut}…`;
}

/** `sha256:<hex>` of a UTF-8 string. */
export function sha256(value: string): string {
  return `sha256:${createHash("sha256").update(value).digest("hex")}`;
}

/** Adds the FTS row of a memory's current content. */
export function insertFtsRow(connection: DatabaseSync, memoryId: string, content: string): void {
  statement(connection, "INSERT INTO memory_fts(memory_id, tokens) VALUES (?, ?)")
    .run(memoryId, memoryIndexText(content));
}

/**
 * Removes a memory's FTS row. `memory_id` is UNINDEXED, so this scans the FTS content
 * table; it runs only on correct and forget, which are rare next to recall.
 */
export function deleteFtsRow(connection: DatabaseSync, memoryId: string): void {
  statement(connection, "DELETE FROM memory_fts WHERE memory_id = ?").run(memoryId);
}
