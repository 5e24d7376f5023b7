import type { z } from "zod";
import type { Item, JournalEvent } from "@daedalus/protocol";
import { readRunConfig, type StateStore } from "@daedalus/storage";
import type { LoopTool, LoopToolResult } from "../loop/tools.ts";
import type { Scheduler } from "../scheduler/scheduler.ts";
import { modelParameterSchema } from "../tools/model_schema.ts";

/** Longest slice text a session read returns, in characters. */
export const SESSION_READ_MAX_CHARS = 24_000;
/** Items a session read returns at most (the anchor and 20 on each side). */
export const SESSION_READ_MAX_ITEMS = 41;
/** Longest chain of cross-thread messages (THREAD_SEND_MAX_HOPS). */
export const THREAD_SEND_MAX_HOPS = 3;
/** Non-blocking sub-agents one Run may have alive at once. */
export const SUBAGENTS_LIVE_MAX = 4;

/** What the session tools share. */
export interface SessionToolDeps {
  /** The state store. */
  store: StateStore;
  /** Publishes committed events. */
  publish: (events: readonly JournalEvent[]) => void;
  /** The scheduler (queue, inline runs, cancel). */
  scheduler: Scheduler;
  /** Where managed workspaces are made. */
  workspacesRoot: string;
  /** Deepest sub-agent nesting (`DAEDALUS_SUBAGENT_MAX_DEPTH`, default 2). */
  subagentMaxDepth: number;
}

/**
 * The refusal of a session-changing tool outside `full_access` (approvals come
 * later), or null when the Run may use it.
 */
export function fullAccessRefusal(
  store: StateStore,
  runId: string,
  tool: string,
): LoopToolResult | null {
  const policy = String(
    store.read((db) => readRunConfig(db, runId)).executionPolicy ?? "full_access",
  );
  return policy === "full_access" ? null : toolError(
    "permission_denied",
    `${tool} changes sessions and needs full_access; this run is ${policy}`,
  );
}

/** A tool failure the model reads. */
export function toolError(code: string, message: string): LoopToolResult {
  return { content: `${code}: ${message}`, isError: true, details: { errorCode: code } };
}

/**
 * Builds a LoopTool from a zod schema and a handler; bad arguments become a
 * model-readable error naming the field.
 */
export function sessionTool<S extends z.ZodType>(
  definition: {
    name: string;
    description: string;
    params: S;
    mutating: boolean;
    run: (params: z.infer<S>, context: Parameters<LoopTool["run"]>[1]) => Promise<LoopToolResult>;
  },
): LoopTool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: modelParameterSchema(definition.params),
    mutating: definition.mutating,
    run: async (args, context) => {
      const parsed = definition.params.safeParse(args);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return toolError(
          "invalid_arguments",
          `${issue?.path.join(".") || "arguments"}: ${issue?.message}`,
        );
      }
      try {
        return await definition.run(parsed.data, context);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const reason = (error as { data?: { reasonCode?: string } }).data?.reasonCode;
        return toolError(
          typeof reason === "string" ? reason : typeof code === "string" ? code : "tool_failed",
          (error as Error).message,
        );
      }
    },
  };
}

/**
 * Formats items for the model: one header line each, content cut so the whole text
 * stays within {@linkcode SESSION_READ_MAX_CHARS}.
 */
export function formatItems(items: readonly Item[]): { text: string; truncated: boolean } {
  const lines: string[] = [];
  let used = 0;
  let truncated = false;
  for (const item of items) {
    const header = `[${item.id} ${item.kind}${item.role ? ` ${item.role}` : ""} ${item.status}]`;
    const body = item.kind === "tool_call"
      ? `${String(item.data.toolId ?? "")} ${JSON.stringify(item.data.arguments ?? {})}`
      : item.content;
    let entry = `${header} ${body}`;
    const room = SESSION_READ_MAX_CHARS - used;
    if (entry.length > room) {
      entry = entry.slice(0, Math.max(0, room - 20)) + " …[cut]";
      truncated = true;
    }
    lines.push(entry);
    used += entry.length + 1;
    if (used >= SESSION_READ_MAX_CHARS) {
      truncated = true;
      break;
    }
  }
  return { text: lines.join("\n"), truncated };
}
