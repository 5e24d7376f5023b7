/**
 * The open thread's conversation as a pure projection: `turn.list` pages (newest first,
 * older ones prepended) merged with `run.*` / `item.*` events into turns, runs and items.
 *
 * @module
 */
import type {
  Item,
  JournalEvent,
  ModelRef,
  ResultOf,
  RunBudget,
  RunFailureClass,
  RunReasonCode,
  RunStatus,
  Turn,
  TurnSiblings,
} from "@daedalus/client";
import { admit, land, type SeqGate } from "./seq_gate.ts";
import {
  emptyRunUsage,
  recordedUsage,
  type RunUsage,
  withModelInput,
  withModelResponse,
} from "./run_usage.ts";

/** A Run that moved to its model's fallback (`run.model_fallback`). */
export interface RunFallback {
  /** The Run's own model, which failed. */
  from: ModelRef;
  /** The fallback it continued on. */
  to: ModelRef;
  /**
   * Why the first model's call failed; null when only `turn.list` told of the move (the
   * run record names the fallback, not the reason).
   */
  reasonCode: RunReasonCode | null;
  /**
   * When the move happened (the event's timestamp), so the feed shows the line where it
   * happened; null when only `turn.list` told of it.
   */
  at?: string | null;
}

/** One Run as the conversation shows it. */
export interface RunView {
  id: string;
  turnId: string;
  status: RunStatus;
  reasonCode: RunReasonCode | null;
  /** What a failed Run asks of the user (the runtime derives it from the reason code). */
  failureClass: RunFailureClass | null;
  /** A failed Run's error message (the provider's words, redacted), when it has one. */
  errorMessage?: string | null;
  providerId: string | null;
  modelId: string | null;
  /** The fallback the Run continued on; absent or null while it stayed on its model. */
  fallback?: RunFallback | null;
  /** Model calls prepared so far (`model.input_prepared`). */
  modelCalls: number;
  /** Context compactions so far (`context.compacted`). */
  compactions: number;
  /** The Run's budget (limits it pauses at); absent when it has none. */
  budget?: RunBudget;
  /** When the Run started, or null while queued. */
  startedAt: string | null;
  /** When the Run settled, or null while active. */
  settledAt: string | null;
  /** Items in ordinal order. */
  items: readonly Item[];
  /** Tokens and context use from the Run's live model events; absent when none came. */
  usage?: RunUsage;
}

/** One Turn as the conversation shows it. */
export interface TurnView {
  id: string;
  ordinal: number;
  runs: readonly RunView[];
  /** The branch the turn lives on (a shared turn: the branch it was forked from). */
  branchId?: string;
  /** The previous turn of its history; null for a first turn; absent when not told. */
  parentTurnId?: string | null;
  /** The turns that follow the same previous turn (the branch switcher's ‹ 2/3 ›). */
  siblings?: TurnSiblings;
}

/** The open thread's conversation. */
export interface ConversationState extends SeqGate {
  threadId: string;
  /** Turns in ordinal order: the shown branch's history. */
  turns: readonly TurnView[];
  /**
   * Turns started on another branch of the thread (their previous turn is not the last
   * shown one): their events are not this feed's.
   */
  otherBranchTurnIds?: readonly string[];
}

/**
 * The conversation of a thread before `turn.list` answered.
 *
 * @param threadId the thread
 */
export function emptyConversation(threadId: string): ConversationState {
  return { threadId, snapshotSeq: null, appliedSeq: 0, pending: [], turns: [] };
}

/**
 * The fallback a run record names, keeping the reason an earlier `run.model_fallback`
 * gave (the record carries none).
 */
function recordedFallback(
  run: { providerId: string; modelId: string; fallbackModel?: ModelRef | null },
  known: RunFallback | null | undefined,
): RunFallback | null {
  if (!run.fallbackModel) return known ?? null;
  const to = run.fallbackModel;
  const sameMove = known && known.to.providerId === to.providerId &&
    known.to.modelId === to.modelId;
  return {
    from: { providerId: run.providerId, modelId: run.modelId },
    to: { providerId: to.providerId, modelId: to.modelId },
    reasonCode: sameMove ? known.reasonCode : null,
    at: sameMove ? known.at ?? null : null,
  };
}

function turnView(turn: Turn): TurnView {
  return {
    id: turn.id,
    ordinal: turn.ordinal,
    branchId: turn.branchId,
    ...(turn.parentTurnId !== undefined ? { parentTurnId: turn.parentTurnId } : {}),
    ...(turn.siblings ? { siblings: turn.siblings } : {}),
    runs: turn.runs.map((run) => ({
      id: run.id,
      turnId: run.turnId,
      status: run.status,
      reasonCode: run.reasonCode,
      // A runtime older than the field sends none: no class line rather than a wrong one.
      failureClass: run.failureClass ?? null,
      errorMessage: run.errorMessage ?? null,
      providerId: run.providerId,
      modelId: run.modelId,
      fallback: recordedFallback(run, null),
      modelCalls: run.modelCalls,
      compactions: run.compactions,
      ...(run.budget ? { budget: run.budget } : {}),
      ...(run.usage ? { usage: recordedUsage(run.usage) } : {}),
      startedAt: run.startedAt,
      settledAt: run.settledAt,
      items: [...run.items].sort((a, b) => a.ordinal - b.ordinal),
    })),
  };
}

/**
 * Lands a `turn.list` result (the newest page; older pages arrive with
 * {@linkcode applyOlderTurns}).
 *
 * @param state the conversation
 * @param page the result
 * @returns the state with the page's turns and the held events after it
 */
export function applyTurnList(
  state: ConversationState,
  page: Pick<ResultOf<"turn.list">, "turns" | "snapshotSeq">,
): ConversationState {
  const turns = mergeTurns(page.turns.map(turnView), state.turns);
  if (state.snapshotSeq !== null) return { ...state, turns: mergeTurns(state.turns, turns) };
  return land({ ...state, turns }, page.snapshotSeq, applyConversationEvent);
}

/**
 * Adds an older page of turns; turns already known keep their (newer) state.
 *
 * @param state the conversation
 * @param turns the older turns
 * @returns the state
 */
export function applyOlderTurns(
  state: ConversationState,
  turns: readonly Turn[],
): ConversationState {
  return { ...state, turns: mergeTurns(state.turns, turns.map(turnView)) };
}

/** Unions two turn lists by id; `preferred` wins on conflicts. Sorted by ordinal. */
function mergeTurns(preferred: readonly TurnView[], other: readonly TurnView[]): TurnView[] {
  const byId = new Map<string, TurnView>();
  for (const turn of other) byId.set(turn.id, turn);
  for (const turn of preferred) byId.set(turn.id, turn);
  return [...byId.values()].sort((a, b) => a.ordinal - b.ordinal);
}

/**
 * Applies live events to the conversation; events of other threads are ignored.
 *
 * @param state the conversation
 * @param events events in any order
 * @returns the new state
 */
export function applyConversationEvents(
  state: ConversationState,
  events: readonly JournalEvent[],
): ConversationState {
  const mine = events.filter((e) => e.threadId === state.threadId);
  return admit(state, mine, applyConversationEvent);
}

/**
 * Whether a turn that just started continues another branch than the one shown: its
 * previous turn is not the last shown turn (a runtime older than branches tells none).
 */
function startsElsewhere(state: ConversationState, turn: Turn | undefined): boolean {
  if (!turn || turn.parentTurnId === undefined) return false;
  if (state.turns.some((known) => known.id === turn.id)) return false;
  return turn.parentTurnId !== (state.turns.at(-1)?.id ?? null);
}

function applyConversationEvent(
  state: ConversationState,
  event: JournalEvent,
): ConversationState {
  const elsewhere = state.otherBranchTurnIds ?? [];
  if (event.turnId && elsewhere.includes(event.turnId)) return state;
  switch (event.type) {
    case "run.state_changed": {
      const { run, turn } = event.payload;
      if (startsElsewhere(state, turn as Turn | undefined)) {
        return { ...state, otherBranchTurnIds: [...elsewhere, run.turnId] };
      }
      const tree = turn
        ? {
          branchId: turn.branchId,
          ...(turn.parentTurnId !== undefined ? { parentTurnId: turn.parentTurnId } : {}),
        }
        : {};
      return updateRun(state, run.turnId, run.id, turn?.ordinal, (view) => ({
        ...view,
        status: event.payload.status,
        reasonCode: run.reasonCode,
        failureClass: run.failureClass ?? null,
        errorMessage: run.errorMessage ?? view.errorMessage ?? null,
        providerId: run.providerId,
        modelId: run.modelId,
        fallback: recordedFallback(run, view.fallback),
        modelCalls: Math.max(view.modelCalls, run.modelCalls),
        compactions: Math.max(view.compactions, run.compactions),
        ...(run.budget ? { budget: run.budget } : {}),
        startedAt: run.startedAt ?? view.startedAt,
        settledAt: run.settledAt ?? view.settledAt,
      }), tree);
    }
    case "run.settled": {
      if (!event.turnId || !event.runId) return state;
      return updateRun(state, event.turnId, event.runId, undefined, (view) => ({
        ...view,
        status: event.payload.status,
        reasonCode: event.payload.reasonCode,
        failureClass: event.payload.failureClass ?? null,
        errorMessage: event.payload.errorMessage ?? view.errorMessage ?? null,
        settledAt: view.settledAt ?? event.timestamp,
      }));
    }
    case "run.model_fallback": {
      if (!event.turnId || !event.runId) return state;
      const moved = event.payload;
      return updateRun(state, event.turnId, event.runId, undefined, (view) => ({
        ...view,
        fallback: {
          from: { providerId: moved.fromProviderId, modelId: moved.fromModelId },
          to: { providerId: moved.toProviderId, modelId: moved.toModelId },
          reasonCode: moved.reasonCode,
          at: event.timestamp,
        },
      }));
    }
    case "model.input_prepared": {
      if (!event.turnId || !event.runId) return state;
      const calls = event.payload.callOrdinal;
      return updateRun(state, event.turnId, event.runId, undefined, (view) => ({
        ...view,
        modelCalls: Math.max(view.modelCalls, calls),
        startedAt: view.startedAt ?? event.timestamp,
        usage: withModelInput(view.usage ?? emptyRunUsage(), event.payload),
      }));
    }
    case "model.response_finished": {
      if (!event.turnId || !event.runId) return state;
      return updateRun(state, event.turnId, event.runId, undefined, (view) => ({
        ...view,
        usage: withModelResponse(view.usage ?? emptyRunUsage(), event.payload),
      }));
    }
    case "context.compacted": {
      if (!event.turnId || !event.runId) return state;
      // revision 1 is the Run's first context; each compaction adds one
      const compactions = event.payload.revision - 1;
      return updateRun(state, event.turnId, event.runId, undefined, (view) => ({
        ...view,
        compactions: Math.max(view.compactions, compactions),
      }));
    }
    case "item.started":
    case "item.completed":
    case "run.steered": {
      const item = event.payload.item;
      return updateRun(state, item.turnId, item.runId, undefined, (view) => ({
        ...view,
        items: upsertItem(view.items, item),
      }));
    }
    case "item.delta": {
      const { turnId, runId, itemId } = event;
      if (!turnId || !runId || !itemId) return state;
      if ((event.payload.field ?? "content") !== "content") return state;
      return updateRun(state, turnId, runId, undefined, (view) => {
        const existing = view.items.find((item) => item.id === itemId);
        const base: Item = existing ?? {
          id: itemId,
          turnId,
          runId,
          ordinal: Number.MAX_SAFE_INTEGER,
          kind: "message",
          role: "assistant",
          status: "streaming",
          content: "",
          data: {},
          createdAt: event.timestamp,
          updatedAt: event.timestamp,
        };
        return {
          ...view,
          items: upsertItem(view.items, {
            ...base,
            content: base.content + event.payload.delta,
            updatedAt: event.timestamp,
          }),
        };
      });
    }
    default:
      return state;
  }
}

function upsertItem(items: readonly Item[], item: Item): Item[] {
  const next = items.filter((existing) => existing.id !== item.id);
  next.push(item);
  return next.sort((a, b) => a.ordinal - b.ordinal);
}

/** Finds (or creates) the run, and replaces it with `change(run)`. */
function updateRun(
  state: ConversationState,
  turnId: string,
  runId: string,
  turnOrdinal: number | undefined,
  change: (run: RunView) => RunView,
  tree: Pick<TurnView, "branchId" | "parentTurnId"> = {},
): ConversationState {
  const turns = [...state.turns];
  let index = turns.findIndex((turn) => turn.id === turnId);
  if (index === -1) {
    const ordinal = turnOrdinal ?? (turns.at(-1)?.ordinal ?? 0) + 1;
    turns.push({ id: turnId, ordinal, runs: [], ...tree });
    turns.sort((a, b) => a.ordinal - b.ordinal);
    index = turns.findIndex((turn) => turn.id === turnId);
  }
  const turn = turns[index]!;
  const runs = [...turn.runs];
  const at = runs.findIndex((run) => run.id === runId);
  const current = at === -1 ? queuedRun(runId, turnId) : runs[at]!;
  if (at === -1) runs.push(change(current));
  else runs[at] = change(current);
  turns[index] = { ...turn, runs };
  return { ...state, turns };
}

/**
 * A Run the conversation has only heard of: queued, nothing known of it yet.
 *
 * @param id the Run's id
 * @param turnId its turn
 * @returns the view, to be changed by the event that named it
 */
export function queuedRun(id: string, turnId: string): RunView {
  return {
    id,
    turnId,
    status: "queued",
    reasonCode: null,
    failureClass: null,
    providerId: null,
    modelId: null,
    modelCalls: 0,
    compactions: 0,
    startedAt: null,
    settledAt: null,
    items: [],
  };
}

/**
 * Whether a Run in this status has not settled (queued, running, or waiting for the
 * user's approval, which Stop cancels too).
 *
 * @param status the Run's status
 * @returns true while it can still produce events
 */
export function isActiveStatus(status: RunStatus): boolean {
  return status === "queued" || status === "running" || status === "waiting";
}

/**
 * The Run that Stop would cancel: the last unsettled Run of the conversation.
 *
 * @param state the conversation
 * @returns its id, or null when nothing is active
 */
export function activeRunId(state: ConversationState): string | null {
  for (let t = state.turns.length - 1; t >= 0; t--) {
    const runs = state.turns[t]!.runs;
    for (let r = runs.length - 1; r >= 0; r--) {
      if (isActiveStatus(runs[r]!.status)) return runs[r]!.id;
    }
  }
  return null;
}
