/**
 * How the loop runs a tool: every call goes through `executeTool` (validation, the
 * Run's policy gate — permission rules, high-risk commands, loops, breakers —, cancellation, error mapping, credential interception,
 * artifact offload, timing) with the Run's context plus the call's item, signal and fact
 * recorders.
 *
 * In the narrowed permission modes the file tools run inside a permission-narrowed Worker
 * (`sandbox.ts`) whose Deno permissions are the second wall behind the tools' own access
 * rules (`@daedalus/tools` `files/access.ts`: real paths, handles verified after opening,
 * the protected home files refused in every mode). A call the mode refuses outright never
 * goes there: the gate answers it in-process. A sandbox that cannot run the call fails
 * the Run (`tool_sandbox_unavailable`); a loop the gate detects fails it too
 * (`loop_detected`), until approvals let the user decide.
 *
 * @module
 */
import type { ApprovalReasonCode, RunReasonCode } from "@daedalus/protocol";
import {
  admitCall,
  executeTool,
  FILE_TOOLS,
  isSealedPolicy,
  LOOP_DETECTED,
  type RunToolContext,
  type ToolDefinition,
  type ToolFacts,
  type ToolProgress,
  type ToolResult,
} from "@daedalus/tools";
import { SANDBOX_UNAVAILABLE, type SandboxMode, type ToolSandboxes } from "./sandbox.ts";

/** One call of a tool within a Run. */
export interface ToolCall {
  /** The tool_call item. */
  itemId: string;
  /** Cancellation of the Run. */
  signal: AbortSignal;
  /** Set when the user allowed this call after the gate asked (a resumed Run). */
  approved?: ApprovalReasonCode;
  /** Where the call reports how far it got (absent: not reported). */
  reportProgress?: (update: ToolProgress) => void;
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
  if (isSealedPolicy(policy) && sandboxes && SANDBOXED.has(tool.id)) {
    return await sandboxed(policy, tool, args, run, call, sandboxes);
  }
  const facts: ToolFacts = { fileChanges: [], processes: [] };
  const result = await executeTool(tool, args, { ...run, ...call, facts });
  return withLoopFailure({ result, facts });
}

/**
 * A loop pause the user cannot be asked about stops the Run (`loop_detected`); with a gate
 * that asks, the pause is an approval instead (`awaitsApproval`) and the Run waits.
 */
function withLoopFailure(outcome: ToolOutcome): ToolOutcome {
  return outcome.result.errorCode === LOOP_DETECTED && !outcome.result.awaitsApproval
    ? { ...outcome, runFailure: "loop_detected" }
    : outcome;
}

/**
 * A file tool of a narrowed mode: the Run's gate runs here (it holds the Run's rules, loop
 * detector and breakers), then the Worker runs the call (its wrapper checks the preset
 * again), then the gate is told the result. A refused call never reaches the Worker.
 */
async function sandboxed(
  mode: SandboxMode,
  tool: ToolDefinition<unknown>,
  args: unknown,
  run: RunToolContext,
  call: ToolCall,
  sandboxes: ToolSandboxes,
): Promise<ToolOutcome> {
  const none: ToolFacts = { fileChanges: [], processes: [] };
  const parsed = tool.params.safeParse(args ?? {});
  // Invalid arguments: the wrapper words the error the same in-process, with no gate.
  if (!parsed.success) {
    const { gate: _gate, ...ungated } = run;
    return {
      result: await executeTool(tool, args, { ...ungated, ...call, facts: none }),
      facts: none,
    };
  }
  const started = performance.now();
  const admission = await admitCall(tool, parsed.data, {
    ...run,
    ...(call.approved ? { approved: call.approved } : {}),
  });
  if (!admission.admitted) {
    const durationMs = Math.round(performance.now() - started);
    const result = { ...admission.result, details: { ...admission.result.details, durationMs } };
    return withLoopFailure({ result, facts: none });
  }
  const sandboxed = await sandboxes.run(mode, tool.id, args, {
    threadId: run.threadId,
    runId: run.runId,
    itemId: call.itemId,
    workspaceRoot: run.workspaceRoot,
    signal: call.signal,
  });
  admission.finish(sandboxed.result);
  // No sandbox, no call: the Run cannot honour its mode, so it fails visibly.
  return sandboxed.result.errorCode === SANDBOX_UNAVAILABLE
    ? { ...sandboxed, runFailure: "tool_sandbox_unavailable" }
    : sandboxed;
}
