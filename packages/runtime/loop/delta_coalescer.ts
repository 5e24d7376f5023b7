/**
 * Batches streamed text before it is written: the first piece is persisted at once
 * (so the user sees the answer start), later pieces are joined until 256 characters
 * or 50 ms, and everything is flushed at each boundary (tool call, finish, failure,
 * cancel).
 *
 * @module
 */
import { DELTA_COALESCE_MAX_CHARS, DELTA_COALESCE_MAX_MS } from "../limits.ts";
import { type ScheduleTimer, scheduleTimer } from "../timer.ts";

/** Writes one coalesced piece. */
export type DeltaWriter = (text: string) => void;

/** Coalesces the deltas of one stream (one item field). */
export class DeltaCoalescer {
  readonly #write: DeltaWriter;
  readonly #schedule: ScheduleTimer;
  #buffer = "";
  #wroteFirst = false;
  #cancelTimer: (() => void) | undefined;

  /**
   * @param write persists one piece
   * @param schedule the clock to wait on (tests pass a fake one)
   */
  constructor(write: DeltaWriter, schedule: ScheduleTimer = scheduleTimer) {
    this.#write = write;
    this.#schedule = schedule;
  }

  /**
   * Adds streamed text.
   *
   * @param text the delta
   */
  push(text: string): void {
    if (!text) return;
    if (!this.#wroteFirst) {
      this.#wroteFirst = true;
      this.#write(text);
      return;
    }
    this.#buffer += text;
    if (this.#buffer.length >= DELTA_COALESCE_MAX_CHARS) this.flush();
    else if (this.#cancelTimer === undefined) {
      this.#cancelTimer = this.#schedule(() => this.flush(), DELTA_COALESCE_MAX_MS);
    }
  }

  /** Writes whatever is buffered now. */
  flush(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    if (!this.#buffer) return;
    const text = this.#buffer;
    this.#buffer = "";
    this.#write(text);
  }
}
