/**
 * The one slot every auxiliary model call (thread titles, memory refinement) takes in
 * turn. Two of them at once would double the load a user's turn just left behind, on the
 * same cores (or the same single-slot local server), for work nobody waits for; so they
 * run one after another in the order they were asked for.
 *
 * A job is asked whether it is still wanted when it reaches the slot, not when it was
 * queued: the setting may have been switched off meanwhile, or the thread named by its
 * user, and a call whose answer would be thrown away is dropped without being made.
 * The slot does not wait for user Runs itself: the call's provider, gated by
 * `AuxiliaryGate` (auxiliary_gate.ts), does that per provider.
 *
 * @example
 * ```ts
 * const queue = new AuxiliaryQueue();
 * const ran = await queue.enqueue({
 *   kind: "thread_title",
 *   stillWanted: () => settings.threadTitles,
 *   run: () => titleThread(runId),
 * });
 * ```
 *
 * @module
 */
/** One auxiliary call waiting for the slot. */
export interface AuxiliaryJob {
  /** What the call is for. */
  readonly kind: "thread_title" | "memory_refinement";
  /** Asked when the job reaches the slot; false drops it without a model call. */
  stillWanted(): boolean | Promise<boolean>;
  /** Makes the call; the slot is free again once this settles. */
  run(): Promise<void>;
}

interface Waiting {
  job: AuxiliaryJob;
  settle: (ran: boolean) => void;
  fail: (error: unknown) => void;
}

/** Runs auxiliary jobs one at a time, first in first out. */
export class AuxiliaryQueue {
  readonly #waiting: Waiting[] = [];
  #running = false;
  #closed = false;

  /** Jobs waiting for the slot (not counting the one in it). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Queues a job behind the others.
   *
   * @param job the call, and how to tell whether it is still wanted
   * @returns true once the job ran; false when it was dropped (not wanted any more, or
   *   the queue closed first)
   * @throws whatever the job's `stillWanted` or `run` throws
   */
  enqueue(job: AuxiliaryJob): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((settle, fail) => {
      this.#waiting.push({ job, settle, fail });
      void this.#pump();
    });
  }

  /** Drops every waiting job and refuses new ones; the running job is its owner's to stop. */
  close(): void {
    this.#closed = true;
    for (const waiting of this.#waiting.splice(0)) waiting.settle(false);
  }

  async #pump(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (let next = this.#waiting.shift(); next; next = this.#waiting.shift()) {
        await this.#runOne(next);
      }
    } finally {
      this.#running = false;
    }
  }

  async #runOne({ job, settle, fail }: Waiting): Promise<void> {
    try {
      if (!(await job.stillWanted())) {
        settle(false);
        return;
      }
      await job.run();
      settle(true);
    } catch (error) {
      fail(error);
    }
  }
}
