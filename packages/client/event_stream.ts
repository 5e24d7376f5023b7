/**
 * The ordering rule of the event stream, without sockets: events come out exactly
 * once, in `seq` order, with no gaps. Live events that arrive ahead of a gap are held
 * until `event.replay` fills it; anything at or below the last delivered seq is a
 * duplicate and is dropped.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";

/**
 * Turns events arriving in any order, possibly twice (live and by replay, or across
 * reconnects), into one gap-free sequence.
 *
 * @example
 * ```ts
 * import { EventSequencer } from "./event_stream.ts";
 *
 * const sequencer = new EventSequencer(0);
 * // sequencer.accept(seq 2) → []          (held: seq 1 is missing)
 * // sequencer.accept(seq 1) → [1, 2]      (the gap is filled)
 * // sequencer.accept(seq 2) → []          (duplicate)
 * ```
 */
export class EventSequencer {
  #last: number | null;
  /** Events ahead of `#last`; `null` marks a seq consumed without delivery (an invalid event). */
  readonly #ahead = new Map<number, JournalEvent | null>();

  /**
   * Starts a sequencer.
   *
   * @param lastSeq the last seq already delivered, or null when the starting point is
   *   not known yet (until {@linkcode EventSequencer.start}, everything is held)
   */
  constructor(lastSeq: number | null = null) {
    this.#last = lastSeq;
  }

  /** The last seq delivered without a gap before it; null before the start is known. */
  get lastSeq(): number | null {
    return this.#last;
  }

  /** Whether events are held behind a missing seq (a replay is needed). */
  get hasGap(): boolean {
    return this.#last !== null && this.#ahead.size > 0;
  }

  /** The smallest held seq, or null when nothing is held. */
  get firstHeldSeq(): number | null {
    let first: number | null = null;
    for (const seq of this.#ahead.keys()) if (first === null || seq < first) first = seq;
    return first;
  }

  /** How many events are held. */
  get heldCount(): number {
    return this.#ahead.size;
  }

  /**
   * Fixes the starting point if it was not known: events at or below it are dropped,
   * and held events that now follow on are released.
   *
   * @param afterSeq the last seq considered delivered
   * @returns the events now deliverable, in order
   */
  start(afterSeq: number): JournalEvent[] {
    if (this.#last !== null) return [];
    this.#last = afterSeq;
    for (const seq of [...this.#ahead.keys()]) if (seq <= afterSeq) this.#ahead.delete(seq);
    return this.#drain();
  }

  /**
   * Takes one validated event.
   *
   * @param event the event
   * @returns the events now deliverable, in order (empty for a duplicate or a held event)
   */
  accept(event: JournalEvent): JournalEvent[] {
    return this.#take(event.seq, event);
  }

  /**
   * Marks a seq as consumed without delivering anything, so an invalid event (already
   * reported) does not stall the stream forever.
   *
   * @param seq the invalid event's seq
   * @returns the events now deliverable, in order
   */
  skip(seq: number): JournalEvent[] {
    return this.#take(seq, null);
  }

  #take(seq: number, event: JournalEvent | null): JournalEvent[] {
    if (this.#last !== null && seq <= this.#last) return [];
    if (this.#ahead.has(seq)) return [];
    this.#ahead.set(seq, event);
    return this.#drain();
  }

  #drain(): JournalEvent[] {
    const out: JournalEvent[] = [];
    if (this.#last === null) return out;
    for (let next = this.#last + 1; this.#ahead.has(next); next++) {
      const event = this.#ahead.get(next);
      this.#ahead.delete(next);
      this.#last = next;
      if (event) out.push(event);
    }
    return out;
  }
}
