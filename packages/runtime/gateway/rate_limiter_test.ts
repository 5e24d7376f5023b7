import assert from "node:assert/strict";
import { KeyRateLimiter } from "./rate_limiter.ts";

Deno.test("a key spends its burst, then waits for the refill; keys are independent", () => {
  let now = 0;
  const limiter = new KeyRateLimiter({ perMinute: 6, burst: 2, now: () => now });
  assert.deepEqual(limiter.take("a"), { ok: true });
  assert.deepEqual(limiter.take("a"), { ok: true });
  assert.deepEqual(limiter.take("a"), { ok: false, retryAfterSeconds: 10 });
  assert.deepEqual(limiter.take("b"), { ok: true }, "another key was limited");
  now = 5_000;
  assert.deepEqual(limiter.take("a"), { ok: false, retryAfterSeconds: 5 });
  now = 10_000;
  assert.deepEqual(limiter.take("a"), { ok: true }, "the refill did not come");
  now = 10_000 + 60_000;
  assert.deepEqual(limiter.take("a"), { ok: true });
  assert.deepEqual(limiter.take("a"), { ok: true });
  assert.equal(limiter.take("a").ok, false, "the bucket grew beyond its burst");
  limiter.forget("a");
  assert.deepEqual(limiter.take("a"), { ok: true }, "a forgotten key starts full");
});

Deno.test("a rate limit without a positive rate or burst is refused", () => {
  for (const options of [{ perMinute: 0 }, { perMinute: -1 }, { burst: 0 }, { perMinute: NaN }]) {
    assert.throws(() => new KeyRateLimiter(options), RangeError, JSON.stringify(options));
  }
});
