/**
 * Runs a step's tool calls through the read/write gate: consecutive read-only calls
 * run together, a mutating call runs alone (nothing overlaps a write). Every call goes
 * through the one wrapper (`executeTool`, via `runTool`) with the Run's tool context.
 * Each call's result, and the facts it produced, are committed in one transaction.
 *
 * A call the gate asks the user about is not run and not settled: its Item stays running,
 * an approval is recorded (the Run turns `waiting` in the same transaction) and the step's
 * later calls wait with it. The Run resumes from its running calls once answered
 * ({@linkcode pendingToolCalls}).
 *
 * A call to a client-side tool (the RunConfig's `clientTools`: the caller runs it) is not
 * run here either: once the step's other calls are done, the Run waits for the caller's
 * results (`awaitClientTools`) and resumes when the last one is in.
 *
 * @module
 */
import {
  appendFileChange,
  appendProcessRecord,
  awaitClientTools,
  type Committed,
  isClientToolCall,
  type NewItem,
  readCallApproval,
  readRunItems,
  readRunScope,
  requestApproval,
  settleToolCall,
  type StateStore,
} from "@daedalus/storage";
import type { ApprovalReasonCode, Item, RunReasonCode } from "@daedalus/protocol";
import type { ApprovalAsk, RunToolContext, ToolDefinition, ToolProgress } from "@daedalus/tools";
import { progressReporter } from "./tool_progress.ts";
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

/** A tool call the model asked for, with its parsed arguments and its running Item. */
export interface StartedToolCall {
  /** The call as the model sent it. */
  call: ToolCallRequest;
  /** Its arguments parsed from JSON, or the raw text when they are not JSON. */
  args: unknown;
  /** Its `tool_call` Item (recorded with the step's end, `completeStep`'s `startItems`). */
  item: Item;
}

/**
 * The `tool_call` Items of a step's calls, in the model's order, and their parsed
 * arguments: recorded in the transaction that ends the step.
 *
 * @param calls the calls
 * @returns each call's parsed arguments and the Item to record for it
 */
export function toolCallItems(
  calls: readonly ToolCallRequest[],
  clientTools: ReadonlySet<string> = new Set(),
): { call: ToolCallRequest; args: unknown; item: NewItem }[] {
  return calls.map((call) => {
    let args: unknown = call.arguments;
    try {
      args = JSON.parse(call.arguments || "{}");
    } catch { /* reported to the model when the call runs */ }
    return {
      call,
      args,
      item: {
        kind: "tool_call" as const,
        role: "assistant" as const,
        status: "running" as const,
        data: {
          toolId: call.name,
          callId: call.id,
          arguments: args,
          ...(clientTools.has(call.name) ? { clientTool: true } : {}),
        },
      },
    };
  });
}

/** How a step's calls ended: the Run fails, waits for the user, or goes on. */
export interface ToolCallsOutcome {
  /** The reason the Run must fail after these calls (a tool's `runFailure`), or null. */
  runFailure: RunReasonCode | null;
  /**
   * Whether a call asked the user, or the step's client-side calls wait for the caller:
   * the Run is `waiting` and the loop must stop here.
   */
  waiting: boolean;
}

/**
 * A Run's tool calls that started but have no result: the calls of a step that waited for
 * an approval (the one answered `allow_*`, and those after it), in the model's order. A
 * denied call already has its result (the store records the denial).
 *
 * @param store the state store
 * @param runId the run
 * @returns the calls to run when the Run resumes, the first one with the reason it was allowed
 */
export function pendingToolCalls(
  store: StateStore,
  runId: string,
): {
  calls: StartedToolCall[];
  approved: { itemId: string; reasonCode: ApprovalReasonCode } | null;
} {
  const running = store.read((db) => readRunItems(db, runId))
    .filter((item) => item.kind === "tool_call" && item.status === "running");
  const calls = running.map((item) => {
    const data = item.data as { toolId?: unknown; callId?: unknown; arguments?: unknown };
    const args = data.arguments;
    return {
      call: {
        id: typeof data.callId === "string" ? data.callId : item.id,
        name: typeof data.toolId === "string" ? data.toolId : "",
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      },
      args,
      item,
    };
  });
  // The approval, if any, is the first call the runtime runs (a client's call never asks).
  const first = calls.find(({ item }) => !isClientToolCall(item));
  const approval = first ? store.read((db) => readCallApproval(db, runId, first.item.id)) : null;
  return {
    calls,
    approved: approval?.status === "allowed" && approval.toolCallItemId !== null
      ? { itemId: approval.toolCallItemId, reasonCode: approval.reasonCode }
      : null,
  };
}

/**
 * Runs a step's started calls through the gate.
 *
 * @param deps store and tools
 * @param run the Run's tool context (ids, workspace, policy, capabilities)
 * @param calls the started calls, in the model's order
 * @param signal cancellation
 * @param commit unwraps a write's result (the store publishes its events itself)
 * @param approved the call the user allowed, and why it had asked (a resumed Run)
 * @returns whether the Run fails, waits or goes on
 */
export async function runToolCalls(
  deps: ToolRunnerDeps,
  run: RunToolContext,
  calls: readonly StartedToolCall[],
  signal: AbortSignal,
  commit: <T>(c: Committed<T>) => T,
  approved: { itemId: string; reasonCode: ApprovalReasonCode } | null = null,
): Promise<ToolCallsOutcome> {
  let runFailure: RunReasonCode | null = null;
  const clientCalls = calls.filter(({ item }) => isClientToolCall(item));
  const started = calls.filter(({ item }) => !isClientToolCall(item))
    .map((call) => ({ ...call, tool: deps.tools.get(call.call.name) }));
  // Read once, and only when a call reports progress.
  let runScope: { threadId: string; branchId: string } | undefined;
  const scope = () => runScope ??= deps.store.read((db) => readRunScope(db, run.runId));
  for (const batch of gateBatches(started)) {
    if (signal.aborted || runFailure !== null) return { runFailure, waiting: false };
    const asks: {
      item: Item;
      call: ToolCallRequest;
      tool: ToolDefinition<unknown>;
      ask: ApprovalAsk;
    }[] = [];
    await Promise.all(batch.map(async ({ call, args, item, tool }) => {
      const grant = approved?.itemId === item.id ? { approved: approved.reasonCode } : {};
      const progress = progressReporter(
        deps.store,
        { ...scope(), turnId: item.turnId, runId: run.runId, itemId: item.id },
        (text) => deps.protectedValues?.redact(text) ?? text,
      );
      const outcome = redactOutcome(
        deps,
        await execute(tool, call, args, run, {
          itemId: item.id,
          signal,
          ...grant,
          reportProgress: progress.report,
        }, deps.sandboxes).finally(progress.stop),
      );
      if (signal.aborted) return;
      const ask = outcome.result.awaitsApproval;
      // Not run, not settled: the call stays running until the user answers.
      if (ask !== undefined && tool !== undefined) return void asks.push({ item, call, tool, ask });
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
    if (signal.aborted) return { runFailure, waiting: false };
    const first = asks.sort((a, b) => a.item.ordinal - b.item.ordinal)[0];
    if (first !== undefined) {
      // One question at a time, the first in the model's order; the others ask again (or
      // not, if an answer's rule now covers them) when the Run resumes.
      commit(requestApproval(deps.store, {
        runId: run.runId,
        toolCallItemId: first.item.id,
        toolId: first.call.name,
        summary: first.ask.summary,
        target: first.ask.target,
        risk: first.tool.risk,
        reasonCode: first.ask.reasonCode,
        rule: first.ask.rule,
        ...(first.ask.question !== undefined ? { question: first.ask.question } : {}),
      }));
      return { runFailure, waiting: true };
    }
  }
  if (clientCalls.length > 0 && runFailure === null && !signal.aborted) {
    commit(awaitClientTools(deps.store, run.runId));
    return { runFailure, waiting: true };
  }
  return { runFailure, waiting: false };
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
  context: {
    itemId: string;
    signal: AbortSignal;
    approved?: ApprovalReasonCode;
    reportProgress?: (update: ToolProgress) => void;
  },
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
