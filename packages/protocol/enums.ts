/**
 * Closed vocabularies of the protocol: tool ids, statuses, kinds and modes.
 *
 * @module
 */
import { z } from "zod";

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
/** A built-in tool id. */
export const ToolId = z.enum(TOOL_IDS);
/** A built-in tool id. */
export type ToolId = z.infer<typeof ToolId>;

/** Lifecycle of Turns and Runs: queued → running → completed | failed | cancelled. */
export const RunStatus = z.enum(["queued", "running", "completed", "failed", "cancelled"]);
/** Lifecycle of Turns and Runs. */
export type RunStatus = z.infer<typeof RunStatus>;
/** Turns share the Run lifecycle. */
export const TurnStatus = RunStatus;
/** Turns share the Run lifecycle. */
export type TurnStatus = RunStatus;

/** The terminal statuses a Run settles in. */
export const SettledStatus = z.enum(["completed", "failed", "cancelled"]);
/** A terminal Run status. */
export type SettledStatus = z.infer<typeof SettledStatus>;

/** Item lifecycle: messages stream, tool calls run, then each ends in a terminal status. */
export const ItemStatus = z.enum(["streaming", "running", "completed", "failed", "cancelled"]);
/** Item lifecycle. */
export type ItemStatus = z.infer<typeof ItemStatus>;

/** What an Item is. */
export const ItemKind = z.enum(["message", "tool_call", "tool_result"]);
/** What an Item is. */
export type ItemKind = z.infer<typeof ItemKind>;

/** Who an Item speaks for. */
export const ItemRole = z.enum(["user", "assistant", "tool"]);
/** Who an Item speaks for. */
export type ItemRole = z.infer<typeof ItemRole>;

/** A Run's frozen permission mode, narrowest first. */
export const ExecutionPolicy = z.enum(["read_only", "workspace_write", "full_access"]);
/** A Run's frozen permission mode. */
export type ExecutionPolicy = z.infer<typeof ExecutionPolicy>;

/** Reasoning effort levels a model may accept, sent as `reasoning_effort`. */
export const ReasoningEffort = z.enum([
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
  "ultra",
]);
/** A reasoning effort level. */
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

/** Why a model call was made. */
export const ModelCallPurpose = z.enum(["execution", "compression", "completion_check"]);
/** Why a model call was made. */
export type ModelCallPurpose = z.infer<typeof ModelCallPurpose>;

/** Managed process states: only an observed exit is `exited`. */
export const ProcessState = z.enum(["running", "exited", "terminated", "unknown"]);
/** A managed process state. */
export type ProcessState = z.infer<typeof ProcessState>;

/** What a memory records. */
export const MemoryKind = z.enum(["fact", "preference", "relationship", "project"]);
/** What a memory records. */
export type MemoryKind = z.infer<typeof MemoryKind>;

/** Whether a memory is readable or a content-erased tombstone. */
export const MemoryState = z.enum(["active", "forgotten"]);
/** Whether a memory is readable. */
export type MemoryState = z.infer<typeof MemoryState>;

/** Where a memory revision came from. */
export const MemorySourceKind = z.enum(["user_explicit", "session_item", "auto_extracted"]);
/** Where a memory revision came from. */
export type MemorySourceKind = z.infer<typeof MemorySourceKind>;
