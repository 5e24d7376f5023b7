/**
 * The reconnect schedule: how long to wait before each attempt, and an abortable wait.
 *
 * @module
 */

/**
 * The waits before each connection attempt of one round: the ladder as given, or an
 * immediate first attempt followed by the ladder (first connect, manual reconnect).
 *
 * @param ladder waits in ms, e.g. `[50, 100, 200, 400, 800]`
 * @param immediateFirst whether to try once at once before climbing the ladder
 * @returns the wait before each attempt; the round ends after the last
 * @throws {RangeError} when a wait is negative or not finite
 */
export function attemptDelays(ladder: readonly number[], immediateFirst: boolean): number[] {
  for (const delay of ladder) {
    if (!Number.isFinite(delay) || delay < 0) {
      throw new RangeError(`Reconnect delay must be a finite number ≥ 0, got ${delay}`);
    }
  }
  return immediateFirst ? [0, ...ladder] : [...ladder];
}

/** How a round goes on once the ladder is spent (a client that keeps reconnecting). */
export interface EndlessBackoff {
  /** The longest wait, in ms. */
  maxDelayMs: number;
  /** Share of each wait past the ladder taken off at random (0 = none, 0.5 = up to half). */
  jitter: number;
  /** A number in [0, 1); `Math.random` by default (tests pass a fixed one). */
  random?: () => number;
}

/**
 * The waits before each attempt of a round that never ends: the ladder as
 * {@linkcode attemptDelays} gives it (seed 000's 50/100/200/400/800 ms stays the start of
 * the curve), then doubling from the last rung up to `maxDelayMs`, each of those jittered.
 *
 * @param ladder waits in ms
 * @param immediateFirst whether to try once at once before climbing the ladder
 * @param endless the cap and the jitter
 * @returns an endless iterator of waits
 * @throws {RangeError} when a wait, the cap or the jitter is out of range
 */
export function endlessDelays(
  ladder: readonly number[],
  immediateFirst: boolean,
  endless: EndlessBackoff,
): Iterator<number, never, undefined> & Iterable<number> {
  const { maxDelayMs, jitter } = endless;
  if (!Number.isFinite(maxDelayMs) || maxDelayMs <= 0) {
    throw new RangeError(`Reconnect cap must be a finite number > 0, got ${maxDelayMs}`);
  }
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new RangeError(`Reconnect jitter must be between 0 and 1, got ${jitter}`);
  }
  // Checked here, not inside the generator, so a bad option fails where it is given.
  const rungs = attemptDelays(ladder, immediateFirst).map((delay) => Math.min(delay, maxDelayMs));
  return endlessCurve(rungs, Math.max(1, ladder.at(-1) ?? 1), {
    maxDelayMs,
    jitter,
    random: endless.random ?? Math.random,
  });
}

function* endlessCurve(
  rungs: readonly number[],
  lastRung: number,
  endless: Required<EndlessBackoff>,
): Generator<number, never, undefined> {
  yield* rungs;
  let delay = lastRung;
  for (;;) {
    delay = Math.min(delay * 2, endless.maxDelayMs);
    yield Math.round(delay * (1 - endless.jitter * endless.random()));
  }
}

/**
 * Waits, unless aborted first; the timer is cleared on abort so nothing is left running.
 *
 * @param ms how long
 * @param signal stops the wait early
 * @returns true when the wait ran to the end, false when it was aborted
 */
export function waitMs(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
