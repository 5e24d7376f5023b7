/**
 * Background refinement progress per thread (`memory_extraction_cursors`): the sort key of
 * the last Item already read (turn ordinal, run creation time, run id, item ordinal, item
 * id — all five set or all five null), when extraction was last attempted and when it
 * last succeeded.
 *
 * @example
 * ```ts
 * const cursors = new ExtractionCursors(memoryStore.database);
 * cursors.recordAttempt(threadId, new Date().toISOString());
 * cursors.advance(threadId, lastItemPosition, new Date().toISOString());
 * cursors.read(threadId).position; // lastItemPosition
 * ```
 *
 * @module
 */
import type { MemoryDatabase } from "./database.ts";
import { nullableText, numeric, type Row, text } from "./_sqlite.ts";
import { statement } from "../_statements.ts";

/** Where an Item sits in its thread's default branch, in reading order. */
export interface ExtractionPosition {
  /** The Item's turn ordinal. */
  turnOrdinal: number;
  /** When the Item's Run was created (ISO 8601). */
  runCreatedAt: string;
  /** The Item's Run. */
  runId: string;
  /** The Item's ordinal within its Run. */
  itemOrdinal: number;
  /** The Item. */
  itemId: string;
}

/** A thread's refinement progress. */
export interface ExtractionCursor {
  /** The thread. */
  threadId: string;
  /** The last Item already read; null when nothing has been read yet. */
  position: ExtractionPosition | null;
  /** When extraction was last attempted; null when never. */
  attemptedAt: string | null;
  /** When extraction last succeeded; null when never. */
  extractedAt: string | null;
}

/**
 * Orders two positions as the thread reads them.
 *
 * @param a one position
 * @param b another
 * @returns negative when `a` comes first, positive when `b` does, 0 when equal
 */
export function compareExtractionPositions(a: ExtractionPosition, b: ExtractionPosition): number {
  return a.turnOrdinal - b.turnOrdinal ||
    compareText(a.runCreatedAt, b.runCreatedAt) ||
    compareText(a.runId, b.runId) ||
    a.itemOrdinal - b.itemOrdinal ||
    compareText(a.itemId, b.itemId);
}

/** Reads and writes extraction cursors on memory.db. */
export class ExtractionCursors {
  readonly #database: MemoryDatabase;

  /**
   * Opens the cursors on a memory database.
   *
   * @param database memory.db, e.g. `memoryStore.database`
   */
  constructor(database: MemoryDatabase) {
    this.#database = database;
  }

  /**
   * Reads a thread's cursor.
   *
   * @param threadId the thread
   * @returns its cursor; all null when the thread was never refined
   */
  read(threadId: string): ExtractionCursor {
    const row = statement(
      this.#database.connection,
      `SELECT last_turn_ordinal, last_run_created_at, last_run_id, last_item_ordinal,
         last_item_id, attempted_at, extracted_at
       FROM memory_extraction_cursors WHERE thread_id = ?`,
    ).get(threadId);
    if (row === undefined) {
      return { threadId, position: null, attemptedAt: null, extractedAt: null };
    }
    return {
      threadId,
      position: positionOf(row),
      attemptedAt: nullableText(row, "attempted_at"),
      extractedAt: nullableText(row, "extracted_at"),
    };
  }

  /**
   * Records that extraction started, leaving the position as it was.
   *
   * @param threadId the thread
   * @param at ISO 8601 time
   */
  recordAttempt(threadId: string, at: string): void {
    this.#database.transaction(() => {
      statement(
        this.#database.connection,
        `INSERT INTO memory_extraction_cursors (thread_id, attempted_at) VALUES (?, ?)
         ON CONFLICT (thread_id) DO UPDATE SET attempted_at = excluded.attempted_at`,
      ).run(threadId, at);
    });
  }

  /**
   * Moves the cursor to `position` after a successful extraction. A position behind the
   * stored one is ignored (the cursor never moves back); `extracted_at` is set either way.
   *
   * @param threadId the thread
   * @param position the last Item read
   * @param at ISO 8601 time
   */
  advance(threadId: string, position: ExtractionPosition, at: string): void {
    this.#database.transaction(() => {
      const current = this.read(threadId).position;
      const next = current !== null && compareExtractionPositions(position, current) < 0
        ? current
        : position;
      statement(
        this.#database.connection,
        `INSERT INTO memory_extraction_cursors (thread_id, last_turn_ordinal,
           last_run_created_at, last_run_id, last_item_ordinal, last_item_id, attempted_at,
           extracted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (thread_id) DO UPDATE SET
           last_turn_ordinal = excluded.last_turn_ordinal,
           last_run_created_at = excluded.last_run_created_at,
           last_run_id = excluded.last_run_id,
           last_item_ordinal = excluded.last_item_ordinal,
           last_item_id = excluded.last_item_id,
           attempted_at = COALESCE(memory_extraction_cursors.attempted_at,
             excluded.attempted_at),
           extracted_at = excluded.extracted_at`,
      ).run(
        threadId,
        next.turnOrdinal,
        next.runCreatedAt,
        next.runId,
        next.itemOrdinal,
        next.itemId,
        at,
        at,
      );
    });
  }
}

function positionOf(row: Row): ExtractionPosition | null {
  if (row.last_item_id === null || row.last_item_id === undefined) return null;
  return {
    turnOrdinal: numeric(row, "last_turn_ordinal"),
    runCreatedAt: text(row, "last_run_created_at"),
    runId: text(row, "last_run_id"),
    itemOrdinal: numeric(row, "last_item_ordinal"),
    itemId: text(row, "last_item_id"),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
