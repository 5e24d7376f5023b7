/**
 * Every stable reason code of the protocol, grouped by where it appears. Codes are
 * facts of the wire: clients switch on them and localize them. Their schemas are
 * exported with the other message schemas.
 *
 * `RUN_REASON_CODES` and `ERROR_REASON_CODES` are typed by the generated unions of their
 * schemas, so a code added here without `deno task protocol:generate` does not compile.
 *
 * @module
 */
import type { ErrorReasonCode, RunReasonCode } from "./types.gen.ts";

/** Provider failure categories (seed 000 §6.16); a failed Run settles as `provider_<category>`. */
export const PROVIDER_FAILURE_CATEGORIES = [
  "authentication",
  "rate_limit",
  "context_overflow",
  "invalid_request",
  "timeout",
  "network",
  "server",
  "cancelled",
  "protocol",
  // The provider's circuit breaker is open: the call failed fast, nothing was sent.
  "circuit_open",
  "unknown",
] as const;

/** Why a Run settled the way it did (`run.settled.reasonCode`, `Run.reasonCode`). */
export const RUN_REASON_CODES: readonly RunReasonCode[] = [
  "cancelled",
  "context_budget_exceeded",
  "model_input_unavailable",
  "protected_value",
  "agent_error",
  "provider_protocol",
  "provider_unavailable",
  "runtime_interrupted",
  "runtime_shutdown",
  "model_not_configured",
  "model_selection_required",
  "provider_configuration_changed",
  "model_configuration_changed",
  "execution_policy_changed",
  // The model stopped at its output limit (finish_reason "length"): the answer is cut.
  "model_output_limit",
  "tool_sandbox_unavailable",
  // The policy gate saw the model repeat a call without progress (issue 14); until
  // approvals exist the Run stops instead of waiting for the user.
  "loop_detected",
  "budget_exceeded",
  ...PROVIDER_FAILURE_CATEGORIES.map((category) => `provider_${category}` as const),
];

/** Memory operation and recall reason codes (seed 000 §6.16). */
export const MEMORY_REASON_CODES = [
  "memory_not_found",
  "memory_revision_conflict",
  "memory_forgotten",
  "memory_idempotency_conflict",
  "memory_source_unavailable",
  "memory_retrieval_overflow",
  "memory_snapshot_unavailable",
] as const;

/** Why `file.preview` (or `file.change.get`) could not show a file (seed 000 §14). */
export const FILE_UNAVAILABLE_REASONS = [
  "file_not_found",
  "not_a_file",
  "binary_file",
  "unsupported_encoding",
  "too_large",
  "scan_limit",
  "revision_changed",
  "protected_content",
  "outside_workspace",
  "change_not_recorded",
  "capture_too_large",
] as const;

/** Error codes of managed processes and process tools. */
export const PROCESS_ERROR_CODES = [
  "terminated",
  "runtime_recovered",
  "runtime_interrupted",
  "process_recovered",
  "supervise_storm",
  "supervise_unavailable",
  "spawn_failed",
  "timeout",
] as const;

/** Reason codes of JSON-RPC errors that are not memory or provider failures. */
export const REQUEST_REASON_CODES = [
  // decoding (strict JSON codec)
  "invalid_json",
  "message_too_large",
  "nesting_too_deep",
  "non_finite_number",
  "unsafe_integer",
  // envelope and dispatch
  "invalid_request",
  "method_not_found",
  "invalid_params",
  "unknown_field",
  "batch_too_large",
  "internal_error",
  // session
  "not_initialized",
  "unsupported_protocol_version",
  "already_initialized",
  "shutting_down",
  // domain
  "thread_not_found",
  "branch_not_found",
  "turn_not_found",
  // turn.revert of a turn whose Run is still queued, running or waiting.
  "turn_active",
  // branch.create from a turn that belongs to another thread than the one named.
  "turn_not_in_thread",
  "run_not_found",
  "item_not_found",
  "process_not_found",
  "thread_archived",
  "thread_busy",
  // thread.compact's summary call failed (the provider's message says why); nothing changed.
  "compaction_failed",
  "run_not_active",
  "run_not_resumable",
  "run_mismatch",
  "idempotency_conflict",
  "invalid_cursor",
  "workspace_unavailable",
  "attachment_invalid",
  "model_not_configured",
  "model_selection_required",
  "provider_not_found",
  "provider_builtin",
  "model_not_found",
  "skill_not_found",
  // mcp.* names a server config.yaml does not have.
  "mcp_server_not_found",
  "config_invalid",
  // A model's fallback names no configured, enabled model, or the model itself.
  "model_fallback_invalid",
  "protected_value",
  "permission_denied",
  "permission_rule_changed",
  // approvals
  "approval_not_found",
  "approval_already_resolved",
  "approval_decision_invalid",
  // approval.respond with an `answer`: no pending question by that id (an unknown id, or an
  // approval that is not an `ask_user` question), one answered or cancelled before, or an
  // answer the question does not accept (missing, not one of its choices, several for one).
  "question_not_found",
  "question_already_answered",
  "question_answer_invalid",
  // gateway.key.* names a key the runtime does not have.
  "gateway_key_not_found",
  // gateway.key.create when GATEWAY_KEYS_MAX_COUNT keys exist.
  "gateway_keys_full",
  // A gateway key profile names a tool the runtime does not have.
  "tool_not_found",
  // turn.start clientTools names a tool the runtime has (or the same name twice).
  "client_tool_conflict",
  // run.submit_tool_result names no client call the Run waits for.
  "tool_call_not_pending",
  // thread.create with a source from a client: only the runtime's gateway sets one.
  "thread_source_reserved",
  // channel.test / channel.reset_binding on a channel channels.yaml does not configure.
  "channel_not_configured",
  // channel.configure values channels.yaml refuses (a malformed token, a bad URL).
  "channels_config_invalid",
  // Telegram refused the bot token (getMe 401/404).
  "telegram_unauthorized",
  // The Bot API could not be reached (network, timeout, 5xx).
  "telegram_unreachable",
  // agent.*, thread.create/set_agent name a profile that does not exist.
  "agent_not_found",
  // agent.remove of a built-in profile that has no saved copy.
  "agent_builtin",
  // agent.save with a permission preset above config.yaml's `permissions.preset`.
  "agent_permission_too_wide",
] as const;

/** Every reason code a JSON-RPC error's `data.reasonCode` may carry. */
export const ERROR_REASON_CODES: readonly ErrorReasonCode[] = [
  ...REQUEST_REASON_CODES,
  ...MEMORY_REASON_CODES,
  ...PROVIDER_FAILURE_CATEGORIES.map((category) => `provider_${category}` as const),
];
