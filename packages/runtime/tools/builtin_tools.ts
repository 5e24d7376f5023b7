/**
 * How the loop runs a tool: every call goes through `executeTool` (validation, the
 * permission check by risk class, cancellation, error mapping, credential interception,
 * artifact offload, timing) with the Run's context plus the call's item, signal and fact
 * recorders.
 *
 * In the narrowed permission modes the file tools run inside a permission-narrowed Worker
 * (`sandbox.ts`) whose Deno permissions are the second wall behind the tools' own access
 * rules (`@daedalus/tools` `files/access.ts`: real paths, handles verified after opening,
 * the protected home files refused in every mode). A call the mode refuses outright never
 * goes there: the wrapper answers it in-process. A sandbox that cannot run the call fails
 * the Run (`tool_sandbox_unavailable`).
 *
 * @module
 */
import type { RunReasonCode } from "@daedalus/protocol";
import {
  executeTool,
  FILE_TOOLS,
  permissionRefusal,
  type RunToolContext,
  type ToolDefinition,
  type ToolFacts,
  type ToolResult,
} from "@daedalus/tools";
import { SANDBOX_UNAVAILABLE, type ToolSandboxes } from "./sandbox.ts";

/** One call of a tool within a Run. */
export interface ToolCall {
  /** The tool_call item. */
  itemId: string;
  /** Cancellation of the Run. */
  signal: AbortSignal;
}

/** A call's outcome: the result, its facts, and whether the Run must fail after it. */
export interface ToolOutcome {
  /** The result. */
  result: ToolResult;
  /** Facts the call produced, committed with the result. */
  facts: ToolFacts;
  /** Set when the call could not run at all (its sandbox is unusable). */
  runFailure?: RunReasonCode;
}

const SANDBOXED = new Set<string>(FILE_TOOLS.map((tool) => tool.id));

/**
 * Runs one call of a tool.
 *
 * @param tool the tool
 * @param args the arguments as the model sent them (parsed JSON)
 * @param run the Run's tool context
 * @param call the call's item and signal
 * @param sandboxes the narrowed modes' Workers (absent: every call runs in-process)
 * @returns the outcome
 */
export async function runTool(
  tool: ToolDefinition<unknown>,
  args: unknown,
  run: RunToolContext,
  call: ToolCall,
  sandboxes?: ToolSandboxes,
): Promise<ToolOutcome> {
  const policy = run.executionPolicy;
  if (
    policy !== "full_access" && sandboxes && SANDBOXED.has(tool.id) &&
    permissionRefusal(tool, policy) === null
  ) {
    const sandboxed = await sandboxes.run(policy, tool.id, args, {
      threadId: run.threadId,
      runId: run.runId,
      itemId: call.itemId,
      workspaceRoot: run.workspaceRoot,
      signal: call.signal,
    });
    // No sandbox, no call: the Run cannot honour its mode, so it fails visibly.
    return sandboxed.result.errorCode === SANDBOX_UNAVAILABLE
      ? { ...sandboxed, runFailure: "tool_sandbox_unavailable" }
      : sandboxed;
  }
  const facts: ToolFacts = { fileChanges: [], processes: [] };
  const result = await executeTool(tool, args, { ...run, ...call, facts });
  return { result, facts };
}
