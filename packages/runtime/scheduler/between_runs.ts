/**
 * Upkeep that waits for a moment when no Run is running: once the scheduler's last running
 * Run has finished, the tasks run on the next turn of the event loop (after that Run's last
 * events are on their way), unless a Run has started meanwhile; then the next such moment
 * tries again. The runtime's tasks: checkpointing state.db's WAL (idle_checkpoint.ts) and
 * collecting the JS heap (heap_trim.ts), each deciding for itself whether it is due.
 *
 * @module
 */

/** Runs upkeep tasks between Runs; see the module notes. */
export class BetweenRuns {
  readonly #idle: () => boolean;
  readonly #tasks: readonly (() => void)[];
  readonly #report: (error: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /**
   * @param idle whether no Run is running now (checked again just before the tasks run)
   * @param tasks the upkeep, in order; each returns quickly when it has nothing to do
   * @param report where a task's failure goes (the other tasks still run)
   */
  constructor(
    idle: () => boolean,
    tasks: readonly (() => void)[],
    report: (error: unknown) => void = (error) => console.error(`upkeep between Runs: ${error}`),
  ) {
    this.#idle = idle;
    this.#tasks = tasks;
    this.#report = report;
  }

  /** The last running Run has finished: run the tasks soon, if still idle then. */
  runsFinished(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed || !this.#idle()) return; // a Run started: the next idle moment
      for (const task of this.#tasks) {
        try {
          task();
        } catch (error) {
          this.#report(error);
        }
      }
    }, 0);
  }

  /** Cancels pending tasks; none run after this. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
