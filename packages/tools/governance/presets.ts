/**
 * The permission presets as rule lists: what the Run modes meant before rules existed
 * (`read_only`, `workspace_write`, `full_access`) and the new default, `ask`. Each is its
 * rules plus the decision when none matches; rules from config.yaml and threads are
 * checked after them, so they win.
 *
 * @module
 */
import type { PermissionDecision, PermissionPreset, PermissionRule } from "@daedalus/protocol";

/** A preset: its rules, and the decision when none of them (nor any later rule) matches. */
export interface PermissionPresetRules {
  /** The decision when no rule matches. */
  readonly fallback: PermissionDecision;
  /** The rules, in order (the last match wins). */
  readonly rules: readonly PermissionRule[];
}

/** The preset of a new thread when nothing is configured (issue 14: `ask`). */
export const DEFAULT_PERMISSION_PRESET: PermissionPreset = "ask";

// Reads that touch no path (the session reads) ran in every mode and still do; a relative
// glob matches only paths inside the workspace, so reads outside fall to the fallback.
// Named one by one, not as group:read: a future read tool without a path (an MCP tool)
// must be allowed on purpose, not by default.
const SESSION_READS: readonly PermissionRule[] = [
  { tool: "history_read", decision: "allow" },
  { tool: "thread_list", decision: "allow" },
  { tool: "thread_read", decision: "allow" },
];

const READS_INSIDE_ONLY: readonly PermissionRule[] = [
  ...SESSION_READS,
  { tool: "group:read", pattern: "**", decision: "allow" },
];

/**
 * Under `ask`, the process tools that only watch, wait for, stop or resize a process of this
 * thread run without asking: its start was the decision. Writing to its input is another
 * command (a shell reads it), so `process_write` still asks.
 */
const FOLLOW_STARTED_PROCESSES: readonly PermissionRule[] = [
  { tool: "process_read", decision: "allow" },
  { tool: "process_wait", decision: "allow" },
  { tool: "process_stop", decision: "allow" },
  { tool: "process_resize", decision: "allow" },
];

/** The user's long-term memory is not the workspace: every mode has used it. */
const MEMORY: PermissionRule = { tool: "group:memory", decision: "allow" };

/**
 * Talking with the user touches nothing: a question (answered by the user, who is asked
 * anyway) and the plan the user sees run in every mode.
 */
const CONVERSATION: readonly PermissionRule[] = [
  { tool: "ask_user", decision: "allow" },
  { tool: "plan", decision: "allow" },
];

/**
 * Every preset's rules. `read_only`: reads inside the workspace (and memory), nothing else.
 * `workspace_write`: reads and writes inside, no commands or session changes, nothing
 * outside. `ask`: reads and writes inside and memory run; starting commands, writing to
 * them, session changes and anything outside the workspace ask (watching a started
 * process does not). `full_access`: everything runs.
 */
export const PERMISSION_PRESET_RULES: Readonly<Record<PermissionPreset, PermissionPresetRules>> = {
  read_only: { fallback: "deny", rules: [...READS_INSIDE_ONLY, MEMORY, ...CONVERSATION] },
  workspace_write: {
    fallback: "deny",
    rules: [
      ...READS_INSIDE_ONLY,
      { tool: "group:write", pattern: "**", decision: "allow" },
      MEMORY,
      ...CONVERSATION,
    ],
  },
  ask: {
    fallback: "ask",
    rules: [
      ...READS_INSIDE_ONLY,
      { tool: "group:write", pattern: "**", decision: "allow" },
      ...FOLLOW_STARTED_PROCESSES,
      MEMORY,
      ...CONVERSATION,
    ],
  },
  full_access: { fallback: "allow", rules: [{ tool: "*", decision: "allow" }] },
};
