/**
 * Publishing by construction: every commit the store reports is published to the hub,
 * except commits made while an RPC command runs, which wait until that command's
 * response has been handed to its transport (ACK first: a client sees `turn.start`'s
 * answer before the run's first event). Which command a commit belongs to follows the
 * async call chain (AsyncLocalStorage), so concurrent commands never hold each other's
 * events, and work a command merely started later (a Run on the scheduler) is not held.
 *
 * Writers therefore never call `publish` themselves, and nothing can be forgotten.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { JournalEvent } from "@daedalus/protocol";

/** The commits of one command, held until its response is queued. */
interface Hold {
  events: JournalEvent[];
  released: boolean;
}

/** A command started under a hold. */
export interface HeldCommand<T> {
  /** The command's result. */
  running: Promise<T>;
  /** Publishes the held events; later commits of the command's chain go out at once. */
  release(): void;
}

/** Routes the store's commits to the hub, holding a running command's commits back. */
export class CommitHolds {
  readonly #scope = new AsyncLocalStorage<Hold>();
  readonly #publish: (events: readonly JournalEvent[]) => void;

  /**
   * @param publish hands committed events to the hub (it orders them by seq)
   */
  constructor(publish: (events: readonly JournalEvent[]) => void) {
    this.#publish = publish;
  }

  /**
   * The store's commit hook: publishes at once, or holds when a command is running in
   * this async chain and has not responded yet.
   *
   * @param events the events one transaction committed
   */
  committed(events: readonly JournalEvent[]): void {
    const hold = this.#scope.getStore();
    if (hold && !hold.released) hold.events.push(...events);
    else this.#publish(events);
  }

  /**
   * Starts a command, holding what it commits. Synchronous on purpose: the caller awaits
   * the command itself, so holding adds no microtask turn to an answer (the order in which
   * a response and the events of concurrent work leave stays what it was without holds).
   *
   * @param work the command
   * @returns the command's promise and the release to call once its response is queued
   *   (or at once, when it failed: an error answer makes no promise about events)
   */
  start<T>(work: () => Promise<T>): HeldCommand<T> {
    const hold: Hold = { events: [], released: false };
    const release = () => {
      if (hold.released) return;
      hold.released = true;
      const events = hold.events;
      hold.events = [];
      if (events.length > 0) this.#publish(events);
    };
    let running: Promise<T>;
    try {
      running = this.#scope.run(hold, work);
    } catch (error) {
      running = Promise.reject(error);
    }
    return { running, release };
  }
}
