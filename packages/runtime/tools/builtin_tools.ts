/**
 * The built-in tools of @daedalus/tools as the loop runs them: each call gets a
 * ToolContext built from the Run (thread workspace, frozen permission mode, the
 * artifacts folder, cancellation, credentials), goes through `executeTool`, and its
 * facts are committed with its result.
 *
 * Permission modes: `read_only` refuses writes, `read_only` and `workspace_write` refuse
 * commands and session changes (the checks here), and both are sealed to the workspace
 * by the tools' own access rules (`@daedalus/tools` `files/access.ts`: real paths,
 * handles verified after opening, the protected home files refused in every mode), inside
 * a permission-narrowed Worker (`sandbox.ts`) whose Deno permissions are the second wall.
 * A refusal is a tool error (`permission_denied`) the model reads, never a crashed Run; a
 * sandbox that cannot run the call fails the Run (`tool_sandbox_unavailable`).
 *
 * @module
 */
import type { ExecutionPolicy } from "@daedalus/protocol";
import { getThread, readRunConfig, type StateStore } from "@daedalus/storage";
import {
  executeTool,
  FILE_TOOLS,
  type ToolDefinition,
  type ToolFacts,
  type ToolResult,
} from "@daedalus/tools";
import { SANDBOX_UNAVAILABLE, type ToolSandboxes } from "./sandbox.ts";
import { modelParameterSchema } from "./model_schema.ts";
import type { LoopTool, LoopToolContext, LoopToolResult } from "../loop/tools.ts";

/** What the built-in tools need from the runtime. */
export interface BuiltinToolDeps {
  /** The state store. */
  store: StateStore;
  /** `<home>/artifacts`. */
  artifactsRoot: string;
  /** Configured credentials. */
  protectedValues: { find(text: string): boolean; redact(text: string): string };
  /**
   * `<home>/config.yaml`, `auth.json`, `sessions.json`: the tools refuse them in every mode
   * (absent: none; the runtime always passes them).
   */
  protectedFiles?: readonly string[];
  /** Sandboxes for the narrowed modes (absent: the checks below only). */
  sandboxes?: ToolSandboxes;
}

/**
 * The file and search tools, ready for the loop.
 *
 * @param deps store, artifacts folder, credentials
 * @returns read, write, edit, list, glob, grep
 */
export function createFileTools(deps: BuiltinToolDeps): LoopTool[] {
  return FILE_TOOLS.map((tool) => adaptTool(tool as ToolDefinition<unknown>, deps));
}

/**
 * Wraps one tool definition for the loop.
 *
 * @param tool the definition
 * @param deps store, artifacts folder, credentials
 * @returns the loop tool
 */
export function adaptTool(tool: ToolDefinition<unknown>, deps: BuiltinToolDeps): LoopTool {
  return {
    name: tool.id,
    description: tool.description,
    parameters: modelParameterSchema(tool.params),
    mutating: tool.mutating,
    run: async (args: unknown, context: LoopToolContext): Promise<LoopToolResult> => {
      const config = deps.store.read((db) => readRunConfig(db, context.runId));
      const policy = String(config.executionPolicy ?? "full_access") as ExecutionPolicy;
      const { thread } = deps.store.read((db) => getThread(db, context.threadId));
      const workspaceRoot = thread.workspace?.rootUri ?? Deno.cwd();
      const refusal = permissionRefusal(tool, policy);
      if (refusal) {
        return { content: refusal, isError: true, details: { errorCode: "permission_denied" } };
      }
      if (policy !== "full_access" && deps.sandboxes) {
        const sandboxed = await deps.sandboxes.run(policy, tool.id, args, {
          threadId: context.threadId,
          runId: context.runId,
          itemId: context.itemId,
          workspaceRoot,
          signal: context.signal,
        });
        const result = toLoopResult(sandboxed.result, sandboxed.facts);
        // No sandbox, no call: the Run cannot honour its mode, so it fails visibly.
        return sandboxed.result.errorCode === SANDBOX_UNAVAILABLE
          ? { ...result, runFailure: "tool_sandbox_unavailable" }
          : result;
      }
      const facts: ToolFacts = { fileChanges: [], processes: [] };
      const result = await executeTool(tool, args, {
        threadId: context.threadId,
        runId: context.runId,
        itemId: context.itemId,
        workspaceRoot,
        artifactsRoot: deps.artifactsRoot,
        executionPolicy: policy,
        protectedFiles: deps.protectedFiles ?? [],
        signal: context.signal,
        protectedValues: deps.protectedValues,
        facts,
      });
      return toLoopResult(result, facts);
    },
  };
}

function toLoopResult(result: ToolResult, facts: ToolFacts): LoopToolResult {
  return {
    content: result.content,
    isError: result.isError,
    details: { ...result.details, ...(result.errorCode ? { errorCode: result.errorCode } : {}) },
    facts: { fileChanges: facts.fileChanges },
  };
}

/**
 * Why a narrowed permission mode refuses this kind of call, or null when it may run (which
 * paths it may touch, the tool decides under its access rules).
 */
function permissionRefusal(tool: ToolDefinition<unknown>, policy: ExecutionPolicy): string | null {
  if (policy === "full_access") return null;
  if (tool.risk !== "read" && policy === "read_only") {
    return `permission_denied: ${tool.id} writes, and this run is read_only`;
  }
  if (tool.risk === "process" || tool.risk === "session") {
    return `permission_denied: ${tool.id} needs full_access; this run is ${policy}`;
  }
  return null;
}
