/**
 * Row → protocol DTO mapping shared by the reads. Every mapper narrows the stored text
 * to the protocol's vocabularies without casts; a row that does not fit becomes a
 * `projection_corrupt` {@linkcode ReadError} naming the table and id, never a silently
 * wrong DTO.
 *
 * @module
 */
import { budgetOf } from "./run_row.ts";
import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import { statement } from "../_statements.ts";
import {
  EventEnvelope,
  ExecutionPolicy,
  type Item,
  ItemKind,
  ItemRole,
  ItemStatus,
  type ResultOf,
  runFailureClass,
  RunReasonCode,
  RunStatus,
  type RunWithItems,
  type Thread,
  ThreadSource,
  type Turn,
  TurnStatus,
  Workspace,
} from "@daedalus/protocol";
import { integerColumn, nullableIntegerColumn, nullableTextColumn, textColumn } from "./_sqlite.ts";
import type { SafeParser } from "./reads/_params.ts";
import { ReadError } from "./reads/errors.ts";

/** One result row of `node:sqlite`. */
export type Row = Record<string, SQLOutputValue>;

/** One journal event as `event.replay` returns it. */
export type ReplayedEvent = ResultOf<"event.replay">["events"][number];

/** Columns {@linkcode threadFromRow} reads, for `SELECT ${THREAD_COLUMNS} FROM threads`. */
export const THREAD_COLUMNS =
  "id, title, default_branch_id, active_branch_id, workspace_json, created_at, updated_at, " +
  "archived_at, source_json, settings_json";

/** Columns {@linkcode turnFromRow} reads. */
export const TURN_COLUMNS = "id, thread_id, branch_id, ordinal, status, created_at, updated_at";

/** Columns {@linkcode itemFromRow} reads. */
export const ITEM_COLUMNS =
  "id, turn_id, run_id, ordinal, kind, role, status, content, data_json, created_at, updated_at";

/** Columns {@linkcode envelopeFromRow} reads. */
export const EVENT_COLUMNS = "seq, schema_version, event_type, thread_id, branch_id, turn_id, " +
  "run_id, item_id, created_at, payload_json";

/**
 * The highest committed seq, 0 for an empty journal. Call it inside the transaction that
 * reads the rows it stamps.
 */
export function selectLatestSeq(connection: DatabaseSync): number {
  const row = statement(connection, "SELECT coalesce(max(seq), 0) AS seq FROM events").get();
  return row === undefined ? 0 : integerColumn(row, "seq");
}

/** Maps a `threads` row (see {@linkcode THREAD_COLUMNS}) to a Thread. */
export function threadFromRow(row: Row): Thread {
  return mapRow("thread", row, () => ({
    id: textColumn(row, "id"),
    title: nullableTextColumn(row, "title"),
    defaultBranchId: textColumn(row, "default_branch_id"),
    workspace: workspaceFromJson(nullableTextColumn(row, "workspace_json")),
    createdAt: textColumn(row, "created_at"),
    updatedAt: textColumn(row, "updated_at"),
    archivedAt: nullableTextColumn(row, "archived_at"),
    // Null until a branch.create or thread.set_active_branch: the default branch.
    activeBranchId: nullableTextColumn(row, "active_branch_id") ??
      textColumn(row, "default_branch_id"),
    source: sourceFromJson(nullableTextColumn(row, "source_json")),
    // Only a bound thread names its agent profile (an unbound one runs the default's).
    ...boundAgent(nullableTextColumn(row, "settings_json")),
  }));
}

/** `{agentId}` when the thread's settings bind it to an agent profile, else nothing. */
function boundAgent(settingsJson: string | null): { agentId?: string } {
  if (settingsJson === null) return {};
  const agentId = (JSON.parse(settingsJson) as { agentId?: unknown }).agentId;
  return typeof agentId === "string" ? { agentId } : {};
}

/** Maps a `turns` row (see {@linkcode TURN_COLUMNS}) and its runs to a Turn. */
export function turnFromRow(row: Row, runs: RunWithItems[]): Turn {
  return mapRow("turn", row, () => ({
    id: textColumn(row, "id"),
    threadId: textColumn(row, "thread_id"),
    branchId: textColumn(row, "branch_id"),
    ordinal: integerColumn(row, "ordinal"),
    status: oneOf(TurnStatus, textColumn(row, "status"), "status"),
    createdAt: textColumn(row, "created_at"),
    updatedAt: textColumn(row, "updated_at"),
    runs,
  }));
}

/** The thread and branch of a run's turn, which the `runs` row does not hold. */
export interface RunScope {
  /** The turn's thread. */
  threadId: string;
  /** The turn's branch. */
  branchId: string;
}

/**
 * Maps a `runs` row to a Run with items. The row also carries the counts
 * `model_call_count` and `context_revision_count`.
 */
export function runFromRow(row: Row, scope: RunScope, items: Item[]): RunWithItems {
  return mapRow("run", row, () => {
    const reasonCode = nullableOneOf(
      RunReasonCode,
      nullableTextColumn(row, "reason_code"),
      "reason_code",
    );
    return {
      id: textColumn(row, "id"),
      turnId: textColumn(row, "turn_id"),
      threadId: scope.threadId,
      branchId: scope.branchId,
      providerId: textColumn(row, "provider_id"),
      modelId: textColumn(row, "model_id"),
      executionPolicy: oneOf(
        ExecutionPolicy,
        textColumn(row, "execution_policy"),
        "execution_policy",
      ),
      status: oneOf(RunStatus, textColumn(row, "status"), "status"),
      reasonCode,
      // Derived, not stored: the mapping may grow without migrating old rows.
      failureClass: runFailureClass(reasonCode),
      ...errorMessageOf(row),
      ...fallbackModelOf(row),
      ...budgetOf(row.budget_json),
      modelCalls: integerColumn(row, "model_call_count"),
      // The first revision is the run's initial context; each later one is a compaction.
      compactions: Math.max(0, integerColumn(row, "context_revision_count") - 1),
      createdAt: textColumn(row, "created_at"),
      startedAt: nullableTextColumn(row, "started_at"),
      settledAt: nullableTextColumn(row, "settled_at"),
      items,
    };
  });
}

/** A failed Run's error message, present only when stored. */
function errorMessageOf(row: Row): { errorMessage?: string } {
  const message = nullableTextColumn(row, "error_message");
  return message === null ? {} : { errorMessage: message };
}

/** The fallback model a Run continued on, present only once it moved (run.model_fallback). */
function fallbackModelOf(row: Row): { fallbackModel?: { providerId: string; modelId: string } } {
  const providerId = nullableTextColumn(row, "fallback_provider_id");
  const modelId = nullableTextColumn(row, "fallback_model_id");
  return providerId === null || modelId === null ? {} : { fallbackModel: { providerId, modelId } };
}

/** Maps an `items` row (see {@linkcode ITEM_COLUMNS}) to an Item. */
export function itemFromRow(row: Row): Item {
  return mapRow("item", row, () => ({
    id: textColumn(row, "id"),
    turnId: textColumn(row, "turn_id"),
    runId: textColumn(row, "run_id"),
    ordinal: integerColumn(row, "ordinal"),
    kind: oneOf(ItemKind, textColumn(row, "kind"), "kind"),
    role: nullableOneOf(ItemRole, nullableTextColumn(row, "role"), "role"),
    status: oneOf(ItemStatus, textColumn(row, "status"), "status"),
    content: textColumn(row, "content"),
    data: jsonObject(textColumn(row, "data_json"), "data_json"),
    createdAt: textColumn(row, "created_at"),
    updatedAt: textColumn(row, "updated_at"),
  }));
}

/**
 * Maps an `events` row (see {@linkcode EVENT_COLUMNS}) to its envelope and checks it
 * against the protocol, so a replaying client never receives what it would reject.
 */
export function envelopeFromRow(row: Row): ReplayedEvent {
  const seq = nullableIntegerColumn(row, "seq");
  const candidate = mapRow("event", row, () => ({
    seq: integerColumn(row, "seq"),
    schemaVersion: integerColumn(row, "schema_version"),
    type: textColumn(row, "event_type"),
    threadId: nullableTextColumn(row, "thread_id"),
    branchId: nullableTextColumn(row, "branch_id"),
    turnId: nullableTextColumn(row, "turn_id"),
    runId: nullableTextColumn(row, "run_id"),
    itemId: nullableTextColumn(row, "item_id"),
    timestamp: textColumn(row, "created_at"),
    payload: jsonObject(textColumn(row, "payload_json"), "payload_json"),
  }));
  const parsed = EventEnvelope.safeParse(candidate);
  if (parsed.success) return parsed.data;
  throw new ReadError(
    "projection_corrupt",
    `Stored event ${seq ?? "(no seq)"} does not match the protocol: ${parsed.error.message}`,
    undefined,
    { cause: parsed.error },
  );
}

function workspaceFromJson(json: string | null): Workspace | null {
  if (json === null) return null;
  return Workspace.parse(JSON.parse(json));
}

function sourceFromJson(json: string | null): ThreadSource | null {
  if (json === null) return null;
  return ThreadSource.parse(JSON.parse(json));
}

function jsonObject(json: string, column: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`Expected a JSON object in column ${column}`);
  }
  return Object.fromEntries(Object.entries(value));
}

/** Narrows stored text to a protocol vocabulary by its schema. */
function oneOf<T>(vocabulary: SafeParser<T>, value: string, column: string): T {
  const parsed = vocabulary.safeParse(value);
  if (!parsed.success) throw new TypeError(`Unexpected value in column ${column}`);
  return parsed.data;
}

function nullableOneOf<T>(
  vocabulary: SafeParser<T>,
  value: string | null,
  column: string,
): T | null {
  return value === null ? null : oneOf(vocabulary, value, column);
}

/** Runs a mapper, turning any failure into a `projection_corrupt` error naming the row. */
function mapRow<T>(what: string, row: Row, map: () => T): T {
  try {
    return map();
  } catch (error) {
    const id = row.id ?? row.seq;
    const name = typeof id === "string" || typeof id === "number" ? ` ${id}` : "";
    const detail = error instanceof Error ? error.message : String(error);
    throw new ReadError(
      "projection_corrupt",
      `Stored ${what}${name} does not fit the protocol: ${detail}`,
      undefined,
      { cause: error },
    );
  }
}
