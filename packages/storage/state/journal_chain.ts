/**
 * The journal's hash chain (issue 15). Every `events` row carries
 *
 * - `payload_hash` = SHA-256 of the stored `payload_json` text, byte for byte: the
 *   payload's `JSON.stringify`, which is a fixed point of `JSON.parse` then
 *   `JSON.stringify` (key order, numbers and escapes come back the same), so an exported
 *   payload object still hashes to it,
 * - `prev_hash`    = the `hash` of the row before it in seq order, or
 *   {@linkcode JOURNAL_CHAIN_GENESIS} (64 zeros) for the first row,
 * - `hash`         = SHA-256 of `prev_hash ‖ "\n" ‖ envelope ‖ "\n" ‖ payload_hash`, where
 *   envelope is the `JSON.stringify` of the array `[seq, schemaVersion, type, threadId, branchId,
 *   turnId, runId, itemId, timestamp]`,
 *
 * all lowercase hex. The text is hashed rather than a canonical (key-sorted) form of the
 * payload: the append serializes once, verification needs no parse, and the journal
 * keeps each payload's key order (a run config part's content hash depends on it).
 * Storing `prev_hash` (not only `hash`) lets a verifier tell a changed
 * row (its own hash no longer matches) from a broken link (a row deleted before it, or
 * rows moved), and makes an exported segment checkable on its own.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { JOURNAL_CHAIN_GENESIS } from "../limits.ts";
import { statement } from "../_statements.ts";

export { JOURNAL_CHAIN_GENESIS };

/** The envelope fields a row's hash covers, besides its payload hash. */
export interface ChainEnvelope {
  /** Position in the journal. */
  seq: number;
  /** Event schema version. */
  schemaVersion: number;
  /** Event type. */
  type: string;
  /** Thread id, or null. */
  threadId: string | null;
  /** Branch id, or null. */
  branchId: string | null;
  /** Turn id, or null. */
  turnId: string | null;
  /** Run id, or null. */
  runId: string | null;
  /** Item id, or null. */
  itemId: string | null;
  /** When it happened (ISO-8601 UTC). */
  timestamp: string;
}

/** The three chain columns of one row. */
export interface ChainLink {
  /** Hash of the row before, or the genesis value. */
  prevHash: string;
  /** SHA-256 of the stored payload text. */
  payloadHash: string;
  /** SHA-256 over the previous hash, the envelope and the payload hash. */
  hash: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The payload hash of a payload: the hash of the text the journal stores for it.
 *
 * @param payload the event payload (as stored, mirrored scope ids included)
 * @returns lowercase hex SHA-256 of its `JSON.stringify`
 */
export function payloadHash(payload: Record<string, unknown>): string {
  return sha256(JSON.stringify(payload));
}

/**
 * The payload hash of a stored `payload_json` text.
 *
 * @param payloadJson the text
 * @returns lowercase hex SHA-256 of it
 */
export function payloadTextHash(payloadJson: string): string {
  return sha256(payloadJson);
}

/**
 * The hash of a row from its previous hash, envelope and payload hash.
 *
 * @param prevHash the previous row's hash (or the genesis value)
 * @param envelope the row's envelope fields
 * @param payloadHashHex the row's payload hash
 * @returns lowercase hex SHA-256
 */
export function eventHash(
  prevHash: string,
  envelope: ChainEnvelope,
  payloadHashHex: string,
): string {
  // Strings, integers and nulls only: JSON.stringify writes them canonically.
  const fields = JSON.stringify([
    envelope.seq,
    envelope.schemaVersion,
    envelope.type,
    envelope.threadId,
    envelope.branchId,
    envelope.turnId,
    envelope.runId,
    envelope.itemId,
    envelope.timestamp,
  ]);
  return sha256(`${prevHash}\n${fields}\n${payloadHashHex}`);
}

/**
 * The chain columns of a new row.
 *
 * @param prevHash the previous row's hash
 * @param envelope the new row's envelope
 * @param payload its payload
 * @returns its link
 */
export function chainLink(
  prevHash: string,
  envelope: ChainEnvelope,
  payload: Record<string, unknown>,
): ChainLink {
  return chainLinkOfText(prevHash, envelope, JSON.stringify(payload));
}

/**
 * The chain columns of a new row from the payload text it stores: one hash over the
 * text, no second serialization.
 *
 * @param prevHash the previous row's hash
 * @param envelope the new row's envelope
 * @param payloadJson the `JSON.stringify` of its payload
 * @returns its link
 */
export function chainLinkOfText(
  prevHash: string,
  envelope: ChainEnvelope,
  payloadJson: string,
): ChainLink {
  const payloadHashHex = sha256(payloadJson);
  return {
    prevHash,
    payloadHash: payloadHashHex,
    hash: eventHash(prevHash, envelope, payloadHashHex),
  };
}

/** Where the next event goes: its seq and the hash it chains from. */
export interface ChainTail {
  /** The seq AUTOINCREMENT would assign next. */
  nextSeq: number;
  /** The newest row's hash; the genesis value for an empty journal (or an unchained row). */
  prevHash: string;
}

/**
 * Reads where the next event goes. The seq is what AUTOINCREMENT would give (one past
 * the larger of `sqlite_sequence` and the newest row), so a row inserted with it
 * explicitly is the row SQLite would have made. A newest row without a hash (a
 * hand-edited file) chains from the genesis value: appending never fails on it, and
 * verification reports that row as unchained.
 *
 * @param connection the state.db connection, inside the append's transaction
 * @returns the tail
 */
export function readChainTail(connection: DatabaseSync): ChainTail {
  const row = statement(
    connection,
    `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS used,
       (SELECT seq FROM events ORDER BY seq DESC LIMIT 1) AS last_seq,
       (SELECT hash FROM events ORDER BY seq DESC LIMIT 1) AS last_hash`,
  ).get()!;
  const nextSeq = Math.max(Number(row.used), Number(row.last_seq ?? 0)) + 1;
  const prevHash = typeof row.last_hash === "string" ? row.last_hash : JOURNAL_CHAIN_GENESIS;
  return { nextSeq, prevHash };
}

/** A tail kept in memory, valid while no other connection has committed. */
interface KeptTail extends ChainTail {
  /** `PRAGMA data_version` when it was read: another connection's commit changes it. */
  dataVersion: number;
  /** Compared with `data_version` in the current transaction (no other writer since). */
  checked: boolean;
}

const keptTails = new WeakMap<DatabaseSync, KeptTail>();

/**
 * Where the next event goes, from memory when this connection appended last: the tail
 * read is the largest part of the chain's cost. Kept per connection, advanced by
 * {@linkcode advanceChainTail} after each insert, dropped by {@linkcode forgetChainTail}
 * when a transaction or savepoint fails, and re-read when `PRAGMA data_version` says
 * another connection committed (the home lock keeps other writers out; this makes a
 * stale tail impossible anyway). The pragma is read once per write transaction
 * ({@linkcode recheckChainTail} at its `BEGIN`): while it holds the write lock nobody
 * else can commit. Outside a transaction it is read at every call.
 *
 * @param connection the state.db connection, inside the append's write transaction
 * @returns the tail (do not modify it)
 */
export function currentChainTail(connection: DatabaseSync): ChainTail {
  const kept = keptTails.get(connection);
  if (kept !== undefined && kept.checked && connection.isTransaction) return kept;
  const version = statement(connection, "PRAGMA data_version").get();
  const dataVersion = Number(version?.data_version);
  const checked = connection.isTransaction;
  if (kept !== undefined && kept.dataVersion === dataVersion) {
    kept.checked = checked;
    return kept;
  }
  const tail = readChainTail(connection);
  keptTails.set(connection, { ...tail, dataVersion, checked });
  return tail;
}

/**
 * Marks the kept tail to be compared with `PRAGMA data_version` again at its next use:
 * called when a transaction begins, as another connection may have committed before.
 *
 * @param connection the connection
 */
export function recheckChainTail(connection: DatabaseSync): void {
  const kept = keptTails.get(connection);
  if (kept !== undefined) kept.checked = false;
}

/**
 * Records the row just inserted at the kept tail's position as the new tail.
 *
 * @param connection the connection that inserted it
 * @param seq the row's seq
 * @param hash the row's hash
 */
export function advanceChainTail(connection: DatabaseSync, seq: number, hash: string): void {
  const kept = keptTails.get(connection);
  if (kept === undefined) return;
  kept.nextSeq = seq + 1;
  kept.prevHash = hash;
}

/**
 * Drops the kept tail of a connection (a rolled back write, or rows written to `events`
 * by other code on the same connection); the next append reads it again.
 *
 * @param connection the connection
 */
export function forgetChainTail(connection: DatabaseSync): void {
  keptTails.delete(connection);
}

/**
 * Computes the chain of rows that have none, oldest first, from the newest chained row
 * before them, rewriting a payload text unless it is already `JSON.stringify`'s: the migration to schema version 6 runs it on a version-5 journal. Reads
 * in batches by seq so a large journal is never loaded at once.
 *
 * @param connection the state.db connection, inside the migration's transaction
 * @param batchRows rows read per batch
 * @returns rows chained
 */
export function backfillJournalChain(connection: DatabaseSync, batchRows: number): number {
  const select = connection.prepare(
    `SELECT seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id, item_id,
       created_at, payload_json FROM events WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  // A text JSON.stringify would write differently (a hand-written row) is rewritten so,
  // same value: payload_hash covers the stored text, and an export must reproduce it.
  const update = connection.prepare(
    "UPDATE events SET payload_json = ?, prev_hash = ?, payload_hash = ?, hash = ? WHERE seq = ?",
  );
  let prevHash = JOURNAL_CHAIN_GENESIS;
  let after = 0;
  let chained = 0;
  for (;;) {
    const rows = select.all(after, batchRows);
    if (rows.length === 0) return chained;
    for (const row of rows) {
      const envelope = envelopeOfRow(row);
      const payloadJson = JSON.stringify(JSON.parse(String(row.payload_json)));
      const link = chainLinkOfText(prevHash, envelope, payloadJson);
      update.run(payloadJson, link.prevHash, link.payloadHash, link.hash, envelope.seq);
      prevHash = link.hash;
      after = envelope.seq;
      chained++;
    }
  }
}

/**
 * The envelope fields of an `events` row.
 *
 * @param row the row (its snake_case columns)
 * @returns the envelope
 */
export function envelopeOfRow(row: Record<string, unknown>): ChainEnvelope {
  return {
    seq: Number(row.seq),
    schemaVersion: Number(row.schema_version),
    type: String(row.event_type),
    threadId: row.thread_id as string | null,
    branchId: row.branch_id as string | null,
    turnId: row.turn_id as string | null,
    runId: row.run_id as string | null,
    itemId: row.item_id as string | null,
    timestamp: String(row.created_at),
  };
}
