/**
 * A Run moving to its model's fallback (issue 14, "Exceptions and fallbacks"): the failed
 * call's `model.response_finished` and `run.model_fallback` in one transaction, so no
 * reader sees the Run's step failed without knowing it goes on, nor a fallback without
 * the failure that caused it.
 *
 * @module
 */
import type { RunReasonCode } from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import { readRunScope } from "./run_writes.ts";
import { appendModelResponse, type ModelResponseFact } from "./run_facts.ts";
import { statement } from "../_statements.ts";

/** The models of a fallback: the one that failed and the one the Run continues on. */
export interface ModelFallbackFact {
  /** The Run's own provider. */
  fromProviderId: string;
  /** The Run's own model. */
  fromModelId: string;
  /** The fallback's provider. */
  toProviderId: string;
  /** The fallback model. */
  toModelId: string;
  /** Why the Run's own model failed (a retryable reason). */
  reasonCode: RunReasonCode;
}

/**
 * Ends a failed model call and moves the Run to its fallback model, in one transaction.
 * Only one fallback per Run: a Run that already moved, or that is no longer running
 * (cancelled meanwhile), is left alone and nothing is written.
 *
 * @param store the state store
 * @param runId the run
 * @param response how the failed call ended (`outcome: "failed"`, its reason)
 * @param fallback the two models and the reason
 * @returns true when both events were written; false when nothing was
 * @throws {StoreError} `run_not_found`
 */
export function switchToFallback(
  store: StateStore,
  runId: string,
  response: ModelResponseFact,
  fallback: ModelFallbackFact,
): Committed<boolean> {
  return store.write((context) => {
    const { status, turnOrdinal: _ordinal, ...scope } = readRunScope(context.db, runId);
    if (status !== "running") return false;
    const row = statement(context.db.connection, "SELECT fallback_model_id FROM runs WHERE id = ?")
      .get(runId);
    if (typeof row?.fallback_model_id === "string") return false;
    appendModelResponse(context, { ...scope }, response);
    context.append({
      type: "run.model_fallback",
      ...scope,
      payload: { ...fallback, callOrdinal: response.callOrdinal },
    });
    return true;
  });
}
