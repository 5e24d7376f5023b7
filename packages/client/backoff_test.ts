import assert from "node:assert/strict";
import { attemptDelays, waitMs } from "./backoff.ts";
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
