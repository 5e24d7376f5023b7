/**
 * What a failed Run asks of the user, derived from its reason code (issue 14, "Exceptions
 * and fallbacks"; seed 001's exception classes). Clients show one line per class next to
 * the reason itself, and a later automatic retry may act only on `retryable`.
 *
 * A class describes a failure, so a Run that was cancelled — by the user, by the provider
 * acknowledging a cancel, or by the runtime shutting down (which settles the Run as
 * `cancelled`) — has none, like a completed Run.
 *
 * @module
 */
import type { RunFailureClass, RunReasonCode } from "./types.gen.ts";

/** The failure classes of a settled Run (`run.settled.failureClass`, `Run.failureClass`). */
export const RUN_FAILURE_CLASSES = ["retryable", "needs_user", "unrecoverable"] as const;

/**
 * The class of every run reason code. Typed as a total record, so a reason code added to
 * `RUN_REASON_CODES` without a class here does not compile.
 */
const CLASS_OF: Readonly<Record<RunReasonCode, RunFailureClass | null>> = {
  // Not failures: someone stopped the Run on purpose.
  cancelled: null,
  runtime_shutdown: null,
  provider_cancelled: null,
  // Passing problems: the same request may well succeed a moment later.
  provider_network: "retryable",
  provider_rate_limit: "retryable",
  provider_server: "retryable",
  provider_timeout: "retryable",
  provider_protocol: "retryable",
  provider_unavailable: "retryable",
  // The provider failed too often lately; its breaker lets a probe through in 30 s.
  provider_circuit_open: "retryable",
  // The runtime died mid-Run; nothing about the request itself was wrong.
  runtime_interrupted: "retryable",
  // Nothing says it will fail again, and retrying costs the user one click.
  provider_unknown: "retryable",
  // The user has to change something first: a setting, the model, the input or the ask.
  context_budget_exceeded: "needs_user",
  // The user declined to raise a Run budget it had reached.
  budget_exceeded: "needs_user",
  model_output_limit: "needs_user",
  model_input_unavailable: "needs_user",
  model_not_configured: "needs_user",
  model_selection_required: "needs_user",
  provider_configuration_changed: "needs_user",
  model_configuration_changed: "needs_user",
  execution_policy_changed: "needs_user",
  // The sandbox is part of the machine's setup (bubblewrap, a mode that needs it):
  // retrying on the same machine fails the same way until the user fixes or changes it.
  tool_sandbox_unavailable: "needs_user",
  // The model was going in circles; the user has to redirect it.
  loop_detected: "needs_user",
  // The same request fails the same way however often it is sent.
  provider_authentication: "unrecoverable",
  provider_invalid_request: "unrecoverable",
  // The provider refused the size itself (the runtime's own budget check did not catch it).
  provider_context_overflow: "unrecoverable",
  protected_value: "unrecoverable",
  agent_error: "unrecoverable",
};

/**
 * The failure class of a Run that settled with `reasonCode`.
 *
 * @param reasonCode the Run's reason code; null on a completed Run
 * @returns the class, or null for a completed or cancelled Run (not a failure)
 */
export function runFailureClass(reasonCode: RunReasonCode | null): RunFailureClass | null {
  if (reasonCode === null) return null;
  // A code from a newer peer that this build does not know has no class here.
  return Object.hasOwn(CLASS_OF, reasonCode) ? CLASS_OF[reasonCode] : null;
}
