/**
 * Fans committed journal events out to subscribers in seq order. Writers publish
 * after they acknowledge (commands) or at once (the loop); the hub holds an event
 * back until every earlier committed event has been published, so subscribers see
 * one gap-free, ordered stream whatever order publishers run in.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";
import type { EventSource } from "../server/dispatcher.ts";
import { type ScheduleTimer, scheduleTimer } from "../timer.ts";

/** How long a gap may stay open before the hub fetches the missing events itself. */
const GAP_REPAIR_DELAY_MS = 200;

/** Options of {@linkcode EventHub}. */
export interface EventHubOptions {
  /** The newest committed seq at start. */
  latestSeq: number;
  /** Reads committed events after a seq, for repairing a gap nobody published. */
  readAfter: (afterSeq: number, limit: number) => JournalEvent[];
  /** Reports a listener that threw (it stays subscribed). */
  onListenerError?: (error: unknown) => void;
  /** The clock the repair timer waits on (tests pass a fake one). */
  schedule?: ScheduleTimer;
}

/** The runtime's event hub. */
export class EventHub implements EventSource {
  #published: number;
  #committed: number;
  readonly #pending = new Map<number, JournalEvent>();
  readonly #listeners = new Set<(event: JournalEvent) => void>();
  readonly #options: EventHubOptions;
  readonly #schedule: ScheduleTimer;
  #cancelRepair: (() => void) | undefined;

  /**
   * Makes a hub that publishes from the seq after `options.latestSeq`.
   *
   * @param options the starting seq and the journal reader
   */
  constructor(options: EventHubOptions) {
    this.#options = options;
    this.#schedule = options.schedule ?? scheduleTimer;
    this.#published = options.latestSeq;
    this.#committed = options.latestSeq;
  }

  /** The newest committed seq (clients replay up to here). */
  latestSeq(): number {
    return this.#committed;
  }

  /**
   * Subscribes to every event published from now on.
   *
   * @param listener receives each event once, in seq order
   * @returns unsubscribe
   */
  subscribe(listener: (event: JournalEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Notes that events were committed (called by the store right after each commit).
   *
   * @param events the committed events
   */
  noteCommitted(events: readonly JournalEvent[]): void {
    const last = events.at(-1);
    if (last && last.seq > this.#committed) this.#committed = last.seq;
  }

  /**
   * Publishes committed events; each is delivered once every earlier one has been.
   *
   * @param events committed events, in any order
   */
  publish(events: readonly JournalEvent[]): void {
    for (const event of events) {
      if (event.seq > this.#published) this.#pending.set(event.seq, event);
    }
    this.#flush();
  }

  /** Stops the repair timer. */
  close(): void {
    this.#cancelRepair?.();
    this.#cancelRepair = undefined;
    this.#listeners.clear();
  }

  #flush(): void {
    for (;;) {
      const next = this.#pending.get(this.#published + 1);
      if (!next) break;
      this.#pending.delete(next.seq);
      this.#published = next.seq;
      if (next.seq > this.#committed) this.#committed = next.seq;
      for (const listener of this.#listeners) {
        try {
          listener(next);
        } catch (error) {
          this.#options.onListenerError?.(error);
        }
      }
    }
    this.#scheduleRepair();
  }

  /** A gap that stays open means a writer committed and never published: read it back. */
  #scheduleRepair(): void {
    const gapped = this.#pending.size > 0 || this.#committed > this.#published;
    if (!gapped) {
      this.#cancelRepair?.();
      this.#cancelRepair = undefined;
      return;
    }
    if (this.#cancelRepair !== undefined) return;
    const stuckAt = this.#published;
    this.#cancelRepair = this.#schedule(() => {
      this.#cancelRepair = undefined;
      if (this.#published !== stuckAt) return this.#scheduleRepair();
      const missing = this.#options.readAfter(this.#published, 1000);
      this.publish(missing);
    }, GAP_REPAIR_DELAY_MS);
  }
}
