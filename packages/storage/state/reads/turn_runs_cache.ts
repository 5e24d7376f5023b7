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
 * (a restored file). What is kept is bounded by threads, turns and the JSON length of the
 * turns' runs (long tool outputs count in full). Only the turn rows themselves are always
 * read, so a turn's own status is never stale.
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
  TURN_RUNS_CACHE_MAX_CHARS,
  TURN_RUNS_CACHE_MAX_THREADS,
  TURN_RUNS_CACHE_MAX_TURNS,
} from "../../limits.ts";

/** One kept turn: its runs, its ordinal (the lowest go first at a bound) and its size. */
export interface KeptTurn {
  /** Its runs with their items, frozen: readers share them. */
  runs: readonly RunWithItems[];
  /** Its ordinal in the history. */
  ordinal: number;
  /** The JSON length of its runs: the memory bound counts it. */
  chars: number;
}

/** One thread's kept turns, their total size, and the journal seq they reflect. */
interface ThreadEntry {
  seq: number;
  turns: Map<string, KeptTurn>;
  chars: number;
}

const caches = new WeakMap<DatabaseSync, Map<string, ThreadEntry>>();

/**
 * The runs kept for a thread's turns, brought up to date with the journal. Call inside
 * the read transaction that then reads the turns, so both see the same commits.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the kept turns by id (read them, add the turns read afresh with
 *   {@linkcode keepTurnRuns})
 */
export function currentTurnRuns(
  connection: DatabaseSync,
  threadId: string,
): ReadonlyMap<string, KeptTurn> {
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
    entry = { seq: latest, turns: new Map(), chars: 0 };
  } else {
    threads.delete(threadId); // re-inserted below: the Map's order is the order of use
  }
  threads.set(threadId, entry);
  return entry.turns;
}

/** A turn just read: its id, its ordinal in the history and its runs. */
export interface ReadTurnRuns {
  /** The turn. */
  turnId: string;
  /** Its ordinal: when the bound is reached, the lowest (oldest) go first. */
  ordinal: number;
  /** Its runs with their items (frozen here: readers share them). */
  runs: RunWithItems[];
}

/**
 * Keeps the runs of turns just read, for the next history read of the thread. When a
 * bound is reached the oldest turns of the conversation go first: a Run's context is
 * filled from the newest turn back.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @param turns the turns read
 */
export function keepTurnRuns(
  connection: DatabaseSync,
  threadId: string,
  turns: readonly ReadTurnRuns[],
): void {
  const entry = caches.get(connection)?.get(threadId);
  if (entry === undefined) return;
  const fits = (chars: number) =>
    entry.turns.size < TURN_RUNS_CACHE_MAX_TURNS &&
    entry.chars + chars <= TURN_RUNS_CACHE_MAX_CHARS;
  for (const { turnId, ordinal, runs } of turns) {
    drop(entry, turnId);
    const chars = JSON.stringify(runs).length;
    if (chars > TURN_RUNS_CACHE_MAX_CHARS) continue; // larger than the whole bound
    while (!fits(chars)) {
      const oldest = oldestKept(entry);
      // Nothing older left to make room: a turn older than everything kept is not kept.
      if (oldest === null || entry.turns.get(oldest)!.ordinal > ordinal) break;
      drop(entry, oldest);
    }
    if (!fits(chars)) continue;
    entry.turns.set(turnId, { runs: deepFreeze(runs), ordinal, chars });
    entry.chars += chars;
  }
}

/** The kept turn with the lowest ordinal (a scan: only when a bound is reached). */
function oldestKept(entry: ThreadEntry): string | null {
  let oldest: [string, number] | null = null;
  for (const [turnId, { ordinal }] of entry.turns) {
    if (oldest === null || ordinal < oldest[1]) oldest = [turnId, ordinal];
  }
  return oldest?.[0] ?? null;
}

function drop(entry: ThreadEntry, turnId: string): void {
  entry.chars -= entry.turns.get(turnId)?.chars ?? 0;
  entry.turns.delete(turnId);
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
  return caches.get(connection)?.get(threadId)?.turns.size ?? 0;
}

/**
 * The JSON length of what is kept for a thread (tests: the memory bound holds).
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the characters (0 when nothing is kept)
 */
export function keptTurnChars(connection: DatabaseSync, threadId: string): number {
  return caches.get(connection)?.get(threadId)?.chars ?? 0;
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
    drop(entry, row.turn_id);
  }
  entry.seq = latest;
  return true;
}
