/**
 * Verification of the journal's hash chain (journal_chain.ts): walks rows in seq order
 * and names the first one that was altered, deleted, moved or left unchained. The same
 * walk checks a whole state.db ({@linkcode verifyJournal}) and an exported segment of
 * one thread ({@linkcode verifyChainSegment}).
 *
 * A deleted thread's rows carry a fixed tombstone instead of their payload
 * (erased_payload.ts, thread_delete.ts): accepted only where a later `thread.deleted`
 * names the row's thread, and the row's envelope and hashes must still verify.
 *
 * What a chain alone cannot show: a tail cut off together with its `sqlite_sequence`
 * entry, or a journal rewritten from some row on with every later hash recomputed. Both
 * leave a valid chain; only a head kept elsewhere tells. So the report always carries the
 * head (`seq`, `hash`) for the user to keep, and `expectedHead` compares with one kept.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import {
  type ChainEnvelope,
  envelopeOfRow,
  eventHash,
  JOURNAL_CHAIN_GENESIS,
  payloadTextHash,
} from "./journal_chain.ts";
import { isErasedPayload } from "./erased_payload.ts";

/** Why a chain failed to verify; each names the row in `seq`. */
export type ChainFailureReason =
  /** The row has no chain columns (a hand-edited file; the migration fills every row). */
  | "chain_missing"
  /** The payload no longer hashes to the row's `payload_hash`. */
  | "payload_altered"
  /** The envelope or a chain column of the row was changed. */
  | "row_altered"
  /** The row's content is intact but belongs at another seq (rows swapped or moved). */
  | "row_moved"
  /** One or more rows before this point are gone; `seq` is the first missing one. */
  | "row_deleted"
  /** The row does not chain from the row before it: that row was replaced. */
  | "link_broken"
  /** Rows after the last one were removed; `seq` is the first missing one. */
  | "tail_truncated"
  /** The head differs from the expected one (`expectedHead`). */
  | "head_mismatch";

/** The newest row's position and hash: what a user keeps to detect a later truncation. */
export interface ChainHead {
  /** Its seq. */
  seq: number;
  /** Its hash (lowercase hex). */
  hash: string;
}

/** The outcome of a verification. */
export interface ChainVerification {
  /** True when every row verified. */
  ok: boolean;
  /** Rows read. */
  events: number;
  /** The newest row verified, or null for an empty journal. */
  head: ChainHead | null;
  /** The first failure, absent when `ok`. */
  failure?: { reason: ChainFailureReason; seq: number; message: string };
}

/** One row as the verifier reads it. */
export interface ChainRow extends ChainEnvelope {
  /** The stored payload text. */
  payloadJson: string;
  /** Stored chain columns; null when missing. */
  prevHash: string | null;
  /** Stored payload hash; null when missing. */
  payloadHash: string | null;
  /** Stored hash; null when missing. */
  hash: string | null;
}

/** What the walk needs besides the rows. */
interface WalkOptions {
  /** The prev hash of the first row; null for a segment (it starts anywhere). */
  firstPrevHash: string | null;
  /** Where the segment starts: the first row's seq must be this (full journal: 1). */
  firstSeq: number | null;
  /** The seq of the row whose hash is `hash`, to tell a moved row; null when unknown. */
  seqOfHash: (hash: string) => number | null;
  /** False for a thread segment: its seqs have gaps (other threads' rows). */
  contiguous: boolean;
  /** The seq of the `thread.deleted` event naming a thread, or null when none does. */
  deletionSeq: (threadId: string) => number | null;
}

function fail(
  events: number,
  head: ChainHead | null,
  reason: ChainFailureReason,
  seq: number,
  message: string,
): ChainVerification {
  return { ok: false, events, head, failure: { reason, seq, message } };
}

function walk(rows: Iterable<ChainRow>, options: WalkOptions): ChainVerification {
  let events = 0;
  let previous: ChainRow | null = null;
  let head: ChainHead | null = null;
  for (const row of rows) {
    events++;
    const { seq } = row;
    if (row.prevHash === null || row.payloadHash === null || row.hash === null) {
      return fail(events, head, "chain_missing", seq, `seq ${seq} has no hash chain columns`);
    }
    // The hash is of the stored text itself: any change to it shows, even one that keeps
    // the value (whitespace, key order), and no parse is needed.
    if (payloadTextHash(row.payloadJson) !== row.payloadHash && !erasedByDeletion(row, options)) {
      return fail(events, head, "payload_altered", seq, `seq ${seq}: the payload was changed`);
    }
    if (eventHash(row.prevHash, row, row.payloadHash) !== row.hash) {
      const before = options.seqOfHash(row.prevHash);
      const home = before === null ? null : before + 1;
      if (
        home !== null && home !== seq &&
        eventHash(row.prevHash, { ...row, seq: home }, row.payloadHash) === row.hash
      ) {
        return fail(
          events,
          head,
          "row_moved",
          seq,
          `seq ${seq} holds the row written as seq ${home}`,
        );
      }
      return fail(events, head, "row_altered", seq, `seq ${seq}: the row was changed`);
    }
    const expectedPrev = previous === null ? options.firstPrevHash : previous.hash;
    const expectedSeq = previous === null
      ? options.firstSeq
      : options.contiguous
      ? previous.seq + 1
      : null;
    if (expectedSeq !== null && seq > expectedSeq) {
      return fail(
        events,
        head,
        "row_deleted",
        expectedSeq,
        `seq ${expectedSeq} to ${seq - 1} are missing`,
      );
    }
    if (expectedPrev !== null && row.prevHash !== expectedPrev) {
      return fail(events, head, "link_broken", seq, `seq ${seq} does not follow the row before it`);
    }
    previous = row;
    head = { seq, hash: row.hash };
  }
  return { ok: true, events, head };
}

/**
 * Whether a row's payload is the tombstone of a thread deletion that came after it: its
 * `payload_hash` is still the original text's, so the rest of the row verifies as before.
 * The tombstone anywhere else (no deletion, or one before the row) is an alteration.
 */
function erasedByDeletion(row: ChainRow, options: WalkOptions): boolean {
  if (!isErasedPayload(row.payloadJson) || row.threadId === null) return false;
  const deletedAt = options.deletionSeq(row.threadId);
  return deletedAt !== null && deletedAt > row.seq;
}

/**
 * Turns a snake_case `events` row into a {@linkcode ChainRow}.
 *
 * @param row the row
 * @returns the chain row
 */
export function chainRowOf(row: Record<string, unknown>): ChainRow {
  return {
    ...envelopeOfRow(row),
    payloadJson: String(row.payload_json),
    prevHash: typeof row.prev_hash === "string" ? row.prev_hash : null,
    payloadHash: typeof row.payload_hash === "string" ? row.payload_hash : null,
    hash: typeof row.hash === "string" ? row.hash : null,
  };
}

/** The columns the verifier reads from `events`. */
export const CHAIN_COLUMNS = `seq, schema_version, event_type, thread_id, branch_id, turn_id,
  run_id, item_id, created_at, payload_json, prev_hash, payload_hash, hash`;

/**
 * Verifies the whole journal of a state.db: every row, its link to the row before, and
 * that no seq past the last row was ever assigned (`sqlite_sequence`), which shows a
 * truncated tail unless that entry was cut back too.
 *
 * @param connection the state.db connection (read-only is enough)
 * @param expectedHead a head the user kept: verification fails unless that row is there
 *   with that hash (the journal may have grown since)
 * @returns the verification
 */
export function verifyJournal(
  connection: DatabaseSync,
  expectedHead?: ChainHead,
): ChainVerification {
  const columns = new Set(
    connection.prepare("SELECT name FROM pragma_table_info('events')").all().map((r) =>
      String(r.name)
    ),
  );
  if (!columns.has("hash") || !columns.has("prev_hash") || !columns.has("payload_hash")) {
    const first = connection.prepare("SELECT min(seq) AS seq FROM events").get();
    return fail(
      0,
      null,
      "chain_missing",
      Number(first?.seq ?? 0),
      "the journal has no hash chain columns",
    );
  }
  // Not cached: an open iterator would be reset by any other use of a shared statement.
  const rows = connection.prepare(`SELECT ${CHAIN_COLUMNS} FROM events ORDER BY seq`).iterate();
  const byHash = connection.prepare("SELECT seq FROM events WHERE hash = ?");
  // Read before the walk; each deletion row is itself verified in its turn.
  const deletions = new Map<string, number>();
  for (
    const row of connection.prepare(
      `SELECT thread_id, min(seq) AS seq FROM events WHERE event_type = 'thread.deleted'
         AND thread_id IS NOT NULL GROUP BY thread_id`,
    ).all()
  ) deletions.set(String(row.thread_id), Number(row.seq));
  const result = walk(mapRows(rows), {
    firstPrevHash: JOURNAL_CHAIN_GENESIS,
    firstSeq: 1,
    seqOfHash: (hash) => {
      const found = byHash.get(hash);
      return found === undefined ? null : Number(found.seq);
    },
    contiguous: true,
    deletionSeq: (threadId) => deletions.get(threadId) ?? null,
  });
  if (!result.ok) return result;
  const used = Number(
    connection.prepare(
      "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS n",
    )
      .get()?.n ?? 0,
  );
  const last = result.head?.seq ?? 0;
  if (used > last) {
    return fail(
      result.events,
      result.head,
      "tail_truncated",
      last + 1,
      `seq ${last + 1} to ${used} are missing`,
    );
  }
  if (expectedHead !== undefined) {
    const row = connection.prepare("SELECT hash FROM events WHERE seq = ?").get(expectedHead.seq);
    if (row?.hash !== expectedHead.hash) {
      const why = row === undefined ? "is missing" : "has another hash";
      return fail(
        result.events,
        result.head,
        "head_mismatch",
        expectedHead.seq,
        `the kept head seq ${expectedHead.seq} ${why}`,
      );
    }
  }
  return result;
}

function* mapRows(rows: Iterable<unknown>): Generator<ChainRow> {
  for (const row of rows) yield chainRowOf(row as Record<string, unknown>);
}

/**
 * Verifies an exported segment: each row intact, and each row chaining from the one
 * before it in the segment when they were adjacent in the journal. A thread's rows are
 * interleaved with other threads' in the journal, so between two exported rows that were
 * not adjacent only each row's own hash is checked; the segment's first `prev_hash` and
 * its head tie it to the journal it came from (`verifyJournal` with that head).
 *
 * @param rows the exported rows, oldest first
 * @returns the verification
 */
export function verifyChainSegment(rows: readonly ChainRow[]): ChainVerification {
  const seqByHash = new Map<string, number>();
  const deletions = new Map<string, number>();
  for (const row of rows) {
    if (row.hash !== null) seqByHash.set(row.hash, row.seq);
    if (row.type === "thread.deleted" && row.threadId !== null && !deletions.has(row.threadId)) {
      deletions.set(row.threadId, row.seq);
    }
  }
  let previous: ChainRow | null = null;
  let events = 0;
  let head: ChainHead | null = null;
  for (const row of rows) {
    // Each row alone, then its link when the journal had no row between the two.
    const alone = walk([row], {
      firstPrevHash: null,
      firstSeq: null,
      seqOfHash: (hash) => seqByHash.get(hash) ?? null,
      contiguous: false,
      deletionSeq: (threadId) => deletions.get(threadId) ?? null,
    });
    events++;
    if (!alone.ok) return { ...alone, events, head };
    if (previous !== null) {
      if (row.seq <= previous.seq) {
        return fail(
          events,
          head,
          "row_moved",
          row.seq,
          `seq ${row.seq} follows seq ${previous.seq}`,
        );
      }
      if (row.seq === previous.seq + 1 && row.prevHash !== previous.hash) {
        return fail(
          events,
          head,
          "link_broken",
          row.seq,
          `seq ${row.seq} does not follow the row before it`,
        );
      }
    }
    previous = row;
    head = alone.head;
  }
  return { ok: true, events, head };
}
