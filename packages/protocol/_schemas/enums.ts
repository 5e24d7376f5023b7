/**
 * Closed vocabularies of the protocol: tool ids, statuses, kinds and modes.
 *
 * @module
 */
import { z } from "zod";
import { APPROVAL_REASON_CODES, REASONING_EFFORTS, TOOL_IDS } from "../enums.ts";
import { docs } from "./docs.ts";

export const ToolId = z.enum(TOOL_IDS).register(docs, {
  description: "A built-in tool id, one of `TOOL_IDS`.",
});

const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "completed",
  "failed",
  "cancelled",
] as const;

export const RunStatus = z.enum(RUN_STATUSES).register(docs, {
  description: "Lifecycle of Turns and Runs: queued → running → completed | failed | cancelled; " +
    "a running Run may pause as `waiting` (for the user's approval, holding no worker) and " +
    "return to running. `waiting` is not settled.",
});

export const TurnStatus = z.enum(RUN_STATUSES).register(docs, {
  description: "Turns share the Run lifecycle.",
});

export const SettledStatus = z.enum(["completed", "failed", "cancelled"]).register(docs, {
  description: "The terminal statuses a Run settles in.",
});

export const ItemStatus = z.enum(["streaming", "running", "completed", "failed", "cancelled"])
  .register(docs, {
    description:
      "Item lifecycle: messages stream, tool calls run, then each ends in a terminal status.",
  });

export const ItemKind = z.enum(["message", "tool_call", "tool_result"]).register(docs, {
  description: "What an Item is.",
});

export const ItemRole = z.enum(["user", "assistant", "tool"]).register(docs, {
  description: "Who an Item speaks for.",
});

export const ExecutionPolicy = z.enum(["read_only", "workspace_write", "ask", "full_access"])
  .register(docs, {
    description: "A Run's frozen permission mode, narrowest first; each is the permission " +
      "preset of the same name. `ask` (the default) runs reads and writes inside the workspace " +
      "and asks the user for commands, session changes and anything outside it.",
  });

export const ReasoningEffort = z.enum(REASONING_EFFORTS).register(docs, {
  description: "Reasoning effort levels a model may accept, sent as `reasoning_effort`.",
});

export const ModelCallPurpose = z.enum(["execution", "compression", "completion_check"])
  .register(docs, { description: "Why a model call was made." });

export const ProcessState = z.enum(["running", "exited", "terminated", "unknown"]).register(docs, {
  description: "Managed process states: only an observed exit is `exited`.",
});

export const MemoryKind = z.enum(["fact", "preference", "relationship", "project"]).register(docs, {
  description: "What a memory records.",
});

export const MemoryState = z.enum(["active", "forgotten"]).register(docs, {
  description: "Whether a memory is readable or a content-erased tombstone.",
});

export const MemorySourceKind = z.enum(["user_explicit", "session_item", "auto_extracted"])
  .register(docs, { description: "Where a memory revision came from." });

export const ToolRisk = z.enum(["read", "write", "process", "session", "memory"]).register(docs, {
  description: "A tool's risk class.",
});

export const ApprovalStatus = z.enum(["pending", "allowed", "denied", "cancelled"]).register(docs, {
  description: "An approval's lifecycle: pending until the user answers (allowed, denied) or " +
    "its Run ends first (cancelled).",
});

export const ApprovalDecision = z.enum(["allow_once", "allow_thread", "allow_always", "deny"])
  .register(docs, {
    description: "The user's answer to an approval: run this one call; run it and allow such " +
      "calls in this thread (a thread rule) or everywhere (a config.yaml rule); or refuse it.",
  });

export const ApprovalReasonCode = z.enum(APPROVAL_REASON_CODES)
  .register(docs, {
    description: "Why a call needs the user: a permission rule asks, the command is high-risk, " +
      "or the model repeats itself.",
  });
