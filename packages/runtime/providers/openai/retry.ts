/**
 * When a failed provider call is tried again, and after how long. Requests that got no
 * usable response and streams that broke before any model content are retried with
 * exponential backoff and jitter; once content has reached the caller, a retry would
 * duplicate it, so the failure surfaces instead.
 *
 * @module
 */
import type { ProviderError } from "../provider.ts";
import {
  REQUEST_RETRIES,
  RETRY_BASE_DELAY_MS,
  RETRY_JITTER_MAX,
  RETRY_JITTER_MIN,
  RETRY_MAX_DELAY_MS,
  STREAM_RETRIES,
} from "./limits.ts";

/** How often and how patiently failed calls are retried. */
export interface RetryPolicy {
  /** Retries of requests without a usable response (no response, 429, 5xx, timeout). */
  requestRetries: number;
  /** Retries of streams that broke before any model content. */
  streamRetries: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** Longest single delay, `retry-after` included. */
  maxDelayMs: number;
  /** Smallest and largest factor applied to the backoff delay. */
  jitter: readonly [number, number];
}

/** The seed's policy: 4 request and 5 stream retries, 0.2 s × 2ⁿ, jitter 0.9–1.1, at most 5 s. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  requestRetries: REQUEST_RETRIES,
  streamRetries: STREAM_RETRIES,
  baseDelayMs: RETRY_BASE_DELAY_MS,
  maxDelayMs: RETRY_MAX_DELAY_MS,
  jitter: [RETRY_JITTER_MIN, RETRY_JITTER_MAX] as const,
});

/** Where a call stood when it failed. */
export interface CallProgress {
  /** The provider answered with a successful status, so the stream had begun. */
  responded: boolean;
  /** Model content (text, reasoning or a tool-call fragment) had arrived. */
  content: boolean;
}

/** Retries spent so far on one call. */
export interface RetryCount {
  /** Retries of requests. */
  request: number;
  /** Retries of streams. */
  stream: number;
}

/**
 * Decides whether to retry a failed call, and counts the retry when it does.
 *
 * @param error the classified failure
 * @param progress where the call stood
 * @param count retries spent so far (incremented when this returns a delay)
 * @param policy the retry policy
 * @param random a source of numbers in [0, 1), for the jitter
 * @returns the delay before the retry in milliseconds, or null to give up
 */
export function nextRetryDelayMs(
  error: ProviderError,
  progress: CallProgress,
  count: RetryCount,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (!error.retryable || progress.content) return null;
  const phase = progress.responded ? "stream" : "request";
  const allowed = phase === "stream" ? policy.streamRetries : policy.requestRetries;
  if (count[phase] >= allowed) return null;
  const attempt = count.request + count.stream;
  count[phase] += 1;
  if (error.retryAfterSec !== undefined) {
    return Math.min(error.retryAfterSec * 1000, policy.maxDelayMs);
  }
  return backoffDelayMs(attempt, policy, random);
}

/**
 * The backoff before retry number `attempt` (0 for the first): `baseDelayMs × 2^attempt`
 * times a jitter factor, at most `maxDelayMs`.
 *
 * @param attempt how many retries came before
 * @param policy the retry policy
 * @param random a source of numbers in [0, 1)
 * @returns the delay in milliseconds
 */
export function backoffDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const [low, high] = policy.jitter;
  const factor = low + (high - low) * random();
  const delay = policy.baseDelayMs * 2 ** attempt * factor;
  return Math.round(Math.min(delay, policy.maxDelayMs));
}

/**
 * Waits, or stops waiting as soon as the signal aborts (the caller then checks it).
 *
 * @param ms how long
 * @param signal cancellation
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
