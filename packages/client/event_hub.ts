/**
 * Hands each delivered event to every consumer: listeners and async iterators.
 * Events delivered before the first consumer attaches are held for it (so
 * `const client = await connect(…)` followed by `for await (… of client.events)`
 * loses nothing); once a consumer has attached, events nobody consumes are gone.
 *
 * @module
 */
import { HELD_EVENTS_MAX } from "./limits.ts";

/** What the hub reports instead of throwing into the delivery path. */
export interface EventHubReports {
  /** A listener threw. */
  listenerFailed(error: unknown): void;
  /** Events held for a first consumer overflowed; the oldest were dropped. */
  dropped(count: number): void;
}

/** Fan-out of delivered values to listeners and async iterators. */
export class EventHub<T> {
  readonly #listeners = new Set<(value: T) => void>();
  readonly #subscriptions = new Set<Subscription<T>>();
  readonly #reports: EventHubReports;
  readonly #maxHeld: number;
  #held: T[] = [];
  #consumerSeen = false;
  #ended = false;

  /**
   * Makes a hub.
   *
   * @param reports where listener failures and overflow go
   * @param maxHeld most values held for a first consumer
   */
  constructor(reports: EventHubReports, maxHeld: number = HELD_EVENTS_MAX) {
    this.#reports = reports;
    this.#maxHeld = maxHeld;
  }

  /**
   * Delivers one value to every consumer, or holds it when none has attached yet.
   *
   * @param value the value
   */
  publish(value: T): void {
    if (this.#ended) return;
    if (!this.#consumerSeen) {
      this.#held.push(value);
      if (this.#held.length > this.#maxHeld) {
        this.#held.shift();
        this.#reports.dropped(1);
      }
      return;
    }
    for (const subscription of this.#subscriptions) subscription.push(value);
    for (const listener of this.#listeners) this.#call(listener, value);
  }

  /**
   * Adds a listener; held values reach it in a microtask.
   *
   * @param listener called with each value
   * @returns a function that removes the listener
   */
  listen(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    const held = this.#takeHeld();
    if (held.length > 0) {
      queueMicrotask(() => {
        for (const value of held) if (this.#listeners.has(listener)) this.#call(listener, value);
      });
    }
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts an async iterator over the values delivered from now on (plus held ones).
   *
   * @returns the iterator; `return()` (or `break` in `for await`) unsubscribes
   */
  subscribe(): AsyncIterableIterator<T> {
    const subscription = new Subscription<T>(() => this.#subscriptions.delete(subscription));
    for (const value of this.#takeHeld()) subscription.push(value);
    if (this.#ended) subscription.finish();
    else this.#subscriptions.add(subscription);
    return subscription;
  }

  /** Ends every iterator (after it drains what it has) and drops the listeners. */
  end(): void {
    this.#ended = true;
    for (const subscription of this.#subscriptions) subscription.finish();
    this.#subscriptions.clear();
    this.#listeners.clear();
    this.#held = [];
  }

  #takeHeld(): T[] {
    this.#consumerSeen = true;
    const held = this.#held;
    this.#held = [];
    return held;
  }

  #call(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (error) {
      this.#reports.listenerFailed(error);
    }
  }
}

/** One iterator's queue. */
class Subscription<T> implements AsyncIterableIterator<T> {
  readonly #queue: T[] = [];
  readonly #unsubscribe: () => void;
  #waiting: ((result: IteratorResult<T>) => void) | null = null;
  #finished = false;

  constructor(unsubscribe: () => void) {
    this.#unsubscribe = unsubscribe;
  }

  push(value: T): void {
    if (this.#finished) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ value, done: false });
      return;
    }
    this.#queue.push(value);
  }

  finish(): void {
    this.#finished = true;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#queue.length > 0) {
      return Promise.resolve({ value: this.#queue.shift() as T, done: false });
    }
    if (this.#finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.#queue.length = 0;
    this.#unsubscribe();
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
