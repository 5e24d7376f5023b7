/**
 * A fake clock for tests of code that takes a {@linkcode ScheduleTimer} (the delta
 * coalescer, the event hub): timers fire only when the test moves the clock, so a test
 * states "after 49 ms nothing, at 50 ms the flush" without waiting in real time.
 *
 * @module
 */
import type { ScheduleTimer } from "./timer.ts";

interface FakeTimer {
  id: number;
  at: number;
  callback: () => void;
}

/** Timers that fire only when {@linkcode FakeClock.advance} passes their time. */
export class FakeClock {
  #now = 0;
  #nextId = 1;
  readonly #timers = new Map<number, FakeTimer>();

  /** Milliseconds since the clock was made. */
  get now(): number {
    return this.#now;
  }

  /** The delays (from now) of the timers still waiting, soonest first. */
  get pendingDelays(): number[] {
    return [...this.#timers.values()].map((timer) => timer.at - this.#now).sort((a, b) => a - b);
  }

  /** The clock's {@linkcode ScheduleTimer}, to pass to the code under test. */
  readonly schedule: ScheduleTimer = (callback, ms) => {
    const id = this.#nextId++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, ms), callback });
    return () => this.#timers.delete(id);
  };

  /**
   * Moves the clock forward, firing each due timer in time order (a timer set by a firing
   * timer fires too when it falls inside the window).
   *
   * @param ms how far to move
   */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.values()]
        .filter((timer) => timer.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers.delete(due.id);
      this.#now = due.at;
      due.callback();
    }
    this.#now = end;
  }
}
