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
