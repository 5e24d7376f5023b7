/**
 * The agent loop of one Run: model call → streamed text and tool calls → tool
 * results → next call, until the model answers without tools; then exactly one
 * settlement. Cancellation and steering work at any time. A tool call the gate asks the
 * user about stops the loop without a settlement (the Run is `waiting`, its worker free);
 * once answered the loop runs again from the journal: the step's pending calls first, then
 * the next step.
 *
 * @module
 */
import type { RunConfig, RunReasonCode } from "@daedalus/protocol";
import {
  appendItemDelta,
  type Committed,
  completeStep,
  getThread,
  readRunConfig,
  readRunItems,
  readRunProgress,
  readRunScope,
  readRunSpend,
  readRunSummary,
  type RecalledMemory,
  requestBudgetApproval,
  type SettlementRequest,
  settleRun,
  startStreamedItem,
  type StateStore,
} from "@daedalus/storage";
import {
  type Provider,
  ProviderError,
  type ProviderRequest,
  type ProviderTool,
} from "../providers/provider.ts";
import type { RunToolContext, ToolDefinition } from "@daedalus/tools";
import { redactedStream, redactFinish, redactToolCall } from "./redacted_stream.ts";
import { modelTool } from "../tools/model_schema.ts";
import type { ToolRun } from "../tools/run_tool_context.ts";
import type { ToolSandboxes } from "../tools/sandbox.ts";
import type { StreamMatcher } from "../security/stream_redactor.ts";
import { RunContext } from "./run_context.ts";
import { checkCompletion } from "./completion_check.ts";
import { pendingToolCalls, runToolCalls, toolCallItems } from "./tool_calls.ts";
import { budgetReached, budgetSummary } from "./budget_check.ts";
import { loadInstructionFiles } from "../context/instructions.ts";
import { loadMemoryReference } from "../context/memory_reference.ts";
import { skillCatalogPrompt } from "../skills/prompt.ts";
import { type ModelChoice, openModelRoute } from "./model_fallback.ts";

/** What the loop needs from the runtime. */
export interface AgentLoopDeps {
  /** The state store. */
  store: StateStore;
  /** Finds the provider a Run names. */
  provider: (providerId: string) => Provider | undefined;
  /**
   * Checks the Run's frozen provider/model against the current configuration
   * (throws when one vanished or was disabled); absent, `provider` alone decides.
   */
  resolveModel?: (providerId: string, modelId: string) => { provider: Provider };
  /** A model's usable fallback as configured now (model_fallback.ts); absent: none. */
  fallbackModel?: (providerId: string, modelId: string) => ModelChoice | null;
  /** Configured credentials; streamed text and tool calls are redacted before journaling. */
  protectedValues?: StreamMatcher & { redact(text: string): string };
  /** The tools by name. */
  tools: ReadonlyMap<string, ToolDefinition<unknown>>;
  /** Builds a Run's tool context, once when the Run starts. */
  toolContext: (run: ToolRun) => RunToolContext | Promise<RunToolContext>;
  /** Workers for the narrowed permission modes' file tools (absent: all in-process). */
  sandboxes?: ToolSandboxes;
  /** The local calendar date for usage (`YYYY-MM-DD`). */
  today: () => string;
  /**
   * Tool work of the Run still unsettled (running foreground commands…), described
   * for the model; a final answer with any of it gets one completion check.
   */
  unsettledWork?: (runId: string) => string[];
  /** Called after a Run completed (thread titles hang off it). */
  onSettled?: (runId: string) => void;
  /** The runtime home, for the user's AGENTS.md and USER.md. */
  home?: string;
  /** Recalls memories for a Run's message (scope key derived from its workspace). */
  recall?: (query: string, workspaceRoot: string | null) => RecalledMemory[];
}

/** Why a Run's signal was aborted. */
export type AbortReason = "cancelled" | "runtime_shutdown";

/**
 * Executes a running Run to settlement.
 *
 * @param deps store, providers, tools
 * @param runId the run (already moved to running)
 * @param signal aborted with an {@linkcode AbortReason} to cancel
 */
export async function runAgentLoop(
  runtimeDeps: AgentLoopDeps,
  runId: string,
  signal: AbortSignal,
): Promise<void> {
  // The Run keeps the tools it started with: MCP servers that come, go or change their
  // lists meanwhile change the runtime's map, not this Run's.
  const deps: AgentLoopDeps = { ...runtimeDeps, tools: new Map(runtimeDeps.tools) };
  // The store publishes every commit itself (hub/commit_holds.ts): writes are unwrapped.
  const commit = <T>(committed: Committed<T>): T => committed.result;
  const settle = (
    status: "completed" | "failed" | "cancelled",
    reason: RunReasonCode | null,
    errorMessage: string | null = null,
  ) => commit(settleRun(deps.store, runId, status, reason, errorMessage));

  try {
    const config = deps.store.read((db) => readRunConfig(db, runId));
    const scope = deps.store.read((db) => readRunScope(db, runId));
    const provider = currentProvider(deps, config.providerId, config.modelId);
    if (!provider.ok) return void settle("failed", provider.reason);
    // Only the tools the Run may call are offered, and a call to any other finds no tool.
    deps.tools = runTools(runtimeDeps.tools, config);
    const clientTools = config.supportsTools ? config.clientTools ?? [] : [];
    const clientToolNames = new Set(clientTools.map((tool) => tool.name));
    const tools: ProviderTool[] = [
      ...[...deps.tools.values()].map((tool) => {
        const { name, description, parameters } = modelTool(tool);
        return { name, description, parameters };
      }),
      // The caller's own tools, after the runtime's: a call to one waits for its result.
      ...clientTools.map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      })),
    ];
    // Built once: a tool call adds only its item, signal and facts (no storage read).
    const toolContext = await deps.toolContext({ runId, threadId: scope.threadId, config });
    const system = await systemPrompt(deps, config, scope.threadId, toolContext, signal);
    const context = new RunContext(deps, {
      runId,
      threadId: scope.threadId,
      branchId: scope.branchId,
      turnOrdinal: scope.turnOrdinal,
      modelId: config.modelId,
      contextWindow: config.contextWindow,
      systemText: system.text,
      identityHash: config.identity.hash,
      audit: system.audit,
      // A profile may switch recall off (Explore does: a sub-agent needs the task, not memory).
      recalled: config.agent?.profile.memory.recall === false
        ? []
        : recallFor(deps, scope.threadId, runId),
      tools,
      ...(config.compaction ? { compaction: config.compaction } : {}),
    }, provider.provider);
    const opened = openModelRoute(
      {
        providerId: config.providerId,
        modelId: config.modelId,
        provider: provider.provider,
        contextWindow: config.contextWindow,
        reasoningEffort: config.reasoningEffort,
      },
      () => deps.fallbackModel?.(config.providerId, config.modelId) ?? null,
      deps.store.read((db) => readRunSummary(db, runId)).fallbackModel ?? null,
    );
    if (!opened.ok) return void settle("failed", opened.reason);
    const { route } = opened;
    if (route.onFallback) context.useModel(route.current); // it moved before it waited
    // A Run that waited for an approval goes on where it stopped, rebuilt from the journal.
    const progress = deps.store.read((db) => readRunProgress(db, runId));
    if (progress.lastCallOrdinal > 0) {
      context.resume(progress);
      const pending = pendingToolCalls(deps.store, runId);
      if (pending.calls.length > 0) {
        const resumed = await runToolCalls(
          deps,
          toolContext,
          pending.calls,
          signal,
          commit,
          pending.approved,
        );
        if (resumed.waiting && keepsWaiting(signal)) return;
        if (resumed.runFailure !== null && !signal.aborted) {
          return void settle("failed", resumed.runFailure);
        }
      }
    }
    for (let step = progress.lastStepOrdinal + 1;; step++) {
      if (signal.aborted) break;
      // A budget reached pauses the Run for the user before the next model call (a Run
      // without one reads no spending).
      const reached = config.budget === undefined ? null : budgetReached(
        config,
        deps.store.read((db) => readRunSpend(db, runId, new Date())),
      );
      if (reached !== null) {
        commit(requestBudgetApproval(deps.store, {
          runId,
          summary: budgetSummary(reached),
          budget: reached,
        }));
        if (keepsWaiting(signal)) return;
        break;
      }
      const prepared = await context.prepare(step, signal);
      if (!prepared.ok) {
        if (signal.aborted) break;
        const said = prepared.errorMessage;
        return void settle("failed", prepared.reason, said ? redactText(deps, said) : null);
      }
      const { callOrdinal } = prepared;
      const model = route.current;
      const request: ProviderRequest = {
        modelId: model.modelId,
        messages: prepared.messages,
        tools,
        reasoningEffort: model.reasoningEffort,
      };
      const outcome = await streamStep(deps, runId, model.provider, request, signal, commit);
      // Nothing streamed and a retryable failure: the next step goes to the fallback.
      const moved = outcome.kind === "failed" && !signal.aborted &&
        route.fallBack({ ...deps, commit }, runId, outcome, callOrdinal);
      if (moved) {
        context.useModel(moved);
        continue;
      }
      const last = lastStepSettlement(deps, runId, outcome, signal);
      const calls = last === null && outcome.kind === "done"
        ? toolCallItems(outcome.toolCalls, clientToolNames)
        : [];
      // The step's message (when whole), the call's end and, for the Run's last step, its
      // settlement, else its tool calls' start: one transaction, none journaled alone.
      const ended = commit(completeStep(deps.store, runId, {
        message: outcome.kind === "done" && outcome.itemId !== null
          ? {
            itemId: outcome.itemId,
            completion: { status: "completed", streamed: outcome.streamed },
          }
          : undefined,
        response: {
          callOrdinal,
          outcome: outcome.kind === "done" || outcome.kind === "cut"
            ? "completed"
            : outcome.kind === "cancelled"
            ? "cancelled"
            : "failed",
          usage: outcome.kind === "done" || outcome.kind === "cut" ? outcome.usage : null,
          responseModelId: outcome.kind === "done" || outcome.kind === "cut"
            ? outcome.responseModelId
            : null,
          requestId: outcome.kind === "done" || outcome.kind === "cut" ? outcome.requestId : null,
          reasonCode: outcome.kind === "failed"
            ? outcome.reason
            : outcome.kind === "cancelled"
            ? "cancelled"
            : undefined,
          activityDate: deps.today(),
        },
        settle: last ?? undefined,
        startItems: calls.map(({ item }) => item),
      }));
      if (last !== null || outcome.kind !== "done") {
        if (last?.status === "completed") deps.onSettled?.(runId);
        return;
      }
      if (outcome.toolCalls.length === 0) {
        // A final answer with unsettled tool work: its one completion check, then settle.
        const unsettled = deps.unsettledWork?.(runId) ?? [];
        await checkCompletion(deps, runId, model.provider, context, unsettled, signal, commit);
        settle("completed", null);
        deps.onSettled?.(runId);
        return;
      }
      const ran = await runToolCalls(
        deps,
        toolContext,
        calls.map(({ call, args }, index) => ({ call, args, item: ended.started[index]! })),
        signal,
        commit,
      );
      // Waiting for the user: no settlement; the Run resumes here once answered.
      if (ran.waiting && keepsWaiting(signal)) return;
      if (ran.runFailure !== null && !signal.aborted) return void settle("failed", ran.runFailure);
    }
    settle("cancelled", abortReason(signal));
  } catch (error) {
    console.error(`run ${runId} failed: ${(error as Error).stack ?? error}`);
    settle(
      signal.aborted ? "cancelled" : "failed",
      signal.aborted ? abortReason(signal) : "agent_error",
    );
  }
}

/**
 * How a step's outcome settles the Run, when that step is its last: a failure, a
 * cancellation, an answer cut at the output limit (its partial answer stays for the
 * user, its item settles failed, its cut tool calls are neither run nor replayed), or a
 * final answer — unless unsettled tool work still wants its one completion check.
 */
function lastStepSettlement(
  deps: AgentLoopDeps,
  runId: string,
  outcome: StepOutcome,
  signal: AbortSignal,
): SettlementRequest | null {
  switch (outcome.kind) {
    case "failed":
      return { status: "failed", reasonCode: outcome.reason, errorMessage: outcome.errorMessage };
    case "cancelled":
      return { status: "cancelled", reasonCode: abortReason(signal) };
    case "cut":
      return { status: "failed", reasonCode: "model_output_limit" };
    case "done":
      if (outcome.toolCalls.length > 0) return null;
      if ((deps.unsettledWork?.(runId) ?? []).length > 0) return null;
      return { status: "completed", reasonCode: null };
  }
}

/** Memories recalled for the Run's own user message, once, at its start. */
function recallFor(deps: AgentLoopDeps, threadId: string, runId: string): RecalledMemory[] {
  if (!deps.recall) return [];
  const message = deps.store.read((db) => readRunItems(db, runId)).find((i) => i.role === "user");
  if (!message) return [];
  const root = deps.store.read((db) => getThread(db, threadId)).thread.workspace?.rootUri ?? null;
  try {
    return deps.recall(message.content, root);
  } catch (error) {
    console.error(`memory recall failed: ${(error as Error).message}`);
    return [];
  }
}

/**
 * The system prompt of a Run: the frozen identity, the instruction files read at
 * run entry (user AGENTS.md, USER.md, then the workspace's AGENTS.md), the user's
 * MEMORY.md as reference material (when the profile enables it: the tool context has its
 * places), and the frozen skills catalog — with what was used, for the StepInput audit.
 */
async function systemPrompt(
  deps: AgentLoopDeps,
  config: RunConfig,
  threadId: string,
  toolContext: RunToolContext,
  signal: AbortSignal,
): Promise<{ text: string; audit: Record<string, unknown> }> {
  const workspace = deps.store.read((db) => getThread(db, threadId)).thread.workspace?.rootUri ??
    undefined;
  const [instructions, memoryFile] = await Promise.all([
    deps.home
      ? loadInstructionFiles({ home: deps.home, workspace, signal })
      : { text: "", sources: [] },
    loadMemoryReference(toolContext.memoryFile, {
      protectedFiles: toolContext.protectedFiles,
      signal,
    }),
  ]);
  const { identity, skills } = config;
  // The agent profile's own instructions, frozen with the Run (issue 21).
  const agentText = config.agent?.profile.instructions
    ? `# Agent: ${config.agent.profile.name}\n\n${config.agent.profile.instructions}`
    : "";
  return {
    text: [identity.text, agentText, instructions.text, memoryFile.text, skillCatalogPrompt(skills)]
      .filter(Boolean).join("\n\n"),
    audit: {
      instructionFiles: instructions.sources,
      skills: skills.map((skill) => skill.name),
      // Journaled with the context revision: what the Run was shown, and what it could not use.
      ...(memoryFile.source ? { memoryFile: memoryFile.source } : {}),
      ...(memoryFile.skipped.length > 0 ? { memoryFileSkipped: memoryFile.skipped } : {}),
    },
  };
}

/**
 * The provider of a Run as configured now: a provider or model removed or disabled
 * since the turn was submitted fails the Run with a drift reason, never a silent swap.
 */
function currentProvider(
  deps: AgentLoopDeps,
  providerId: string,
  modelId: string,
): { ok: true; provider: Provider } | { ok: false; reason: RunReasonCode } {
  if (deps.resolveModel) {
    try {
      return { ok: true, provider: deps.resolveModel(providerId, modelId).provider };
    } catch (error) {
      const field = (error as { data?: { field?: string } }).data?.field;
      return {
        ok: false,
        reason: field === "providerId"
          ? "provider_configuration_changed"
          : "model_configuration_changed",
      };
    }
  }
  const provider = deps.provider(providerId);
  if (!provider || !provider.models.includes(modelId)) {
    return { ok: false, reason: "provider_configuration_changed" };
  }
  return { ok: true, provider };
}

/** A text without the configured credentials (they never reach the journal). */
function redactText(deps: AgentLoopDeps, text: string): string {
  return deps.protectedValues?.redact(text) ?? text;
}

/**
 * Whether a Run that just asked the user stays waiting: yes, unless it was cancelled
 * meanwhile (then the loop settles it). A shutdown keeps it waiting for after the restart.
 */
function keepsWaiting(signal: AbortSignal): boolean {
  return !signal.aborted || signal.reason === "runtime_shutdown";
}

function abortReason(signal: AbortSignal): RunReasonCode {
  return signal.reason === "runtime_shutdown" ? "runtime_shutdown" : "cancelled";
}

/** A tool call the model asked for. */
export interface ToolCallRequest {
  /** The provider's call id. */
  id: string;
  /** The tool name. */
  name: string;
  /** The JSON arguments as streamed. */
  arguments: string;
}

interface ResponseFacts {
  usage: import("@daedalus/protocol").TokenUsage | null;
  responseModelId: string | null;
  requestId: string | null;
}

type StepOutcome =
  | (
    & {
      kind: "done";
      toolCalls: ToolCallRequest[];
      itemId: string | null;
      streamed: { content: string; reasoning: string };
    }
    & ResponseFacts
  )
  | ({ kind: "cut" } & ResponseFacts)
  | { kind: "failed"; reason: RunReasonCode; errorMessage: string | null; streamed: boolean }
  | { kind: "cancelled" };

async function streamStep(
  deps: AgentLoopDeps,
  runId: string,
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  commit: <T>(c: Committed<T>) => T,
): Promise<StepOutcome> {
  let itemId: string | null = null;
  // The message starts with its first delta, in one transaction.
  const journal = (delta: string, field: "content" | "reasoning") => {
    if (itemId !== null) return void commit(appendItemDelta(deps.store, itemId, delta, field));
    const message = { kind: "message", role: "assistant", status: "streaming" } as const;
    itemId = commit(startStreamedItem(deps.store, runId, message, delta, field)).item.id;
  };
  // What was journaled as deltas, so completing the item needs not read them back.
  const streamed = { content: "", reasoning: "" };
  // A configured credential echoed by the model never reaches the journal, even split
  // over deltas: the stream is redacted as a whole, so the completed item is too.
  const text = redactedStream(deps, signal, (delta) => {
    journal(delta, "content");
    streamed.content += delta;
  });
  const reasoning = redactedStream(deps, signal, (delta) => {
    journal(delta, "reasoning");
    streamed.reasoning += delta;
  });
  const flush = () => {
    reasoning.flush();
    text.flush();
  };
  const toolCalls: ToolCallRequest[] = [];
  let usage = null;
  let finish = { responseModelId: null as string | null, requestId: null as string | null };
  let finishReason: string | null = null;
  try {
    for await (const event of provider.stream(request, signal)) {
      if (signal.aborted) break;
      if (event.type === "text_delta") text.push(event.text);
      else if (event.type === "reasoning_delta") reasoning.push(event.text);
      else if (event.type === "tool_call") toolCalls.push(redactToolCall(deps, event));
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "finish") {
        const redacted = redactFinish(deps, event);
        finish = { responseModelId: redacted.responseModelId, requestId: redacted.requestId };
        finishReason = event.finishReason ?? null;
      }
    }
  } catch (error) {
    flush();
    if (signal.aborted) return { kind: "cancelled" };
    const category = error instanceof ProviderError ? error.category : "unknown";
    return {
      kind: "failed",
      reason: `provider_${category}` as RunReasonCode,
      // What the provider said ("Incorrect API key provided…"), for the user to read.
      errorMessage: error instanceof ProviderError ? redactText(deps, error.message) : null,
      // Flushed above: any text or reasoning of this step is journaled by now.
      streamed: itemId !== null,
    };
  }
  flush();
  if (signal.aborted) return { kind: "cancelled" };
  // The item of a cut answer is left streaming; the settlement marks it failed.
  if (finishReason === "length") return { kind: "cut", usage, ...finish };
  // The caller completes the message with the call's end, in one transaction, from the
  // text this step journaled (no read-back of its deltas).
  return { kind: "done", toolCalls, itemId, streamed, usage, ...finish };
}

/**
 * The tools a Run may call: none for a model without tool support, its `allowedTools`
 * when the config limits them, else all of the runtime's (as they are now).
 */
function runTools(
  tools: ReadonlyMap<string, ToolDefinition<unknown>>,
  config: Pick<RunConfig, "supportsTools" | "allowedTools">,
): Map<string, ToolDefinition<unknown>> {
  if (!config.supportsTools) return new Map();
  if (config.allowedTools === undefined) return new Map(tools);
  const allowed = new Set(config.allowedTools);
  return new Map([...tools].filter(([name]) => allowed.has(name)));
}
