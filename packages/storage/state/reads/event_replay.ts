/**
 * Reading the journal back: the whole journal after a seq (`event.replay`, for a client
 * catching up after a reconnect) and one run's or one thread's events. The rows a thread
 * deletion erased are left out (erased_payload.ts).
 *
 * @module
 */
import { type ResultOf, RunId, ThreadId } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { nonNegativeInteger, pageLimit, requireId } from "./_params.ts";
import { envelopeFromRow, EVENT_COLUMNS, type ReplayedEvent, selectLatestSeq } from "../_rows.ts";
import { REPLAY_DEFAULT_EVENTS, REPLAY_MAX_EVENTS } from "./limits.ts";
import { statement } from "../../_statements.ts";
import { ERASED_PAYLOAD_JSON, isErasedPayload } from "../erased_payload.ts";

export type { ReplayedEvent } from "../_rows.ts";

/** What {@linkcode replayEvents} returns: the `event.replay` result. */
export type EventReplayPage = ResultOf<"event.replay">;

/** Options of {@linkcode replayEvents}, {@linkcode readEventsForRun} and {@linkcode readEventsForThread}. */
export interface ReplayOptions {
  /** Return events with a greater seq; 0 for the start of the journal. */
  afterSeq: number;
  /** Events per page, 1–1000; default 500. */
  limit?: number;
}

/** One page of a run's or a thread's events. */
export interface ScopedEventPage {
  /** The events, in seq order. */
  events: ReplayedEvent[];
  /** The seq to pass as `afterSeq` next: the last event's, or `afterSeq` when none. */
  nextAfterSeq: number;
  /** Whether the scope has events after `nextAfterSeq`. */
  hasMore: boolean;
}

/**
 * The highest committed seq, 0 when the journal is empty.
 *
 * @param db the state database
 * @returns the latest seq
 */
export function latestSeq(db: StateDatabase): number {
  return selectLatestSeq(db.connection);
}

/**
 * Reads committed events after `afterSeq` in seq order, each checked against the
 * protocol's envelope.
 *
 * @param db the state database
 * @param options `afterSeq` and `limit`
 * @returns the events, `latestSeq`, `nextAfterSeq` (last seq of the page, or `afterSeq`
 *   when none), `hasMore` (events after `nextAfterSeq` were committed) and `erasedSeqs`
 *   (seqs of the page a thread deletion erased, not in `events`)
 * @throws {ReadError} `invalid_params` for a negative `afterSeq` or a limit outside
 *   1–1000, `projection_corrupt` when a stored event does not match the protocol
 * @example
 * ```ts
 * let page = replayEvents(db, { afterSeq: lastSeenSeq });
 * while (page.hasMore) page = replayEvents(db, { afterSeq: page.nextAfterSeq });
 * ```
 */
export function replayEvents(db: StateDatabase, options: ReplayOptions): EventReplayPage {
  const afterSeq = nonNegativeInteger(options.afterSeq, "afterSeq");
  const limit = pageLimit(options.limit, REPLAY_DEFAULT_EVENTS, REPLAY_MAX_EVENTS);
  return db.readTransaction(() => {
    const rows = statement(
      db.connection,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq ASC LIMIT ?`,
    ).all(afterSeq, limit);
    // Erased rows (a deleted thread's) are named, not sent: a client marks them seen.
    const events: ReplayedEvent[] = [];
    const erasedSeqs: number[] = [];
    for (const row of rows) {
      if (isErasedPayload(String(row.payload_json))) erasedSeqs.push(Number(row.seq));
      else events.push(envelopeFromRow(row));
    }
    const latest = selectLatestSeq(db.connection);
    const nextAfterSeq = rows.length === 0 ? afterSeq : Number(rows[rows.length - 1].seq);
    // Seqs only grow, so anything committed past the page shows in max(seq).
    return {
      events,
      latestSeq: latest,
      nextAfterSeq,
      hasMore: nextAfterSeq < latest,
      ...(erasedSeqs.length > 0 ? { erasedSeqs } : {}),
    };
  });
}

/**
 * Reads one run's events after `afterSeq`, in seq order.
 *
 * @param db the state database
 * @param runId the run
 * @param options `afterSeq` and `limit`
 * @returns the page; empty for an unknown run
 * @throws {ReadError} `invalid_params` for a malformed id, a negative `afterSeq` or a
 *   limit outside 1–1000; `projection_corrupt` for an event that does not match the protocol
 */
export function readEventsForRun(
  db: StateDatabase,
  runId: string,
  options: ReplayOptions,
): ScopedEventPage {
  return readScopedEvents(db, "run_id", requireId(RunId, runId, "runId"), options);
}

/**
 * Reads one thread's events after `afterSeq`, in seq order.
 *
 * @param db the state database
 * @param threadId the thread
 * @param options `afterSeq` and `limit`
 * @returns the page; empty for an unknown thread
 * @throws {ReadError} `invalid_params` for a malformed id, a negative `afterSeq` or a
 *   limit outside 1–1000; `projection_corrupt` for an event that does not match the protocol
 */
export function readEventsForThread(
  db: StateDatabase,
  threadId: string,
  options: ReplayOptions,
): ScopedEventPage {
  return readScopedEvents(db, "thread_id", requireId(ThreadId, threadId, "threadId"), options);
}

function readScopedEvents(
  db: StateDatabase,
  column: "run_id" | "thread_id",
  id: string,
  options: ReplayOptions,
): ScopedEventPage {
  const afterSeq = nonNegativeInteger(options.afterSeq, "afterSeq");
  const limit = pageLimit(options.limit, REPLAY_DEFAULT_EVENTS, REPLAY_MAX_EVENTS);
  // One extra row tells whether more follow; this scope's max(seq) is not the journal's.
  const rows = statement(
    db.connection,
    `SELECT ${EVENT_COLUMNS} FROM events WHERE ${column} = ? AND seq > ? AND payload_json <> ?
     ORDER BY seq ASC LIMIT ?`,
  ).all(id, afterSeq, ERASED_PAYLOAD_JSON, limit + 1);
  const events = rows.slice(0, limit).map(envelopeFromRow);
  return {
    events,
    nextAfterSeq: events.at(-1)?.seq ?? afterSeq,
    hasMore: rows.length > limit,
  };
}
