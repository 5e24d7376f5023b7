/**
 * Runs a step's tool calls through the read/write gate: consecutive read-only calls
 * run together, a mutating call runs alone (nothing overlaps a write). Every call goes
 * through the one wrapper (`executeTool`, via `runTool`) with the Run's tool context.
 * Each call's result, and the facts it produced, are committed in one transaction.
 *
 * @module
 */
import {
  appendFileChange,
  appendProcessRecord,
  type Committed,
  settleToolCall,
  startItems,
  type StateStore,
} from "@daedalus/storage";
import type { RunReasonCode } from "@daedalus/protocol";
import type { RunToolContext, ToolDefinition } from "@daedalus/tools";
import type { ToolCallRequest } from "./agent_loop.ts";
import { redactValue } from "../security/redact_value.ts";
import { runTool, type ToolOutcome } from "../tools/builtin_tools.ts";
import type { ToolSandboxes } from "../tools/sandbox.ts";

/** What the tool runner needs. */
export interface ToolRunnerDeps {
  /** The state store. */
  store: StateStore;
  /** The tools by name. */
  tools: ReadonlyMap<string, ToolDefinition<unknown>>;
  /** Workers for the narrowed permission modes' file tools (absent: all in-process). */
  sandboxes?: ToolSandboxes;
  /** Configured credentials: results, errors and facts are redacted before journaling. */
  protectedValues?: { redact(text: string): string };
}

/**
 * Records the calls as running items (one transaction), then runs them through the gate.
 *
 * @param deps store and tools
 * @param run the Run's tool context (ids, workspace, policy, capabilities)
 * @param calls the calls, in the model's order
 * @param signal cancellation
 * @param commit unwraps a write's result (the store publishes its events itself)
 * @returns the reason the Run must fail after these calls (a tool's `runFailure`), or null
 */
export async function runToolCalls(
  deps: ToolRunnerDeps,
  run: RunToolContext,
  calls: ToolCallRequest[],
  signal: AbortSignal,
  commit: <T>(c: Committed<T>) => T,
): Promise<RunReasonCode | null> {
  let runFailure: RunReasonCode | null = null;
  const parsed = calls.map((call) => {
    let args: unknown = call.arguments;
    try {
      args = JSON.parse(call.arguments || "{}");
    } catch { /* reported to the model below */ }
    return { call, args };
  });
  // Every call of the step is recorded in one transaction, in the model's order.
  const items = commit(startItems(
    deps.store,
    run.runId,
    parsed.map(({ call, args }) => ({
      kind: "tool_call" as const,
      role: "assistant" as const,
      status: "running" as const,
      data: { toolId: call.name, callId: call.id, arguments: args },
    })),
  ));
  const started = parsed.map(({ call, args }, index) => ({
    call,
    args,
    item: items[index]!,
    tool: deps.tools.get(call.name),
  }));
  for (const batch of gateBatches(started)) {
    if (signal.aborted || runFailure !== null) return runFailure;
    await Promise.all(batch.map(async ({ call, args, item, tool }) => {
      const outcome = redactOutcome(
        deps,
        await execute(tool, call, args, run, { itemId: item.id, signal }, deps.sandboxes),
      );
      if (signal.aborted) return;
      const { result, facts } = outcome;
      if (outcome.runFailure) runFailure ??= outcome.runFailure;
      const failed = result.isError === true || outcome.runFailure !== undefined;
      const status = failed ? "failed" : "completed";
      commit(settleToolCall(
        deps.store,
        item.id,
        { status },
        {
          status,
          content: result.content,
          data: {
            toolId: call.name,
            callId: call.id,
            isError: failed,
            ...result.details,
            ...(result.errorCode ? { errorCode: result.errorCode } : {}),
          },
        },
        (context, scope) => {
          for (const change of facts.fileChanges) appendFileChange(context, scope, change);
          for (const process of facts.processes) appendProcessRecord(context, scope, process);
        },
      ));
    }));
  }
  return runFailure;
}

/**
 * Every tool's result (file reads, grep, process output, errors) is redacted here, the
 * one place all of them pass, whatever wrapper the tool has of its own.
 */
function redactOutcome(deps: ToolRunnerDeps, outcome: ToolOutcome): ToolOutcome {
  const values = deps.protectedValues;
  if (!values) return outcome;
  return redactValue(outcome, (text) => values.redact(text));
}

/** Consecutive read-only calls share a batch; a mutating (or unknown) call is alone. */
export function gateBatches<T extends { tool?: { mutating: boolean } }>(calls: T[]): T[][] {
  const batches: T[][] = [];
  for (const call of calls) {
    const last = batches.at(-1);
    const readOnly = call.tool !== undefined && !call.tool.mutating;
    const lastReadOnly = last !== undefined &&
      last.every((c) => c.tool !== undefined && !c.tool.mutating);
    if (readOnly && lastReadOnly) last.push(call);
    else batches.push([call]);
  }
  return batches;
}

function execute(
  tool: ToolDefinition<unknown> | undefined,
  call: ToolCallRequest,
  args: unknown,
  run: RunToolContext,
  context: { itemId: string; signal: AbortSignal },
  sandboxes: ToolSandboxes | undefined,
): Promise<ToolOutcome> {
  const refused = (content: string) =>
    Promise.resolve({
      result: { content, isError: true },
      facts: { fileChanges: [], processes: [] },
    });
  if (!tool) return refused(`Unknown tool "${call.name}"`);
  if (typeof args === "string") {
    // The raw text is quoted here: the replayed call itself carries `{}` (history.ts).
    return refused(`Tool arguments are not valid JSON: ${args.slice(0, 200)}`);
  }
  // executeTool turns every failure of a tool into a result; this catches the runtime's own
  // (a sandbox that broke in a way it did not foresee), so the Run still goes on.
  return runTool(tool, args, run, context, sandboxes)
    .catch((error) => refused(`Tool failed: ${(error as Error).message}`));
}
