/**
 * A token bucket per app key: each key may spend a burst at once and then refills at its
 * per-minute rate. In memory: a restart forgets the spending, which errs on the side of
 * the key's owner.
 *
 * @module
 */
import { GATEWAY_RATE_LIMIT_BURST, GATEWAY_RATE_LIMIT_PER_MINUTE } from "./limits.ts";

/** What a {@linkcode KeyRateLimiter} allows. */
export interface RateLimitOptions {
  /** Requests per minute (the refill rate); default {@linkcode GATEWAY_RATE_LIMIT_PER_MINUTE}. */
  perMinute?: number;
  /** Requests at once (the bucket's size); default {@linkcode GATEWAY_RATE_LIMIT_BURST}. */
  burst?: number;
  /** The clock (epoch ms); default `Date.now`. */
  now?: () => number;
}

/** Whether a request may go ahead, and if not, when it may. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The buckets of all keys. */
export class KeyRateLimiter {
  readonly #perMs: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  /**
   * Makes the limiter.
   *
   * @param options rate, burst and clock
   * @throws {RangeError} when the rate or burst is not a positive finite number
   */
  constructor(options: RateLimitOptions = {}) {
    const perMinute = options.perMinute ?? GATEWAY_RATE_LIMIT_PER_MINUTE;
    const burst = options.burst ?? GATEWAY_RATE_LIMIT_BURST;
    if (!(perMinute > 0 && Number.isFinite(perMinute) && burst >= 1 && Number.isFinite(burst))) {
      throw new RangeError("the rate limit needs a positive rate and a burst of at least 1");
    }
    this.#perMs = perMinute / 60_000;
    this.#burst = burst;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Spends one request of a key, when it has one left.
   *
   * @param keyId the key
   * @returns ok, or how many whole seconds until the next request is allowed
   */
  take(keyId: string): RateDecision {
    const now = this.#now();
    const bucket = this.#buckets.get(keyId) ?? { tokens: this.#burst, at: now };
    const tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#perMs);
    if (tokens >= 1) {
      this.#buckets.set(keyId, { tokens: tokens - 1, at: now });
      return { ok: true };
    }
    this.#buckets.set(keyId, { tokens, at: now });
    return {
      ok: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000)),
    };
  }

  /**
   * Forgets a key's bucket (it was revoked).
   *
   * @param keyId the key
   */
  forget(keyId: string): void {
    this.#buckets.delete(keyId);
  }
}
