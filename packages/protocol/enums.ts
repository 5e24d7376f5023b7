/**
 * Closed vocabularies of the protocol that callers need as lists. Their schemas (and
 * those of the statuses, kinds and modes) are exported with the other message schemas.
 *
 * @module
 */

/** The 21 built-in tool ids the model can call (seed 000 §6.9–§6.10). */
export const TOOL_IDS = [
  "read",
  "write",
  "edit",
  "glob",
  "grep",
  "list",
  "history_read",
  "memory",
  "process_start",
  "process_read",
  "process_wait",
  "process_stop",
  "process_write",
  "process_resize",
  "thread_create",
  "thread_rename",
  "thread_archive",
  "thread_send",
  "thread_list",
  "thread_read",
  "subagent",
] as const;

/**
 * Reasoning effort levels a model may accept, sent as `reasoning_effort`; the values of
 * the `ReasoningEffort` schema, for code that builds its own schemas (e.g. config files).
 */
export const REASONING_EFFORTS = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
  "ultra",
] as const;
