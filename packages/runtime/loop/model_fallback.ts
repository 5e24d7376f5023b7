/**
 * Fallback models (issue 14, "Exceptions and fallbacks"): when a step's model call fails
 * with a `retryable` reason after the adapter's own retries — or fails fast because its
 * provider's breaker is open (`provider_circuit_open`) — and nothing of that step was
 * journaled yet (no text or reasoning delta: text is never duplicated), the Run continues
 * on its model's configured fallback with the same messages, for the rest of the Run.
 * Only one level: a fallback's own fallback is not followed, and a failure of the
 * fallback settles the Run as before, with the fallback's reason.
 *
 * Every execution call is a step of its own in the journal, so the fallback's call is the
 * next step ordinal; its input is the same context, rebuilt from the same items.
 *
 * @module
 */
import { runFailureClass, type RunReasonCode } from "@daedalus/protocol";
import { type Committed, type StateStore, switchToFallback } from "@daedalus/storage";
import type { Provider } from "../providers/provider.ts";

/** A model a Run can call: who serves it and what it accepts. */
export interface ModelChoice {
  /** The provider id. */
  providerId: string;
  /** The model id. */
  modelId: string;
  /** The adapter (breaker-guarded in the runtime). */
  provider: Provider;
  /** Its context window in tokens. */
  contextWindow: number;
  /** The reasoning effort sent, or null for "auto". */
  reasoningEffort: string | null;
}

/** How a step's model call failed, as far as a fallback cares. */
export interface FailedCall {
  /** The Run reason the failure maps to. */
  reason: RunReasonCode;
  /** Whether any text or reasoning of the step was journaled before it failed. */
  streamed: boolean;
}

/** Why a failed call does or does not move the Run to its fallback. */
export type FallbackDecision =
  | "fall_back"
  | "not_retryable"
  | "streamed"
  | "already_on_fallback"
  | "no_fallback";

/**
 * Decides whether a failed step call moves the Run to its fallback. The order matters for
 * the answer only: every condition must hold.
 *
 * @param failed the call's reason and whether it streamed anything
 * @param state whether the Run already moved, and whether its model names a usable fallback
 * @returns `fall_back`, or why not
 */
export function decideFallback(
  failed: FailedCall,
  state: { onFallback: boolean; fallbackAvailable: boolean },
): FallbackDecision {
  if (runFailureClass(failed.reason) !== "retryable") return "not_retryable";
  if (failed.streamed) return "streamed";
  if (state.onFallback) return "already_on_fallback";
  if (!state.fallbackAvailable) return "no_fallback";
  return "fall_back";
}

/**
 * The route of a Run that starts (or starts again, after waiting for the user) on the
 * model the journal says it is on: a Run that already moved to its fallback stays there.
 * Should that fallback no longer be the primary's configured, usable one, the Run fails
 * with `model_configuration_changed` rather than silently go back to the primary.
 *
 * @param primary the Run's own (frozen) model
 * @param resolveFallback the primary's fallback as configured now, or null
 * @param movedTo the fallback the Run moved to (`RunSummary.fallbackModel`), or null
 * @returns the route, or the reason the Run cannot go on
 */
export function openModelRoute(
  primary: ModelChoice,
  resolveFallback: () => ModelChoice | null,
  movedTo: { providerId: string; modelId: string } | null,
): { ok: true; route: ModelRoute } | { ok: false; reason: RunReasonCode } {
  if (movedTo === null) return { ok: true, route: new ModelRoute(primary, resolveFallback) };
  const fallback = resolveFallback();
  if (fallback?.providerId !== movedTo.providerId || fallback.modelId !== movedTo.modelId) {
    return { ok: false, reason: "model_configuration_changed" };
  }
  return { ok: true, route: new ModelRoute(primary, resolveFallback, fallback) };
}

/** The model a Run calls now, and the one it may move to once. */
export class ModelRoute {
  #current: ModelChoice;
  readonly #primary: ModelChoice;
  readonly #resolveFallback: () => ModelChoice | null;
  #onFallback = false;

  /**
   * @param primary the Run's own (frozen) model
   * @param resolveFallback the primary's fallback as configured now, or null when it has
   *   none or it is unusable (disabled, removed); asked only when a call failed
   * @param movedTo the fallback the Run already moved to, when it did
   */
  constructor(
    primary: ModelChoice,
    resolveFallback: () => ModelChoice | null,
    movedTo: ModelChoice | null = null,
  ) {
    this.#primary = primary;
    this.#current = movedTo ?? primary;
    this.#onFallback = movedTo !== null;
    this.#resolveFallback = resolveFallback;
  }

  /** The model the next call goes to. */
  get current(): ModelChoice {
    return this.#current;
  }

  /** Whether the Run moved to its fallback (it never moves again). */
  get onFallback(): boolean {
    return this.#onFallback;
  }

  /**
   * Moves the Run to its fallback when {@linkcode decideFallback} says so: the failed call's
   * end and `run.model_fallback` are journaled in one transaction.
   *
   * @param deps the store, the local date and how to unwrap commits
   * @param runId the run
   * @param failed the failed call
   * @param callOrdinal its ordinal
   * @returns the new model, or null when the Run stays (the caller settles it as before)
   */
  fallBack(
    deps: { store: StateStore; today: () => string; commit: <T>(c: Committed<T>) => T },
    runId: string,
    failed: FailedCall,
    callOrdinal: number,
  ): ModelChoice | null {
    const early = decideFallback(failed, { onFallback: this.#onFallback, fallbackAvailable: true });
    if (early !== "fall_back") return null;
    const target = this.#resolveFallback();
    if (target === null) return null;
    const moved = deps.commit(switchToFallback(deps.store, runId, {
      callOrdinal,
      outcome: "failed",
      usage: null,
      responseModelId: null,
      requestId: null,
      reasonCode: failed.reason,
      activityDate: deps.today(),
    }, {
      fromProviderId: this.#primary.providerId,
      fromModelId: this.#primary.modelId,
      toProviderId: target.providerId,
      toModelId: target.modelId,
      reasonCode: failed.reason,
    }));
    if (!moved) return null;
    this.#onFallback = true;
    this.#current = target;
    return target;
  }
}
