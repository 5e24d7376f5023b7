/**
 * Fans committed journal events out to subscribers in seq order. Every commit reaches
 * it by construction (commit_holds.ts: at once, or once the command that made it has
 * responded); the hub holds an event back until every earlier committed event has been
 * published, so subscribers see one gap-free, ordered stream whatever order commits are
 * released in.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";
import type { EventSource } from "../server/dispatcher.ts";

/** Options of {@linkcode EventHub}. */
export interface EventHubOptions {
  /** The newest committed seq at start. */
  latestSeq: number;
  /** Reports a listener that threw (it stays subscribed). */
  onListenerError?: (error: unknown) => void;
}

/** The runtime's event hub. */
export class EventHub implements EventSource {
  #published: number;
  #committed: number;
  readonly #pending = new Map<number, JournalEvent>();
  readonly #listeners = new Set<(event: JournalEvent) => void>();
  readonly #options: EventHubOptions;

  /**
   * Makes a hub that publishes from the seq after `options.latestSeq`.
   *
   * @param options the starting seq
   */
  constructor(options: EventHubOptions) {
    this.#options = options;
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

  /** Drops every subscriber. */
  close(): void {
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
  }
}
