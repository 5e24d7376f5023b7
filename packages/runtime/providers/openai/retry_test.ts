import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  nextRetryDelayMs,
  type RetryCount,
} from "./retry.ts";

const server = () => new ProviderError("server", "HTTP 500", { retryable: true, status: 500 });
const fresh = { responded: false, content: false };

Deno.test("backoff doubles from 0.2 s within the jitter, capped at 5 s", () => {
  const policy = DEFAULT_RETRY_POLICY;
  assert.equal(backoffDelayMs(0, policy, () => 0), 180);
  assert.equal(backoffDelayMs(0, policy, () => 0.5), 200);
  assert.equal(backoffDelayMs(1, policy, () => 0.5), 400);
  assert.equal(backoffDelayMs(3, policy, () => 1), 1760);
  assert.equal(backoffDelayMs(10, policy, () => 0.5), 5000);
});

Deno.test("request failures are retried 4 times, stream failures 5", () => {
  const count: RetryCount = { request: 0, stream: 0 };
  const delays = Array.from(
    { length: 5 },
    () => nextRetryDelayMs(server(), fresh, count, DEFAULT_RETRY_POLICY, () => 0.5),
  );
  assert.deepEqual(delays, [200, 400, 800, 1600, null]);
  const streamed = { responded: true, content: false };
  const streamCount: RetryCount = { request: 0, stream: 0 };
  const cut = new ProviderError("network", "cut", { retryable: true });
  const streamDelays = Array.from(
    { length: 6 },
    () => nextRetryDelayMs(cut, streamed, streamCount, DEFAULT_RETRY_POLICY, () => 0.5),
  );
  assert.deepEqual(streamDelays, [200, 400, 800, 1600, 3200, null]);
});

Deno.test("retry-after is honoured up to the cap, without jitter", () => {
  const limited = (seconds: number) =>
    new ProviderError("rate_limit", "429", { retryable: true, retryAfterSec: seconds });
  const count = { request: 0, stream: 0 };
  assert.equal(nextRetryDelayMs(limited(1.5), fresh, count, DEFAULT_RETRY_POLICY), 1500);
  assert.equal(nextRetryDelayMs(limited(120), fresh, count, DEFAULT_RETRY_POLICY), 5000);
});

Deno.test("no retry once content arrived, nor for failures that are not retryable", () => {
  const count = { request: 0, stream: 0 };
  const afterContent = { responded: true, content: true };
  assert.equal(nextRetryDelayMs(server(), afterContent, count, DEFAULT_RETRY_POLICY), null);
  const auth = new ProviderError("authentication", "401", { status: 401 });
  assert.equal(nextRetryDelayMs(auth, fresh, count, DEFAULT_RETRY_POLICY), null);
  assert.deepEqual(count, { request: 0, stream: 0 });
});
