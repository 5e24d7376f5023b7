/**
 * The runs (with their items) of a thread's earlier turns, kept per connection between
 * history reads. Every Run reads its thread's history back from the newest turn
 * (`readTurnsNewestFirst`), and in a long conversation that was most of a turn's storage
 * work: each page's runs with their usage and counts, and every item, read and mapped
 * again although none of it had changed since the Run before.
 *
 * What is kept stays true by the journal: every change to a turn's runs or items is an
 * event scoped to that turn (events before state), so before a cached entry is used the
 * thread's events committed since the cache was last brought up to date are read (a range
 * of `events_thread_seq_idx`: a few dozen rows per turn) and the turns they name are
 * dropped. A new event of the thread that names no turn (a rename, a compaction, a
 * deletion) drops the thread's whole entry, as does a journal whose newest seq went back
 * (a restored file). Only the turn rows themselves are always read, so a turn's own
 * status is never stale.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { RunWithItems } from "@daedalus/protocol";
import { selectLatestSeq } from "../_rows.ts";
import { statement } from "../../_statements.ts";
import { deepFreeze } from "../../_deep_freeze.ts";
import {
  TURN_RUNS_CACHE_MAX_CHANGED_EVENTS,
  TURN_RUNS_CACHE_MAX_THREADS,
  TURN_RUNS_CACHE_MAX_TURNS,
} from "../../limits.ts";

/** One thread's kept runs, and the journal seq they reflect. */
interface ThreadEntry {
  seq: number;
  runs: Map<string, readonly RunWithItems[]>;
}

const caches = new WeakMap<DatabaseSync, Map<string, ThreadEntry>>();

/**
 * The runs kept for a thread's turns, brought up to date with the journal. Call inside
 * the read transaction that then reads the turns, so both see the same commits.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the kept runs by turn id (read them, add the turns read afresh with
 *   {@linkcode keepTurnRuns})
 */
export function currentTurnRuns(
  connection: DatabaseSync,
  threadId: string,
): ReadonlyMap<string, readonly RunWithItems[]> {
  let threads = caches.get(connection);
  if (threads === undefined) caches.set(connection, threads = new Map());
  const latest = selectLatestSeq(connection);
  let entry = threads.get(threadId);
  if (entry !== undefined && !bringUpToDate(connection, threadId, entry, latest)) {
    threads.delete(threadId);
    entry = undefined;
  }
  if (entry === undefined) {
    // Past the bound the thread asked about least recently goes.
    if (threads.size >= TURN_RUNS_CACHE_MAX_THREADS) threads.delete(threads.keys().next().value!);
    entry = { seq: latest, runs: new Map() };
  } else {
    threads.delete(threadId); // re-inserted below: the Map's order is the order of use
  }
  threads.set(threadId, entry);
  return entry.runs;
}

/**
 * Keeps the runs of turns just read, for the next history read of the thread.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @param runsByTurn the runs read, by turn id (frozen here: readers share them)
 */
export function keepTurnRuns(
  connection: DatabaseSync,
  threadId: string,
  runsByTurn: ReadonlyMap<string, RunWithItems[]>,
): void {
  const entry = caches.get(connection)?.get(threadId);
  if (entry === undefined) return;
  for (const [turnId, runs] of runsByTurn) {
    if (entry.runs.size >= TURN_RUNS_CACHE_MAX_TURNS) {
      entry.runs.delete(entry.runs.keys().next().value!);
    }
    entry.runs.set(turnId, deepFreeze(runs));
  }
}

/**
 * Forgets what is kept of a thread (a deleted one: its content leaves memory too).
 *
 * @param connection the state.db connection
 * @param threadId the thread
 */
export function forgetThreadTurnRuns(connection: DatabaseSync, threadId: string): void {
  caches.get(connection)?.delete(threadId);
}

/**
 * How many turns' runs are kept for a thread (tests: what is kept, and when it goes).
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the count (0 when nothing is kept)
 */
export function keptTurnCount(connection: DatabaseSync, threadId: string): number {
  return caches.get(connection)?.get(threadId)?.runs.size ?? 0;
}

/**
 * Drops the turns the thread's new events name.
 *
 * @returns false when the whole entry must go
 */
function bringUpToDate(
  connection: DatabaseSync,
  threadId: string,
  entry: ThreadEntry,
  latest: number,
): boolean {
  if (latest < entry.seq) return false;
  if (latest === entry.seq) return true;
  const changed = statement(
    connection,
    `SELECT turn_id FROM events WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
  ).all(threadId, entry.seq, TURN_RUNS_CACHE_MAX_CHANGED_EVENTS + 1);
  if (changed.length > TURN_RUNS_CACHE_MAX_CHANGED_EVENTS) return false;
  for (const row of changed) {
    if (typeof row.turn_id !== "string") return false;
    entry.runs.delete(row.turn_id);
  }
  entry.seq = latest;
  return true;
}
