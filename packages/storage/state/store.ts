/**
 * The state store: every write the services make is one method here, one
 * transaction that appends its events (which update the projections) and returns
 * them, so the caller can acknowledge first and publish after.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";
import {
  openStateDatabase,
  type OpenStateDatabaseOptions,
  type StateDatabase,
} from "./database.ts";
import { appendEvent, type EventDraft } from "./journal.ts";

/** What one write produced: its result and the events it committed, in seq order. */
export interface Committed<T> {
  /** The operation's result. */
  result: T;
  /** The events committed by the operation (empty for idempotent replays). */
  events: JournalEvent[];
}

/** The context every write function gets inside its transaction. */
export interface WriteContext {
  /** The database, for reads inside the transaction. */
  readonly db: StateDatabase;
  /** The transaction's single timestamp (ISO-8601 UTC). */
  readonly now: string;
  /** Appends an event, applying it to the projections. */
  append(draft: EventDraft): JournalEvent;
}

/** Options of {@linkcode StateStore.open}. */
export interface StateStoreOptions extends OpenStateDatabaseOptions {
  /** The clock; tests inject one. Defaults to the system clock. */
  clock?: () => Date;
  /**
   * Called synchronously after every commit that appended events, in commit order —
   * how the runtime's event hub learns which seqs exist before it publishes them.
   */
  onCommit?: (events: readonly JournalEvent[]) => void;
}

/**
 * An open state.db with its journal. Use one per process: node:sqlite is
 * synchronous, so every transaction runs to completion before the next starts.
 */
export class StateStore {
  /** The underlying database. */
  readonly db: StateDatabase;
  readonly #clock: () => Date;
  readonly #onCommit: (events: readonly JournalEvent[]) => void;
  #lastTimestamp = "";
  /** Events of the outermost write in progress, nested writes' included. */
  #uncommitted: JournalEvent[] | undefined;

  private constructor(
    db: StateDatabase,
    clock: () => Date,
    onCommit: (events: readonly JournalEvent[]) => void,
  ) {
    this.db = db;
    this.#clock = clock;
    this.#onCommit = onCommit;
  }

  /**
   * Opens (creating when empty) the state database at `path`.
   *
   * @param path the state.db file
   * @param options database options and the clock
   * @returns the store
   * @throws {StateSchemaIncompatibleError} on schema drift
   */
  static open(path: string, options: StateStoreOptions = {}): StateStore {
    const { clock = () => new Date(), onCommit = () => {}, ...dbOptions } = options;
    return new StateStore(openStateDatabase(path, dbOptions), clock, onCommit);
  }

  /**
   * Runs `fn` in one write transaction with an event appender.
   *
   * @param fn synchronous work; may throw to roll everything back
   * @returns fn's result with the events it appended
   */
  write<T>(fn: (context: WriteContext) => T): Committed<T> {
    const events: JournalEvent[] = [];
    const now = this.#timestamp();
    const connection = this.db.connection;
    // A write nested in another one commits with it: its events are reported with the
    // outer write's, once, after the outer COMMIT (the hub learns of every commit here).
    const outermost = this.#uncommitted === undefined && !this.db.inTransaction;
    const uncommitted = outermost ? (this.#uncommitted = []) : this.#uncommitted;
    const mark = uncommitted?.length ?? 0;
    let result: T;
    try {
      result = this.db.transaction(() =>
        fn({
          db: this.db,
          now,
          append: (draft) => {
            const event = appendEvent(connection, draft, now);
            events.push(event);
            uncommitted?.push(event);
            return event;
          },
        })
      );
    } catch (error) {
      if (uncommitted) uncommitted.length = mark; // rolled back with its savepoint
      throw error;
    } finally {
      if (outermost) this.#uncommitted = undefined;
    }
    if (outermost && uncommitted && uncommitted.length > 0) this.#onCommit(uncommitted);
    return { result, events };
  }

  /**
   * Runs `fn`'s reads outside any transaction: each statement reads in SQLite's
   * autocommit mode, without a `BEGIN…COMMIT` of its own. That is consistent for
   * several statements too, because nothing else writes between them: node:sqlite is
   * synchronous, so none of this process's writes can run while `fn` does, and the home
   * lock keeps other processes' writers out. Readers that must see one snapshot across
   * statements in spite of that (paged reads with a `snapshotSeq`, replay) take
   * {@linkcode StateDatabase.readTransaction} themselves; inside a write, `fn` simply
   * runs in it.
   *
   * @param fn synchronous reads
   * @returns what fn returned
   */
  read<T>(fn: (db: StateDatabase) => T): T {
    return fn(this.db);
  }

  /**
   * The store's clock as a timestamp that never goes backwards (what the next
   * write would use at the earliest).
   *
   * @returns an ISO-8601 UTC timestamp
   */
  now(): string {
    return this.#timestamp();
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }

  /** A timestamp that never goes backwards, so journal order and time order agree. */
  #timestamp(): string {
    let stamp = this.#clock().toISOString();
    if (stamp < this.#lastTimestamp) stamp = this.#lastTimestamp;
    this.#lastTimestamp = stamp;
    return stamp;
  }
}
