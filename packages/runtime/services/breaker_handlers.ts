/**
 * `breaker.list`: the circuit breakers of tools (keyed by tool id) and providers (keyed
 * `provider:<id>`) as they stand now. Both sets live in the runtime's memory and start
 * empty on each start: a breaker appears once its key saw a call.
 *
 * @example
 * ```ts
 * const handlers = createBreakerHandlers({ toolBreakers, providerBreakers });
 * const { result } = await handlers["breaker.list"]({});
 * result.breakers[0].state; // "closed", "open" or "half_open"
 * ```
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import type { BreakerSnapshot, CircuitBreakers } from "@daedalus/tools";
import type { Handled } from "./services.ts";

/** What the breaker handlers read. */
export interface BreakerHandlerOptions {
  /** The tools' breakers, keyed by tool id. */
  toolBreakers: CircuitBreakers;
  /** The providers' breakers, keyed `provider:<id>`. */
  providerBreakers: CircuitBreakers;
}

/** The methods served here. */
export type BreakerMethod = "breaker.list";

/** One handler per `breaker.*` method. */
export type BreakerHandlers = {
  [M in BreakerMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

type WireBreaker = ResultOf<"breaker.list">["breakers"][number];

/**
 * Builds the `breaker.*` handlers.
 *
 * @param options the two sets of breakers
 * @returns the handlers; they never fail
 */
export function createBreakerHandlers(options: BreakerHandlerOptions): BreakerHandlers {
  return {
    "breaker.list": () =>
      Promise.resolve({
        result: {
          breakers: [
            ...options.toolBreakers.snapshot().map((b) => wireBreaker(b, "tool")),
            ...options.providerBreakers.snapshot().map((b) => wireBreaker(b, "provider")),
          ],
        },
      }),
  };
}

/**
 * One breaker as the wire shows it: epoch milliseconds become timestamps.
 *
 * @param snapshot the breaker's snapshot
 * @param kind whose breaker it is
 * @returns the wire form
 */
export function wireBreaker(snapshot: BreakerSnapshot, kind: WireBreaker["kind"]): WireBreaker {
  return {
    key: snapshot.key,
    kind,
    state: snapshot.state,
    recentCalls: snapshot.callsInWindow,
    recentFailures: snapshot.failuresInWindow,
    consecutiveFailures: snapshot.consecutiveFailures,
    openedAt: snapshot.openedAt === null ? null : new Date(snapshot.openedAt).toISOString(),
    retryAt: snapshot.nextProbeAt === null ? null : new Date(snapshot.nextProbeAt).toISOString(),
  };
}
