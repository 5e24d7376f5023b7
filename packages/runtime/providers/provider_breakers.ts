/**
 * Provider circuit breakers (issue 14, gate stage 6, provider part): every model call of
 * a Run — its steps, compactions and completion checks — passes the breaker of its
 * provider, keyed `provider:<id>` in one set per runtime (reset on restart). A call
 * whose failure is `retryable` (network, 429, 5xx, timeouts, after the adapter's own
 * retries) counts as a failure; a call that streamed to its end counts as a success (it
 * closes a half-open breaker); other failures (a wrong key, a refused request) and
 * cancellations say nothing about the provider's health and are ignored.
 *
 * While the breaker is open a call fails fast, before any request is sent, with a
 * {@linkcode ProviderError} of category `circuit_open` (the Run's reason
 * `provider_circuit_open`, retryable): the agent loop then moves to the model's fallback
 * when it has one.
 *
 * @example
 * ```ts
 * const breakers = createCircuitBreakers();
 * const guarded = guardProvider(registry.provider("deepseek")!, breakers);
 * for await (const event of guarded.stream(request, signal)) {
 *   // ...
 * }
 * ```
 *
 * @module
 */
import { runFailureClass, type RunReasonCode } from "@daedalus/protocol";
import type { BreakerAdmitted, BreakerOutcome, CircuitBreakers } from "@daedalus/tools";
import { type Provider, ProviderError, type ProviderEvent } from "./provider.ts";

/** The prefix of a provider breaker's key; tool breakers are keyed by the bare tool id. */
export const PROVIDER_BREAKER_PREFIX = "provider:";

/**
 * The breaker key of a provider.
 *
 * @param providerId the provider id
 * @returns `provider:<providerId>`
 */
export function providerBreakerKey(providerId: string): string {
  return `${PROVIDER_BREAKER_PREFIX}${providerId}`;
}

/**
 * What a failed call tells the breaker: a `retryable` failure counts, the rest is ignored.
 *
 * @param error what the provider's stream threw
 * @param signal the call's signal (an aborted call is a cancellation, not a failure)
 * @returns `failure` or `ignored`
 */
export function providerFailureOutcome(error: unknown, signal: AbortSignal): BreakerOutcome {
  if (signal.aborted) return "ignored";
  const category = error instanceof ProviderError ? error.category : "unknown";
  const reason = `provider_${category}` as RunReasonCode;
  return runFailureClass(reason) === "retryable" ? "failure" : "ignored";
}

/**
 * A provider whose every call passes its circuit breaker first.
 *
 * @param provider the provider to guard
 * @param breakers the runtime's provider breakers
 * @returns a provider with the same id and models
 */
export function guardProvider(provider: Provider, breakers: CircuitBreakers): Provider {
  return {
    id: provider.id,
    models: provider.models,
    stream: (request, signal) => guardedStream(provider, breakers, request, signal),
  };
}

/**
 * The provider's stream behind the breaker: admitted at its first step, and its outcome
 * recorded once, when it ends, fails or is stopped. An iterator written out, not an async
 * generator: it passes each of a streamed answer's thousands of events on with the inner
 * stream's own promise (chat_stream.ts says why that matters).
 */
function guardedStream(
  provider: Provider,
  breakers: CircuitBreakers,
  request: Parameters<Provider["stream"]>[0],
  signal: AbortSignal,
): AsyncIterable<ProviderEvent> {
  let inner: AsyncIterator<ProviderEvent> | null = null;
  let admission: BreakerAdmitted | null = null;
  let settled = false;
  const settle = (outcome: BreakerOutcome) => {
    if (settled || admission === null) return;
    settled = true;
    breakers.record(admission, outcome);
  };
  const onResult = (result: IteratorResult<ProviderEvent>) => {
    // A stream the caller stopped early (cancellation) proves nothing either way.
    if (result.done) settle(signal.aborted ? "ignored" : "success");
    return result;
  };
  const onFailure = (error: unknown): never => {
    settle(providerFailureOutcome(error, signal));
    throw error;
  };
  const iterator: AsyncIterableIterator<ProviderEvent> = {
    [Symbol.asyncIterator]: () => iterator,
    next() {
      if (settled) return Promise.resolve({ done: true, value: undefined });
      if (inner === null) {
        const admitted = breakers.admit(providerBreakerKey(provider.id));
        if (!admitted.admitted) {
          settled = true;
          const seconds = Math.ceil(admitted.retryAfterMs / 1000);
          return Promise.reject(
            new ProviderError(
              "circuit_open",
              `Provider ${provider.id} failed too often and is paused by its circuit breaker; ` +
                `the next try is in about ${seconds} s`,
              { retryable: true, retryAfterSec: seconds },
            ),
          );
        }
        admission = admitted;
        try {
          inner = provider.stream(request, signal)[Symbol.asyncIterator]();
        } catch (error) {
          settle(providerFailureOutcome(error, signal));
          return Promise.reject(error);
        }
      }
      return inner.next().then(onResult, onFailure);
    },
    async return() {
      settle("ignored");
      await inner?.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}
