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
import type { BreakerOutcome, CircuitBreakers } from "@daedalus/tools";
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

async function* guardedStream(
  provider: Provider,
  breakers: CircuitBreakers,
  request: Parameters<Provider["stream"]>[0],
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const admission = breakers.admit(providerBreakerKey(provider.id));
  if (!admission.admitted) {
    const seconds = Math.ceil(admission.retryAfterMs / 1000);
    throw new ProviderError(
      "circuit_open",
      `Provider ${provider.id} failed too often and is paused by its circuit breaker; ` +
        `the next try is in about ${seconds} s`,
      { retryable: true, retryAfterSec: seconds },
    );
  }
  let outcome: BreakerOutcome = "ignored";
  try {
    for await (const event of provider.stream(request, signal)) yield event;
    // A stream the caller stopped early (cancellation) proves nothing either way.
    outcome = signal.aborted ? "ignored" : "success";
  } catch (error) {
    outcome = providerFailureOutcome(error, signal);
    throw error;
  } finally {
    breakers.record(admission, outcome);
  }
}
