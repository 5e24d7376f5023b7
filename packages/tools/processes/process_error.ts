/**
 * The error of the process manager.
 *
 * @module
 */

/**
 * A process manager failure with a stable code: `invalid_id`, `process_not_found`,
 * `process_limit`, `pty_unavailable`, `process_not_pty`, `process_recovered`,
 * `process_not_running`, `spawn_failed`, `pty_resize_failed`, `supervise_unavailable`, `manager_closed`,
 * `invalid_pid` (the Windows adapter refuses a pid that is not a positive integer).
 */
export class ProcessError extends Error {
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
    this.name = "ProcessError";
    this.code = code;
  }
}
