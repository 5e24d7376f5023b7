/**
 * From a Run's journal events to canonical events: the one translation every gateway wire
 * (Dify SSE, AG-UI) starts from. Pure: a fold over the journal, one event at a time, so it
 * serves a live stream (feed each committed event as it arrives) and a replay (fold the
 * Run's events from its first; keep what comes from the seq to resume after) alike.
 *
 * Daedalus has no sub-agents and outputs no files: `subagent_*` and `file_output` come
 * only from library users' agents. What the journal has and the canonical model has no
 * type for (file changes, tool progress, fallbacks, compactions, steers, answered
 * approvals) goes out as `custom` events named `daedalus.*`.
 *
 * @module
 */
import type { CanonicalEvent, Item, JournalEvent, TokenUsage } from "@daedalus/protocol";
import { addUsage } from "./usage_sum.ts";

/** A canonical event and the seq of the journal event it came from. */
export interface SequencedCanonicalEvent {
  /** The journal event's seq: a replay resumes after the last one a client saw. */
  seq: number;
  /** The canonical event. */
  event: CanonicalEvent;
}

/** What the fold remembers between journal events. Treat as opaque; never mutated. */
export interface CanonicalFoldState {
  /** The Run whose events are translated; every other Run's are skipped. */
  readonly runId: string;
  /** Per assistant message item, how much of its answer and reasoning went out as deltas. */
  readonly streamed: Readonly<Record<string, { content: number; reasoning: number }>>;
  /** Tool call item ids started and not yet ended, in start order. */
  readonly openCalls: readonly string[];
  /** Tool call item ids already ended (a result is translated once). */
  readonly endedCalls: readonly string[];
  /** Tool call item ids that are client-side calls (the caller runs them). */
  readonly clientCalls: readonly string[];
  /** Whether an approval is pending: a wait then is the approval's, not the client's. */
  readonly approvalPending: boolean;
  /** The sum of the Run's reported usage so far; null before any report. */
  readonly usage: TokenUsage | null;
  /** Whether `done` went out: nothing follows it. */
  readonly done: boolean;
}

/** What one journal event gives: the next state and the canonical events, in order. */
export interface CanonicalStep {
  /** The state after the event. */
  state: CanonicalFoldState;
  /** The canonical events the journal event translates to (often none). */
  events: CanonicalEvent[];
}

/** What a call that never got a result ends with when its Run settles. */
export const UNFINISHED_CALL_RESULT = "The call did not finish: the run ended before its result.";

/**
 * The fold's state before a Run's first event.
 *
 * @param runId the Run to translate
 * @returns the initial state
 */
export function canonicalFoldStart(runId: string): CanonicalFoldState {
  return {
    runId,
    streamed: {},
    openCalls: [],
    endedCalls: [],
    clientCalls: [],
    approvalPending: false,
    usage: null,
    done: false,
  };
}

/**
 * Translates one journal event.
 *
 * @param state the state after the previous event (`canonicalFoldStart` for the first)
 * @param event the journal event
 * @returns the next state and the canonical events
 */
export function canonicalStep(state: CanonicalFoldState, event: JournalEvent): CanonicalStep {
  if (state.done || event.runId !== state.runId) return { state, events: [] };
  switch (event.type) {
    case "item.delta":
      return delta(state, event.itemId, event.payload.delta, event.payload.field ?? "content");
    case "item.started":
    case "item.completed":
      return item(state, event.payload.item);
    case "model.input_prepared":
      return {
        state,
        events: [{
          type: "node_lifecycle",
          nodeId: callNodeId(state.runId, event.payload.callOrdinal),
          nodeType: "model",
          title: `Model call ${event.payload.callOrdinal}`,
          phase: "start",
          metadata: { purpose: event.payload.purpose, stepOrdinal: event.payload.stepOrdinal },
        }],
      };
    case "model.response_finished": {
      const { callOrdinal, usage, outcome, responseModelId } = event.payload;
      const events: CanonicalEvent[] = [{
        type: "node_lifecycle",
        nodeId: callNodeId(state.runId, callOrdinal),
        nodeType: "model",
        title: `Model call ${callOrdinal}`,
        phase: "end",
        metadata: { outcome: outcome ?? null, responseModelId },
      }];
      if (usage === null) return { state, events };
      events.push({ type: "usage", usage });
      return { state: { ...state, usage: addUsage(state.usage, usage) }, events };
    }
    case "approval.requested": {
      const p = event.payload;
      return {
        state: { ...state, approvalPending: true },
        events: [{
          type: "interrupt",
          interruptId: p.approvalId,
          nodeName: p.toolCallItemId,
          message: p.summary,
          data: {
            tool: p.tool,
            target: p.target,
            risk: p.risk,
            reasonCode: p.reasonCode,
            decisions: p.decisions,
            // An `ask_user` question (reasonCode user_question): its text and choices.
            ...(p.question !== undefined ? { question: p.question } : {}),
          },
        }],
      };
    }
    case "approval.resolved": {
      const p = event.payload;
      return custom({ ...state, approvalPending: false }, "daedalus.approval_resolved", {
        approvalId: p.approvalId,
        status: p.status,
        decision: p.decision,
      });
    }
    case "file.change_recorded": {
      const p = event.payload;
      return custom(state, "daedalus.file_change", {
        toolCallId: p.toolCallItemId,
        path: p.path,
        operation: p.operation,
        additions: p.additions,
        deletions: p.deletions,
      });
    }
    case "item.progress": {
      const p = event.payload;
      return custom(state, "daedalus.tool_progress", {
        toolCallId: event.itemId,
        progress: p.progress,
        total: p.total,
        message: p.message,
      });
    }
    case "run.model_fallback": {
      const p = event.payload;
      return custom(state, "daedalus.model_fallback", {
        fromProviderId: p.fromProviderId,
        fromModelId: p.fromModelId,
        toProviderId: p.toProviderId,
        toModelId: p.toModelId,
        reasonCode: p.reasonCode,
      });
    }
    case "context.compacted":
      return custom(state, "daedalus.context_compacted", { revision: event.payload.revision });
    case "run.steered":
      return custom(state, "daedalus.steered", { content: event.payload.item.content });
    case "run.settled":
      return settled(state, event.payload);
    case "run.state_changed":
      return event.payload.status === "waiting"
        ? clientWait(state, event.seq)
        : { state, events: [] };
    default:
      // Thread, branch and runtime-wide events have no canonical form (a Run's waits are
      // `interrupt`, its end `done`).
      return { state, events: [] };
  }
}

/**
 * Translates a Run's journal events, in seq order.
 *
 * @param runId the Run
 * @param events its journal events (others' are skipped), from its first
 * @param afterSeq only the canonical events of journal events after this seq are returned
 *   (the state still folds over all): how a client resumes a stream
 * @returns the canonical events with the seq each came from
 */
export function journalToCanonical(
  runId: string,
  events: Iterable<JournalEvent>,
  afterSeq = 0,
): SequencedCanonicalEvent[] {
  let state = canonicalFoldStart(runId);
  const out: SequencedCanonicalEvent[] = [];
  for (const event of events) {
    const step = canonicalStep(state, event);
    state = step.state;
    if (event.seq <= afterSeq) continue;
    for (const canonical of step.events) out.push({ seq: event.seq, event: canonical });
  }
  return out;
}

function callNodeId(runId: string, callOrdinal: number): string {
  return `${runId}/model_call/${callOrdinal}`;
}

function custom(state: CanonicalFoldState, name: string, payload: unknown): CanonicalStep {
  return { state, events: [{ type: "custom", name, payload }] };
}

function delta(
  state: CanonicalFoldState,
  itemId: string | null,
  text: string,
  field: "content" | "reasoning",
): CanonicalStep {
  if (itemId === null) return { state, events: [] };
  const seen = state.streamed[itemId] ?? { content: 0, reasoning: 0 };
  const next = { ...seen, [field]: seen[field] + text.length };
  return {
    state: { ...state, streamed: { ...state.streamed, [itemId]: next } },
    events: [{
      type: field === "content" ? "text_delta" : "reasoning_delta",
      messageId: itemId,
      delta: text,
    }],
  };
}

function item(state: CanonicalFoldState, item: Item): CanonicalStep {
  if (item.kind === "message") return message(state, item);
  if (item.kind === "tool_call") {
    if (state.openCalls.includes(item.id) || state.endedCalls.includes(item.id)) {
      return { state, events: [] };
    }
    const clientCalls = item.data.clientTool === true
      ? [...state.clientCalls, item.id]
      : state.clientCalls;
    return {
      state: { ...state, openCalls: [...state.openCalls, item.id], clientCalls },
      events: [{
        type: "tool_call_start",
        toolCallId: item.id,
        name: String(item.data.toolId ?? "tool"),
        argsDelta: JSON.stringify(item.data.arguments ?? {}),
      }],
    };
  }
  const callId = item.data.toolCallItemId;
  if (
    typeof callId !== "string" || item.status === "running" || item.status === "streaming" ||
    state.endedCalls.includes(callId)
  ) return { state, events: [] };
  return {
    state: endCall(state, callId),
    events: [{
      type: "tool_call_end",
      toolCallId: callId,
      result: item.content,
      isError: item.status !== "completed" || item.data.isError === true,
    }],
  };
}

/**
 * An assistant message: its deltas went out as they came; a completed message whose text
 * was not streamed (or not all of it) sends the rest, so a replay or a non-streaming
 * model loses nothing.
 */
function message(state: CanonicalFoldState, item: Item): CanonicalStep {
  if (item.role !== "assistant" || item.status === "streaming") return { state, events: [] };
  const seen = state.streamed[item.id] ?? { content: 0, reasoning: 0 };
  const reasoning = typeof item.data.reasoning === "string" ? item.data.reasoning : "";
  const events: CanonicalEvent[] = [];
  const moreReasoning = reasoning.slice(seen.reasoning);
  if (moreReasoning) {
    events.push({ type: "reasoning_delta", messageId: item.id, delta: moreReasoning });
  }
  const moreContent = item.content.slice(seen.content);
  if (moreContent) events.push({ type: "text_delta", messageId: item.id, delta: moreContent });
  if (events.length === 0) return { state, events };
  const streamed = {
    ...state.streamed,
    [item.id]: { content: item.content.length, reasoning: reasoning.length },
  };
  return { state: { ...state, streamed }, events };
}

/** What a client-side wait's interrupt says (its `data.reason`). */
export const CLIENT_TOOL_INTERRUPT_REASON = "client_tool";

/**
 * The Run waits: for an approval (its interrupt went out with `approval.requested`), or for
 * the caller's results of its open client-side calls — an interrupt naming them.
 */
function clientWait(state: CanonicalFoldState, seq: number): CanonicalStep {
  if (state.approvalPending) return { state, events: [] };
  const toolCallIds = state.openCalls.filter((id) => state.clientCalls.includes(id));
  if (toolCallIds.length === 0) return { state, events: [] };
  return {
    state,
    events: [{
      type: "interrupt",
      interruptId: `${state.runId}/client_tools/${seq}`,
      nodeName: null,
      message: "Waiting for the client's tool results",
      data: { reason: CLIENT_TOOL_INTERRUPT_REASON, toolCallIds },
    }],
  };
}

function endCall(state: CanonicalFoldState, callId: string): CanonicalFoldState {
  return {
    ...state,
    openCalls: state.openCalls.filter((id) => id !== callId),
    endedCalls: [...state.endedCalls, callId],
  };
}

function settled(
  state: CanonicalFoldState,
  payload: Extract<JournalEvent, { type: "run.settled" }>["payload"],
): CanonicalStep {
  const events: CanonicalEvent[] = state.openCalls.map((toolCallId) => ({
    type: "tool_call_end",
    toolCallId,
    result: UNFINISHED_CALL_RESULT,
    isError: true,
  }));
  let next = state;
  for (const id of state.openCalls) next = endCall(next, id);
  if (payload.status === "failed") {
    const code = payload.reasonCode ?? "run_failed";
    events.push({
      type: "error",
      code,
      message: payload.errorMessage ?? `The run failed (${code}).`,
      recoverable: false,
    });
  }
  events.push({ type: "done", status: payload.status, usage: state.usage });
  return { state: { ...next, done: true }, events };
}
