/**
 * Which failed calls count against a circuit breaker.
 *
 * A breaker guards against a tool or provider that is broken, not against a model that
 * calls it badly: `invalid_arguments`, `permission_denied`, `file_not_found` and the like say
 * the call was wrong while the tool worked, and counting them would let a confused model
 * switch a healthy tool off for everyone. Only faults of the tool itself or of what it
 * depends on (the disk, a spawned program, a provider's service) count.
 *
 * A code in neither list counts as a failure: an unknown code (a new tool's) is a fault
 * nobody has classed, and a breaker exists for those. A tool that adds
 * a code of the caller's kind lists it in {@linkcode NON_FAILURE_CODES}; a test reads the
 * package's sources and fails on any built-in code left unclassed.
 *
 * Provider calls are classed by their Run reason code, `provider_<category>`
 * (`PROVIDER_FAILURE_CATEGORIES` of the protocol): a rate limit, timeout, network, server or
 * protocol failure counts; authentication, an invalid request, a context overflow or a
 * cancel does not, as no wait fixes those.
 *
 * @module
 */

/** Codes of faults of the tool or what it depends on: each counts against its breaker. */
export const FAILURE_CODES: ReadonlySet<string> = new Set([
  // Any error a tool did not classify: the wrapper's catch-all.
  "tool_failed",
  // A capability the tool needs (sessions, processes, memory) is not there.
  "tool_unavailable",
  // The file system refused an operation a correct call makes (EIO, ENOSPC…).
  "file_system_error",
  "write_verification_failed",
  // The process layer could not do what a correct call asked.
  "spawn_failed",
  "pty_unavailable",
  "pty_resize_failed",
  "supervise_unavailable",
  "manager_closed",
  // A pid from the process layer's own records that is not one (never the call's input).
  "invalid_pid",
  // Provider failures that say the service is unwell (the provider_<category> codes).
  "provider_rate_limit",
  "provider_timeout",
  "provider_network",
  "provider_server",
  "provider_protocol",
  "provider_unavailable",
  "provider_unknown",
  // An MCP server that does not answer in time, or is not connected (its breaker is the
  // server's: see gate.ts).
  "mcp_timeout",
  "mcp_server_unavailable",
]);

/**
 * Codes that say the call (its arguments, its target, the Run's state or the user) was at
 * fault while the tool worked: they never count against a breaker.
 */
export const NON_FAILURE_CODES: ReadonlySet<string> = new Set([
  // The gate and the wrapper refused or stopped the call before or while it ran.
  "invalid_arguments",
  // An MCP tool answered with an error result: its server works, the call (often its
  // arguments, which servers report this way) did not.
  "mcp_tool_error",
  "permission_denied",
  "cancelled",
  "protected_value",
  "repeated_call",
  "loop_detected",
  "circuit_open",
  // The call needs the user's approval (an ask rule, a high-risk command), which the
  // runtime cannot ask for yet; config.yaml's permissions cannot be used: every call refused.
  "approval_required",
  "high_risk_command",
  // An `ask_user` question waits for the user's answer, or nobody can answer it here.
  "question_pending",
  "question_unavailable",
  "invalid_permission_rule",
  "permission_config_invalid",
  // The target does not exist or is not what the call assumed.
  "file_not_found",
  "not_found",
  "item_not_found",
  "thread_not_found",
  "process_not_found",
  "not_a_file",
  "not_a_directory",
  "binary_file",
  "file_too_large",
  "path_too_long",
  "offset_out_of_range",
  "stale_content",
  "ambiguous_match",
  "invalid_id",
  // A pattern the model wrote that the engine refuses or that is too costly to run.
  "regex_too_large",
  "regex_lookahead_unsupported",
  "regex_lookbehind_unsupported",
  "regex_backreference_unsupported",
  "grep_timeout",
  // The state of a thread, sub-agent or process forbids the call (a limit, not a fault).
  "thread_busy",
  "thread_archived",
  "thread_hop_limit",
  "subagent_limit",
  "subagent_depth_limit",
  "process_limit",
  "process_not_running",
  "process_not_pty",
  "process_recovered",
  "runtime_recovered",
  // Provider failures of the request or the account: retrying later does not fix them.
  "provider_authentication",
  "provider_context_overflow",
  "provider_invalid_request",
  "provider_cancelled",
  // The breaker's own fast refusal: counting it would keep the breaker open by itself.
  "provider_circuit_open",
]);

/**
 * Whether a failed call with this error code counts against its circuit breaker. Codes in
 * {@linkcode NON_FAILURE_CODES} do not; every other code (listed in
 * {@linkcode FAILURE_CODES} or unknown) does, and so does a failure without a code.
 *
 * @param errorCode the failed call's code (`ToolResult.errorCode`, a provider reason code)
 * @returns true when the failure says the tool or provider is unwell
 * @example
 * ```ts
 * countsAsFailure("spawn_failed"); // true
 * countsAsFailure("invalid_arguments"); // false: the model's mistake
 * ```
 */
export function countsAsFailure(errorCode: string | undefined): boolean {
  if (errorCode === undefined || errorCode === "") return true;
  return !NON_FAILURE_CODES.has(errorCode);
}

/** What a finished call tells its breaker: a success, a failure, or nothing about health. */
export type BreakerOutcome = "success" | "failure" | "ignored";

/**
 * The breaker outcome of a tool result: `success` when it did not fail, `failure` when its
 * code {@linkcode countsAsFailure}, else `ignored` (the call was wrong, the tool was fine).
 *
 * @param result the call's result (`isError`, `errorCode`)
 * @returns the outcome to record
 * @example
 * ```ts
 * breakers.record(admission, breakerOutcome(result));
 * ```
 */
export function breakerOutcome(
  result: { readonly isError?: boolean; readonly errorCode?: string },
): BreakerOutcome {
  if (result.isError !== true) return "success";
  return countsAsFailure(result.errorCode) ? "failure" : "ignored";
}
