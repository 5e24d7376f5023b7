/**
 * The append-only event journal, state.db's single source of truth. Appending an
 * event and applying it to the projections happen in the caller's transaction, so
 * either both are committed or neither is.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import {
  EVENT_SCHEMA_VERSION,
  type EventPayload,
  type EventType,
  type JournalEvent,
  mirrorScope,
} from "@daedalus/protocol";
import { statement } from "../_statements.ts";
import { applyEvent } from "./projections.ts";
import { checkEvent } from "./_event_check.ts";
import { JournalError } from "./errors.ts";
import { advanceChainTail, chainLinkOfText, currentChainTail } from "./journal_chain.ts";
import { ERASED_PAYLOAD_JSON } from "./erased_payload.ts";

/** An event before it has a seq: its type, scope ids and payload (mirrored ids are added). */
export interface EventDraft<T extends EventType = EventType> {
  /** The event type. */
  type: T;
  /** Thread the event belongs to. */
  threadId?: string | null;
  /** Branch the event belongs to. */
  branchId?: string | null;
  /** Turn the event belongs to. */
  turnId?: string | null;
  /** Run the event belongs to. */
  runId?: string | null;
  /** Item the event belongs to. */
  itemId?: string | null;
  /** The payload, without mirrored scope ids (they are derived from the scope). */
  payload: Omit<EventPayload<T>, "turnId" | "runId" | "itemId"> & Record<string, unknown>;
}

const NO_SCOPE = { turnId: null, runId: null, itemId: null };

/**
 * Appends one event and applies it to the projections. Must run inside a
 * transaction of the same connection.
 *
 * @param connection the state.db connection
 * @param draft the event
 * @param timestamp when it happened (ISO-8601 UTC)
 * @returns the committed-to-be event with its seq
 * @throws {JournalError} code `invalid_event` when the event breaks the protocol schema
 */
export function appendEvent<T extends EventType>(
  connection: DatabaseSync,
  draft: EventDraft<T>,
  timestamp: string,
): JournalEvent {
  const scope = {
    threadId: draft.threadId ?? null,
    branchId: draft.branchId ?? null,
    turnId: draft.turnId ?? null,
    runId: draft.runId ?? null,
    itemId: draft.itemId ?? null,
  };
  // Checked without the mirrored ids (the scope's, checked there), then mirrored.
  const body = mirrorScope(NO_SCOPE, draft.payload as Record<string, unknown>);
  const issue = checkEvent(draft.type, scope, timestamp, body);
  if (issue) {
    throw new JournalError(
      "invalid_event",
      `Event ${draft.type} breaks the protocol at ${issue.path}: ${issue.message}`,
    );
  }
  const payload = mirrorScope(scope, body);
  // Serialized once: the payload hash is the hash of this stored text.
  const payloadJson = JSON.stringify(payload);
  // The seq is chosen here (what AUTOINCREMENT would give) because the row's hash covers it.
  const { nextSeq: seq, prevHash } = currentChainTail(connection);
  const link = chainLinkOfText(prevHash, {
    seq,
    schemaVersion: EVENT_SCHEMA_VERSION,
    type: draft.type,
    ...scope,
    timestamp,
  }, payloadJson);
  statement(
    connection,
    `INSERT INTO events (seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id,
       item_id, created_at, payload_json, prev_hash, payload_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    seq,
    EVENT_SCHEMA_VERSION,
    draft.type,
    scope.threadId,
    scope.branchId,
    scope.turnId,
    scope.runId,
    scope.itemId,
    timestamp,
    payloadJson,
    link.prevHash,
    link.payloadHash,
    link.hash,
  );
  advanceChainTail(connection, seq, link.hash);
  // Checked above part by part; the rest of the envelope is built here (_event_check.ts).
  const event = {
    seq,
    schemaVersion: EVENT_SCHEMA_VERSION,
    type: draft.type,
    ...scope,
    timestamp,
    payload,
  } as unknown as JournalEvent;
  applyEvent(connection, event);
  return event;
}

interface EventRow {
  seq: number;
  schema_version: number;
  event_type: string;
  thread_id: string | null;
  branch_id: string | null;
  turn_id: string | null;
  run_id: string | null;
  item_id: string | null;
  created_at: string;
  payload_json: string;
}

/**
 * Turns an `events` row back into the envelope that was published.
 *
 * @param row the row
 * @returns the event
 */
export function eventFromRow(row: Record<string, unknown>): JournalEvent {
  const r = row as unknown as EventRow;
  return {
    seq: r.seq,
    schemaVersion: r.schema_version,
    type: r.event_type,
    threadId: r.thread_id,
    branchId: r.branch_id,
    turnId: r.turn_id,
    runId: r.run_id,
    itemId: r.item_id,
    timestamp: r.created_at,
    payload: JSON.parse(r.payload_json),
  } as JournalEvent;
}

/**
 * Iterates the whole journal in seq order without loading it at once, without the rows
 * a thread deletion erased (erased_payload.ts).
 *
 * @param connection the state.db connection
 * @param afterSeq start after this seq
 * @returns the events, oldest first
 */
export function* iterateJournal(connection: DatabaseSync, afterSeq = 0): Generator<JournalEvent> {
  // Not cached: an open iterator would be reset by any other use of a shared statement.
  // Erased rows (a deleted thread's) are skipped: nothing of them is left to replay.
  const rows = connection.prepare(
    `SELECT seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id, item_id,
       created_at, payload_json FROM events WHERE seq > ? AND payload_json <> ? ORDER BY seq`,
  ).iterate(afterSeq, ERASED_PAYLOAD_JSON);
  for (const row of rows) yield eventFromRow(row as Record<string, unknown>);
}

/**
 * The newest seq in the journal, 0 when empty.
 *
 * @param connection the state.db connection
 * @returns the latest seq
 */
export function latestJournalSeq(connection: DatabaseSync): number {
  const row = statement(connection, "SELECT coalesce(max(seq), 0) AS seq FROM events").get();
  return Number(row?.seq ?? 0);
}
