/**
 * Checkpoints state.db's WAL between Runs: once the last running Run has finished and
 * {@linkcode IDLE_CHECKPOINT_MIN_COMMITS} commits have been made since the last
 * checkpoint, one `PRAGMA wal_checkpoint(PASSIVE)` runs on the next turn of the event
 * loop, unless a Run has started meanwhile.
 *
 * Why: SQLite checkpoints inside the commit that fills the WAL past
 * `wal_autocheckpoint` pages (1,000 by default), copying the pages into the database
 * file and syncing it, on the runtime's only thread and in the middle of a Run. Measured
 * over 1,000 warm tool turns, that made one turn in ten take about twice the median
 * (p90 41 ms at a 21 ms median; without in-commit checkpoints, 29 ms). The runtime
 * raises the commit's threshold to `STATE_WAL_AUTOCHECKPOINT_PAGES` (limits.ts), which a
 * long Run can still reach (the WAL stays bounded), and does the usual checkpoint here,
 * where nobody waits for it.
 *
 * @module
 */
import { checkpoint, type StateDatabase } from "@daedalus/storage";
import { IDLE_CHECKPOINT_MIN_COMMITS } from "../limits.ts";

/** Options of {@linkcode IdleCheckpointer}. */
export interface IdleCheckpointOptions {
  /** The state database. */
  db: StateDatabase;
  /** Whether no Run is running now (checked again just before checkpointing). */
  idle: () => boolean;
  /** Commits that make a checkpoint worth it; default {@linkcode IDLE_CHECKPOINT_MIN_COMMITS}. */
  minCommits?: number;
  /** Where a failed checkpoint is reported (it is tried again at the next idle moment). */
  report?: (error: unknown) => void;
}

/** Checkpoints the WAL between Runs; see the module notes. */
export class IdleCheckpointer {
  readonly #db: StateDatabase;
  readonly #idle: () => boolean;
  readonly #minCommits: number;
  readonly #report: (error: unknown) => void;
  #commits = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #checkpoints = 0;

  /**
   * @param options the database, when the runtime is idle, the threshold
   */
  constructor(options: IdleCheckpointOptions) {
    this.#db = options.db;
    this.#idle = options.idle;
    this.#minCommits = options.minCommits ?? IDLE_CHECKPOINT_MIN_COMMITS;
    this.#report = options.report ??
      ((error) => console.error(`state.db checkpoint failed: ${error}`));
  }

  /** Checkpoints made so far. */
  get checkpoints(): number {
    return this.#checkpoints;
  }

  /** A write transaction committed. */
  noteCommit(): void {
    this.#commits++;
  }

  /** The last running Run has finished: checkpoint soon if enough was committed. */
  runsFinished(): void {
    if (this.#closed || this.#timer !== undefined || this.#commits < this.#minCommits) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed || !this.#idle() || !this.#db.isOpen || this.#db.inTransaction) return;
      try {
        checkpoint(this.#db, "PASSIVE");
        this.#commits = 0;
        this.#checkpoints++;
      } catch (error) {
        this.#report(error);
      }
    }, 0);
  }

  /** Cancels a pending checkpoint; none is made after this. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
