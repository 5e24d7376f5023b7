/**
 * Checkpoints state.db's WAL between Runs (scheduler/between_runs.ts): once
 * {@linkcode IDLE_CHECKPOINT_MIN_COMMITS} commits have been made since the last
 * checkpoint, one `PRAGMA wal_checkpoint(PASSIVE)`.
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

/** Checkpoints the WAL once enough was committed; see the module notes. */
export class IdleCheckpointer {
  readonly #db: StateDatabase;
  readonly #minCommits: number;
  #commits = 0;
  #checkpoints = 0;

  /**
   * @param db the state database
   * @param minCommits commits that make a checkpoint worth it
   */
  constructor(db: StateDatabase, minCommits: number = IDLE_CHECKPOINT_MIN_COMMITS) {
    this.#db = db;
    this.#minCommits = minCommits;
  }

  /** Checkpoints made so far. */
  get checkpoints(): number {
    return this.#checkpoints;
  }

  /** A write transaction committed. */
  noteCommit(): void {
    this.#commits++;
  }

  /**
   * Checkpoints now if enough was committed since the last checkpoint.
   *
   * @throws what the checkpoint threw (the count stays: the next idle moment tries again)
   */
  checkpointIfDue(): void {
    if (this.#commits < this.#minCommits || !this.#db.isOpen || this.#db.inTransaction) return;
    checkpoint(this.#db, "PASSIVE");
    this.#commits = 0;
    this.#checkpoints++;
  }
}
