/**
 * Closed vocabularies of the protocol that callers need as lists. Their schemas (and
 * those of the statuses, kinds and modes) are exported with the other message schemas.
 *
 * @module
 */

/**
 * The 23 built-in tool ids the model can call (seed 000 §6.9–§6.10, and issue 21's `ask_user`
 * and `plan`).
 */
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
  "ask_user",
  "plan",
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

/** What a permission rule decides: run the call, ask the user first, or refuse it. */
export const PERMISSION_DECISIONS = ["allow", "ask", "deny"] as const;

/**
 * The permission presets, each a list of rules: `read_only`, `ask` (the default of new
 * threads), `workspace_write` and `full_access`.
 */
export const PERMISSION_PRESETS = ["read_only", "ask", "workspace_write", "full_access"] as const;

/**
 * The tool groups a permission rule may name instead of one tool id: the tools' risk
 * classes (each built-in tool has exactly one), spelled `group:<class>` in a rule because
 * `read`, `write` and `memory` are also tool ids.
 */
export const PERMISSION_TOOL_GROUPS = [
  "group:read",
  "group:write",
  "group:process",
  "group:session",
  "group:memory",
] as const;

/**
 * Why a Run waits for the user: a rule asks about a call, a high-risk command, a repeating
 * model, a budget reached, or the model asked the user a question (`ask_user`).
 */
export const APPROVAL_REASON_CODES = [
  "permission_ask",
  "high_risk_command",
  "loop_detected",
  "budget_reached",
  "user_question",
] as const;

/** What a Run budget limits. */
export const BUDGET_KINDS = ["tokens", "costUsd", "modelCalls", "wallTimeSeconds"] as const;

/**
 * The answers an approval offers for each reason it asks. A rule's `ask` can become a rule
 * (for the thread or everywhere); a dangerous command or a repeating model is judged call by
 * call, so no rule may wave the next one through.
 */
export const APPROVAL_DECISIONS_BY_REASON: Readonly<
  Record<
    (typeof APPROVAL_REASON_CODES)[number],
    readonly ("allow_once" | "allow_thread" | "allow_always" | "deny")[]
  >
> = {
  permission_ask: ["allow_once", "allow_thread", "allow_always", "deny"],
  high_risk_command: ["allow_once", "deny"],
  loop_detected: ["allow_once", "deny"],
  // Continue with the extension, or stop the Run (`budget_exceeded`).
  budget_reached: ["allow_once", "deny"],
  // Answer it (allow_once with the answer, which becomes the call's result), or decline.
  user_question: ["allow_once", "deny"],
};
