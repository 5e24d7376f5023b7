/**
 * The Run scheduler: a pool of at most N workers taking queued Runs in FIFO order,
 * at most one active Run per Thread (Runs of different Threads run concurrently).
 * It owns each active Run's AbortController, so cancel and shutdown reach the loop.
 *
 * A Run waiting for the user's approval holds no worker: its loop returned, and the
 * scheduler only remembers that its thread is taken (no other Run of the thread starts).
 * Answering resumes it ({@linkcode Scheduler.resume}): it is queued again, in its
 * submission order, and starts without being activated (it is already running).
 *
 * @module
 */
import {
  activateRun,
  type Committed,
  earlierQueuedRunCreatedAt,
  listWaitingRuns,
  readRunScope,
  readRunSubmissionSeq,
  settleRun,
  type StateStore,
} from "@daedalus/storage";
import type { AbortReason } from "../loop/agent_loop.ts";
import { SUBMISSION_GRACE_MS } from "../limits.ts";

/** What the scheduler needs. */
export interface SchedulerOptions {
  /** The state store. */
  store: StateStore;
  /** Executes one running Run to settlement. */
  execute: (runId: string, signal: AbortSignal) => Promise<void>;
  /** Most Runs at once (`DAEDALUS_AGENT_WORKERS`). */
  workers: number;
  /** Called when a Run's execution ended and none is running any more (heap_trim.ts). */
  onIdle?: () => void;
}

interface Queued {
  runId: string;
  threadId: string;
  /** Submission order (the seq of the Run's first event): a thread's Runs start in it. */
  order: number;
  /** Whether it resumes after an approval (already running: not activated again). */
  resume?: boolean;
}

/** The scheduler. */
export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #queue: Queued[] = [];
  readonly #active = new Map<
    string,
    { threadId: string; controller: AbortController; done: Promise<void>; inline?: boolean }
  >();
  readonly #busyThreads = new Set<string>();
  /** Threads whose Run waits for an approval: taken, but by no worker (thread → run). */
  readonly #waiting = new Map<string, string>();
  #accepting = true;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Makes a scheduler; nothing runs until a Run is enqueued.
   *
   * @param options store, executor and pool size
   */
  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  /** Whether new Runs are still taken (false once shutdown began). */
  get accepting(): boolean {
    return this.#accepting;
  }

  /** How many Runs execute now. */
  get activeCount(): number {
    return this.#active.size;
  }

  /** How many Runs wait for an approval (they hold no worker). */
  get waitingCount(): number {
    return this.#waiting.size;
  }

  /**
   * Takes note of the Runs the store has waiting (at start: a restart keeps them waiting),
   * so their threads stay taken.
   */
  adoptWaiting(): void {
    for (const run of this.#options.store.read((db) => listWaitingRuns(db))) {
      this.#waiting.set(run.threadId, run.runId);
    }
  }

  /**
   * Queues a Run whose approval was answered (the store turned it running again): it
   * continues from the journal on the next free worker.
   *
   * @param runId the run
   * @param threadId its thread
   */
  resume(runId: string, threadId: string): void {
    if (this.#waiting.get(threadId) === runId) this.#waiting.delete(threadId);
    this.#queueRun(runId, threadId, true);
  }

  /**
   * Queues a Run (already committed as queued) and starts what can start.
   *
   * @param runId the run
   * @param threadId its thread
   */
  enqueue(runId: string, threadId: string): void {
    this.#queueRun(runId, threadId, false);
  }

  #queueRun(runId: string, threadId: string, resume: boolean): void {
    if (!this.#accepting) return;
    if (this.#active.has(runId) || this.#queue.some((q) => q.runId === runId)) return;
    // Two submissions of one thread may reach this in the other order than they committed
    // in (each is queued once its own response is out): the journal's order decides.
    const order = this.#options.store.read((db) => readRunSubmissionSeq(db, runId)) ??
      Number.MAX_SAFE_INTEGER;
    const later = this.#queue.findIndex((q) => q.order > order);
    const entry: Queued = { runId, threadId, order, ...(resume ? { resume } : {}) };
    if (later < 0) this.#queue.push(entry);
    else this.#queue.splice(later, 0, entry);
    this.#pump();
  }

  /**
   * Asks a Run to stop. A queued Run is settled cancelled at once; a running one
   * is aborted and settles itself.
   *
   * @param runId the run
   * @returns whether the scheduler was executing or queueing the run
   */
  cancel(runId: string): boolean {
    const active = this.#active.get(runId);
    if (active) {
      active.controller.abort("cancelled" satisfies AbortReason);
      return true;
    }
    const index = this.#queue.findIndex((q) => q.runId === runId);
    if (index >= 0) this.#queue.splice(index, 1);
    // Not executing here: settling is idempotent, so a run that is queued, waiting for an
    // approval (its approval is cancelled with it) or already settled gets at most its one
    // run.settled.
    this.#commit(settleRun(this.#options.store, runId, "cancelled", "cancelled"));
    const waited = this.#forgetWaiting(runId);
    if (waited) this.#pump();
    return index >= 0 || waited;
  }

  /**
   * Stops accepting work, cancels active Runs cooperatively, marks queued Runs
   * cancelled, and waits (bounded) for the workers.
   *
   * @param waitMs the longest wait for active Runs to settle
   */
  async shutdown(waitMs: number): Promise<void> {
    this.#accepting = false;
    clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
    for (const queued of this.#queue.splice(0)) {
      this.#commit(settleRun(this.#options.store, queued.runId, "cancelled", "runtime_shutdown"));
    }
    const running = [...this.#active.values()];
    for (const run of running) run.controller.abort("runtime_shutdown" satisfies AbortReason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(running.map((run) => run.done)),
      new Promise((resolve) => timer = setTimeout(resolve, waitMs)),
    ]);
    clearTimeout(timer);
  }

  /**
   * Runs a queued Run now, on the caller's own async context instead of a worker
   * slot — how a Run waits for a sub-agent or a cross-thread message without
   * deadlocking a full pool. The thread is marked busy meanwhile.
   *
   * @param runId the run (committed as queued, not enqueued)
   * @param threadId its thread
   * @param parentSignal the caller's cancellation, passed on
   * @throws {Error} when the thread already has an active Run (the Run is settled cancelled)
   */
  async runInline(runId: string, threadId: string, parentSignal: AbortSignal): Promise<void> {
    if (this.#busyThreads.has(threadId)) {
      // It will never run: settled, so it neither lingers queued nor holds the thread's
      // later Runs back (FIFO per thread waits for earlier queued Runs).
      this.#commit(settleRun(this.#options.store, runId, "cancelled", "cancelled"));
      throw new Error(`thread ${threadId} is busy`);
    }
    const activated = this.#commit(activateRun(this.#options.store, runId));
    if (!activated) return;
    const controller = new AbortController();
    // A sub-agent waiting for an approval returns to its parent (status `waiting`).
    const forward = () => controller.abort(parentSignal.reason ?? "cancelled");
    if (parentSignal.aborted) forward();
    parentSignal.addEventListener("abort", forward, { once: true });
    this.#busyThreads.add(threadId);
    const done = this.#options.execute(runId, controller.signal);
    this.#active.set(runId, { threadId, controller, done, inline: true });
    try {
      await done;
    } finally {
      parentSignal.removeEventListener("abort", forward);
      this.#active.delete(runId);
      this.#busyThreads.delete(threadId);
      this.#afterExecution(runId, threadId, controller.signal);
      this.#pump();
    }
  }

  /**
   * Takes a thread for work that is no Run (`thread.compact`): while held, none of the
   * thread's Runs starts — a `turn.start` meanwhile stays queued and starts on release.
   *
   * @param threadId the thread
   * @returns the release, or null when the thread is busy (a Run executes, waits or is queued)
   */
  holdThread(threadId: string): (() => void) | null {
    if (this.isThreadBusy(threadId)) return null;
    this.#busyThreads.add(threadId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busyThreads.delete(threadId);
      this.#pump();
    };
  }

  /**
   * Whether a thread has a Run executing or waiting here.
   *
   * @param threadId the thread
   * @returns true while busy
   */
  isThreadBusy(threadId: string): boolean {
    return this.#busyThreads.has(threadId) || this.#waiting.has(threadId) ||
      this.#queue.some((q) => q.threadId === threadId);
  }

  /**
   * After a Run's loop returned: a Run left waiting keeps its thread taken — unless it was
   * cancelled or shut down meanwhile (its loop could not settle it any more), then it is
   * settled here.
   */
  #afterExecution(runId: string, threadId: string, signal: AbortSignal): void {
    let status: string;
    try {
      status = this.#options.store.read((db) => readRunScope(db, runId)).status;
    } catch {
      return; // the store closed under a shutdown
    }
    if (status !== "waiting") return;
    if (signal.aborted) {
      const reason = signal.reason === "runtime_shutdown" ? "runtime_shutdown" : "cancelled";
      // A shutdown leaves a waiting Run waiting: the answer may come after the restart.
      if (reason === "cancelled") {
        this.#commit(settleRun(this.#options.store, runId, "cancelled", "cancelled"));
        return;
      }
    }
    this.#waiting.set(threadId, runId);
  }

  #forgetWaiting(runId: string): boolean {
    for (const [threadId, waiting] of this.#waiting) {
      if (waiting !== runId) continue;
      this.#waiting.delete(threadId);
      return true;
    }
    return false;
  }

  #commit<T>(committed: Committed<T>): T {
    return committed.result; // the store publishes every commit itself
  }

  #pump(): void {
    // Inline runs borrow their caller's slot, so they do not count against the pool.
    const pooled = () => [...this.#active.values()].filter((run) => !run.inline).length;
    while (this.#accepting && pooled() < this.#options.workers) {
      const index = this.#queue.findIndex((q) =>
        !this.#busyThreads.has(q.threadId) &&
        (!this.#waiting.has(q.threadId) || this.#waiting.get(q.threadId) === q.runId) &&
        !this.#earlierStillComing(q)
      );
      if (index < 0) return;
      const [next] = this.#queue.splice(index, 1);
      if (next) this.#start(next);
    }
  }

  /**
   * Whether a thread's earlier submission is committed but not queued here yet: its
   * submitter queues it once its response is out, which may come after a later one's. The
   * later one waits for it (FIFO per thread) for at most `SUBMISSION_GRACE_MS` — a queued
   * Run nobody will queue (an inline Run refused as busy) must not hold its thread — and the
   * queue is looked at again when that grace ends. A resumed Run was submitted before any
   * that are still queued, so it never waits.
   */
  #earlierStillComing(q: Queued): boolean {
    if (q.resume || q.order === Number.MAX_SAFE_INTEGER) return false;
    const createdAt = this.#options.store.read((db) =>
      earlierQueuedRunCreatedAt(db, q.threadId, q.runId, q.order)
    );
    if (createdAt === null) return false;
    const left = Date.parse(createdAt) + SUBMISSION_GRACE_MS - Date.now();
    if (left <= 0) return false;
    if (this.#graceTimer === undefined) {
      this.#graceTimer = setTimeout(() => {
        this.#graceTimer = undefined;
        this.#pump();
      }, left + 1);
    }
    return true;
  }

  #start({ runId, threadId, resume }: Queued): void {
    const ready = resume
      // Answered: the store turned it running again; anything else (cancelled meanwhile) ends it.
      ? this.#options.store.read((db) => readRunScope(db, runId)).status === "running"
      : this.#commit(activateRun(this.#options.store, runId));
    if (!ready) return; // settled while queued (e.g. cancelled elsewhere)
    const controller = new AbortController();
    this.#busyThreads.add(threadId);
    const done = this.#options.execute(runId, controller.signal)
      .catch((error) => console.error(`run ${runId}: ${error}`))
      .finally(() => {
        this.#active.delete(runId);
        this.#busyThreads.delete(threadId);
        this.#afterExecution(runId, threadId, controller.signal);
        this.#pump();
        if (this.#active.size === 0) this.#options.onIdle?.();
      });
    this.#active.set(runId, { threadId, controller, done });
  }
}
