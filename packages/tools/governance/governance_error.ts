/**
 * The error of the governance modules (circuit breakers, loop detection).
 *
 * @module
 */

/**
 * A refused governance input with a stable code: `breaker_option_invalid`,
 * `breaker_key_invalid`, `breaker_outcome_invalid`, `breaker_admission_invalid`,
 * `loop_option_invalid`, `loop_call_invalid`, `arguments_not_json`. These are caller or
 * configuration mistakes; a refused or paused tool call is a verdict, never this error.
 */
export class GovernanceError extends Error {
  /** Stable code. */
  readonly code: string;

  /**
   * Makes the failure.
   *
   * @param code stable code
   * @param message sentence-case, no trailing period
   * @param options the original error
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "GovernanceError";
    this.code = code;
  }
}
