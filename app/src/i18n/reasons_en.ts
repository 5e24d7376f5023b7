/**
 * English explanations of the protocol's reason codes, keyed `reason.<group>.<code>`:
 * `run` (RUN_REASON_CODES), `error` (ERROR_REASON_CODES), `file`
 * (FILE_UNAVAILABLE_REASONS) and `process` (PROCESS_ERROR_CODES). A test checks that every
 * code has copy in every locale.
 *
 * @module
 */
export const reasonsEn = {
  // Runs
  "reason.run.cancelled": "The run was stopped before it finished.",
  "reason.run.context_budget_exceeded":
    "The conversation no longer fits the model's context window. To continue: Compact now, " +
    "turn compaction on, or start a new thread.",
  "reason.run.model_input_unavailable":
    "Part of the model input (an attachment or a recalled memory) is no longer available.",
  "reason.run.protected_value":
    "The run was stopped because a protected value (such as an API key) would have been sent or shown.",
  "reason.run.agent_error": "The agent hit an internal error and could not continue.",
  "reason.run.provider_protocol":
    "The model provider answered with something the runtime could not understand.",
  "reason.run.provider_unavailable": "The model provider could not be reached.",
  "reason.run.runtime_interrupted":
    "The runtime stopped unexpectedly while this run was in progress.",
  "reason.run.runtime_shutdown": "The runtime was shut down while this run was in progress.",
  "reason.run.model_not_configured":
    "No usable model is configured. Connect a provider and enable a model in settings.",
  "reason.run.model_selection_required": "Choose a model for this thread before sending.",
  "reason.run.provider_configuration_changed":
    "The provider's settings changed while the run was waiting.",
  "reason.run.model_configuration_changed":
    "The model's settings changed while the run was waiting.",
  "reason.run.execution_policy_changed": "The execution policy changed while the run was waiting.",
  "reason.run.model_output_limit":
    "The answer reached the model's output limit and was cut off. Ask for a shorter answer or continue in a new message.",
  "reason.run.tool_sandbox_unavailable":
    "The permission sandbox that runs file tools in this mode could not start or stopped, so the run could not go on.",
  "reason.run.budget_exceeded":
    "The run reached a budget you set and you chose to stop it. Send again to start a new run with a fresh budget (budgets are set in config.yaml).",
  "reason.run.loop_detected":
    "The model kept repeating the same tool call without progress, so the run was stopped.",
  "reason.run.provider_authentication":
    "The provider rejected the credentials. Check the API key in settings.",
  "reason.run.provider_rate_limit":
    "The provider is rate-limiting requests. Wait a moment and try again.",
  "reason.run.provider_context_overflow": "The request was larger than the model's context window.",
  "reason.run.provider_invalid_request": "The provider rejected the request as invalid.",
  "reason.run.provider_timeout": "The provider took too long to answer.",
  "reason.run.provider_network": "A network error interrupted the connection to the provider.",
  "reason.run.provider_server": "The provider had a server error.",
  "reason.run.provider_cancelled": "The provider cancelled the request.",
  "reason.run.provider_unknown": "The provider failed for an unknown reason.",
  "reason.run.provider_circuit_open":
    "The provider failed too often and is paused for a moment; try again shortly.",
  // JSON-RPC errors
  "reason.error.invalid_json": "The request was not valid JSON.",
  "reason.error.message_too_large": "The message was too large.",
  "reason.error.nesting_too_deep": "The request was nested too deeply.",
  "reason.error.non_finite_number": "The request contained a number that is not finite.",
  "reason.error.unsafe_integer": "The request contained an integer too large to be exact.",
  "reason.error.invalid_request": "The request was malformed.",
  "reason.error.method_not_found": "The runtime does not know this operation.",
  "reason.error.invalid_params": "The request's parameters were invalid.",
  "reason.error.unknown_field": "The request contained an unknown field.",
  "reason.error.batch_too_large": "Too many requests were sent at once.",
  "reason.error.internal_error": "The runtime hit an internal error.",
  "reason.error.not_initialized": "The connection was not initialized yet.",
  "reason.error.unsupported_protocol_version":
    "This app and the runtime speak different protocol versions. Reload the page.",
  "reason.error.already_initialized": "The connection was already initialized.",
  "reason.error.shutting_down": "The runtime is shutting down.",
  "reason.error.thread_not_found": "This thread no longer exists.",
  "reason.error.branch_not_found": "This branch no longer exists.",
  "reason.error.turn_not_found": "This turn no longer exists.",
  "reason.error.turn_not_in_thread": "That turn belongs to another conversation.",
  "reason.error.turn_active":
    "This turn is still running: stop it or wait until it ends, then try again.",
  "reason.error.run_not_found": "This run no longer exists.",
  "reason.error.item_not_found": "This item no longer exists.",
  "reason.error.process_not_found": "This process no longer exists.",
  "reason.error.thread_archived": "This thread is archived. Unarchive it to continue.",
  "reason.error.thread_busy": "This thread has a run in progress. Wait for it or stop it.",
  "reason.error.compaction_failed":
    "The summary could not be made (the model call failed); nothing was changed. Try again.",
  "reason.error.run_not_active": "This run has already finished.",
  "reason.error.run_not_resumable":
    "This run cannot be resumed: only the latest failed or cancelled run of a thread can continue.",
  "reason.error.approval_not_found": "This approval request no longer exists.",
  "reason.error.approval_already_resolved": "This request was already answered or cancelled.",
  "reason.error.approval_decision_invalid": "This request does not accept that answer.",
  "reason.error.question_not_found": "This question no longer exists.",
  "reason.error.question_already_answered": "This question was already answered or cancelled.",
  "reason.error.question_answer_invalid":
    "This question does not accept that answer. Pick one of its choices, or type an answer.",
  "reason.error.permission_rule_changed":
    "The rules changed since this list was shown; nothing was removed. The list now shows what is stored.",
  "reason.error.run_mismatch": "The run does not belong to this thread.",
  "reason.error.idempotency_conflict": "A retried request did not match the original one.",
  "reason.error.invalid_cursor": "The page position is no longer valid. Reload the list.",
  "reason.error.workspace_unavailable": "The thread's workspace folder is not available.",
  "reason.error.attachment_invalid": "An attachment was rejected (at most 8 files of 8 MiB each).",
  "reason.error.model_not_configured":
    "No usable model is configured. Connect a provider and enable a model in settings.",
  "reason.error.model_selection_required": "Choose a model before sending.",
  "reason.error.provider_not_found": "This provider no longer exists.",
  "reason.error.provider_builtin": "Built-in providers cannot be removed.",
  "reason.error.model_not_found": "This model no longer exists.",
  "reason.error.skill_not_found": "This skill no longer exists.",
  "reason.error.mcp_server_not_found": "This MCP server is not configured.",
  "reason.error.gateway_key_not_found": "This gateway key does not exist.",
  "reason.error.gateway_keys_full": "There are too many gateway keys; remove revoked ones first.",
  "reason.error.thread_source_reserved":
    "Only the runtime's gateway can mark where a thread came from.",
  "reason.error.channel_not_configured": "This channel is not configured yet.",
  "reason.error.channels_config_invalid":
    "The channel settings are not valid; check the token and the URLs.",
  "reason.error.telegram_unauthorized":
    "Telegram refused the bot token; paste the token BotFather gave you.",
  "reason.error.telegram_unreachable":
    "Telegram could not be reached; check the network or the proxy.",
  "reason.error.tool_not_found": "This tool does not exist in the runtime.",
  "reason.error.agent_not_found": "This agent profile does not exist.",
  "reason.error.agent_builtin":
    "A built-in agent profile cannot be removed; save a copy to change it.",
  "reason.error.agent_permission_too_wide":
    "This permission is wider than your settings allow for agent profiles.",
  "reason.error.client_tool_conflict":
    "A client tool has the name of one of the runtime's tools (or the same name twice).",
  "reason.error.tool_call_not_pending": "That tool call is not waiting for a result.",
  "reason.error.config_invalid": "The configuration is invalid.",
  "reason.error.model_fallback_invalid":
    "The fallback model must be another configured, enabled model.",
  "reason.error.protected_value": "The value is protected and cannot be shown or sent.",
  "reason.error.permission_denied": "Permission denied.",
  "reason.error.memory_not_found": "This memory no longer exists.",
  "reason.error.memory_revision_conflict":
    "This memory was changed elsewhere. Reload it and try again.",
  "reason.error.memory_forgotten": "This memory has been forgotten.",
  "reason.error.memory_idempotency_conflict":
    "A retried memory change did not match the original one.",
  "reason.error.memory_source_unavailable": "The memory's source is no longer available.",
  "reason.error.memory_retrieval_overflow": "Too many memories matched to recall them all.",
  "reason.error.memory_snapshot_unavailable": "The memory snapshot is not available.",
  "reason.error.provider_authentication":
    "The provider rejected the credentials. Check the API key.",
  "reason.error.provider_rate_limit": "The provider is rate-limiting requests.",
  "reason.error.provider_context_overflow":
    "The request was larger than the model's context window.",
  "reason.error.provider_invalid_request": "The provider rejected the request as invalid.",
  "reason.error.provider_timeout": "The provider took too long to answer.",
  "reason.error.provider_network": "The provider could not be reached over the network.",
  "reason.error.provider_server": "The provider had a server error.",
  "reason.error.provider_cancelled": "The provider cancelled the request.",
  "reason.error.provider_protocol": "The provider's answer could not be understood.",
  "reason.error.provider_unknown": "The provider failed for an unknown reason.",
  "reason.error.provider_circuit_open":
    "The provider failed too often and is paused for a moment; try again shortly.",
  // File preview
  "reason.file.file_not_found": "The file does not exist.",
  "reason.file.not_a_file": "This path is not a regular file.",
  "reason.file.binary_file": "This is a binary file and cannot be previewed.",
  "reason.file.unsupported_encoding": "The file's text encoding is not supported.",
  "reason.file.too_large": "The file is too large to preview.",
  "reason.file.scan_limit": "The file is too large to scan for this page.",
  "reason.file.revision_changed": "The file changed since this view was opened.",
  "reason.file.protected_content": "The file contains protected content and is not shown.",
  "reason.file.outside_workspace": "The file is outside the thread's workspace.",
  "reason.file.change_not_recorded": "No before/after copy was recorded for this change.",
  "reason.file.capture_too_large": "The change was too large to record a before/after copy.",
  // Processes
  "reason.process.terminated": "The process was stopped.",
  "reason.process.runtime_recovered":
    "The runtime restarted; the process's state was recovered afterwards.",
  "reason.process.runtime_interrupted": "The runtime stopped while the process was running.",
  "reason.process.process_recovered": "The process was found again after a restart.",
  "reason.process.supervise_storm": "The process kept failing and was not restarted again.",
  "reason.process.supervise_unavailable": "Process supervision is not available.",
  "reason.process.spawn_failed": "The process could not be started.",
  "reason.process.timeout": "The process did not finish in time.",
} as const;
