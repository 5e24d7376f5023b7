import assert from "node:assert/strict";
import { attemptDelays, endlessDelays, waitMs } from "./backoff.ts";
import { RECONNECT_DELAYS_MS } from "./limits.ts";

Deno.test("the default ladder is 50/100/200/400/800 ms", () => {
  assert.deepEqual([...RECONNECT_DELAYS_MS], [50, 100, 200, 400, 800]);
});

Deno.test("a round after a drop climbs the ladder; a first connect tries at once first", () => {
  assert.deepEqual(attemptDelays(RECONNECT_DELAYS_MS, false), [50, 100, 200, 400, 800]);
  assert.deepEqual(attemptDelays(RECONNECT_DELAYS_MS, true), [0, 50, 100, 200, 400, 800]);
});

Deno.test("a negative or non-finite delay is refused", () => {
  assert.throws(() => attemptDelays([50, -1], false), RangeError);
  assert.throws(() => attemptDelays([Infinity], false), RangeError);
});

Deno.test("an aborted wait reports false and leaves no timer behind", async () => {
  const abort = new AbortController();
  const waiting = waitMs(60_000, abort.signal);
  abort.abort();
  assert.equal(await waiting, false);
  assert.equal(await waitMs(1, abort.signal), false, "an already aborted signal never waits");
  assert.equal(await waitMs(0, new AbortController().signal), true);
});

Deno.test("an endless round climbs the ladder exactly, then doubles to the cap with jitter", () => {
  const take = (iterator: Iterator<number>, n: number) =>
    Array.from({ length: n }, () => iterator.next().value as number);
  const noJitter = endlessDelays(RECONNECT_DELAYS_MS, false, { maxDelayMs: 5_000, jitter: 0 });
  assert.deepEqual(take(noJitter, 11), [
    50,
    100,
    200,
    400,
    800,
    1600,
    3200,
    5000,
    5000,
    5000,
    5000,
  ]);
  const first = endlessDelays(RECONNECT_DELAYS_MS, true, { maxDelayMs: 5_000, jitter: 0 });
  assert.deepEqual(take(first, 2), [0, 50], "a first connect still tries at once");
  const lowest = endlessDelays([50], false, { maxDelayMs: 5_000, jitter: 0.5, random: () => 1 });
  assert.deepEqual(
    take(lowest, 4),
    [50, 50, 100, 200],
    "the ladder is never jittered; past it up to half is taken off",
  );
  const highest = endlessDelays([50], false, { maxDelayMs: 300, jitter: 0.5, random: () => 0 });
  assert.deepEqual(take(highest, 5), [50, 100, 200, 300, 300], "the cap holds");
  const capped = endlessDelays([50, 10_000], false, { maxDelayMs: 1_000, jitter: 0 });
  assert.deepEqual(take(capped, 3), [50, 1_000, 1_000], "a rung above the cap is cut to it");
});

Deno.test("an endless round refuses a bad cap, jitter or ladder when it is made", () => {
  assert.throws(() => endlessDelays([50], false, { maxDelayMs: 0, jitter: 0 }), RangeError);
  assert.throws(() => endlessDelays([50], false, { maxDelayMs: NaN, jitter: 0 }), RangeError);
  assert.throws(() => endlessDelays([50], false, { maxDelayMs: 10, jitter: 1.5 }), RangeError);
  assert.throws(() => endlessDelays([-1], false, { maxDelayMs: 10, jitter: 0 }), RangeError);
});
