/**
 * Facts a Run records besides its items: model calls and their usage, context
 * compactions, managed processes and file changes.
 *
 * @module
 */
import type {
  EventPayload,
  JournalEvent,
  ModelCallPurpose,
  ProcessRecord,
  TokenUsage,
} from "@daedalus/protocol";
import type { Committed, StateStore, WriteContext } from "./store.ts";
import { readRunScope, type RunScope } from "./run_writes.ts";

/** A model call about to be made. */
export interface ModelInputFact {
  /** 1-based ordinal of the call within the run. */
  callOrdinal: number;
  /** The step of an execution call; null for compression and completion checks. */
  stepOrdinal: number | null;
  /** Why the call is made. */
  purpose: ModelCallPurpose;
  /** The ContextRevision in full on first use, else null. */
  contextRevision: Record<string, unknown> | null;
  /** What the call's input is made of (revision, item ranges, budgets). */
  stepInput: Record<string, unknown>;
}

/**
 * Records a model call's input (`model.input_prepared`).
 *
 * @param store the state store
 * @param runId the run
 * @param fact the call
 * @returns the event
 */
export function recordModelInput(
  store: StateStore,
  runId: string,
  fact: ModelInputFact,
): Committed<JournalEvent> {
  return store.write((context) => {
    const { status: _status, turnOrdinal: _ordinal, ...scope } = readRunScope(context.db, runId);
    return context.append({ type: "model.input_prepared", ...scope, payload: { ...fact } });
  });
}

/** How a model call ended. */
export interface ModelResponseFact {
  /** The call. */
  callOrdinal: number;
  /** Its outcome. */
  outcome: "completed" | "failed" | "cancelled";
  /** Provider-reported usage (completed calls only). */
  usage: TokenUsage | null;
  /** The model id the provider says answered. */
  responseModelId: string | null;
  /** The provider's request id. */
  requestId: string | null;
  /** Why it failed or was cancelled. */
  reasonCode?: string;
  /** The local calendar date the usage counts for (`YYYY-MM-DD`). */
  activityDate: string;
}

/**
 * Records a model call's end (`model.response_finished`), and its usage.
 *
 * @param store the state store
 * @param runId the run
 * @param fact how it ended
 * @returns the event
 */
export function recordModelResponse(
  store: StateStore,
  runId: string,
  fact: ModelResponseFact,
): Committed<JournalEvent> {
  return store.write((context) =>
    appendModelResponse(context, readRunScope(context.db, runId), fact)
  );
}

/**
 * Appends a `model.response_finished` event inside another write's transaction (a
 * step's completion commits it with the step's message: `completeStep`).
 *
 * @param context the write context
 * @param scope the run's scope ids
 * @param fact how the call ended
 * @returns the event
 */
export function appendModelResponse(
  context: WriteContext,
  scope: RunScope,
  fact: ModelResponseFact,
): JournalEvent {
  const { threadId, branchId, turnId, runId } = scope;
  const usage = fact.outcome === "completed" ? fact.usage : null;
  return context.append({
    type: "model.response_finished",
    threadId,
    branchId,
    turnId,
    runId,
    payload: { ...fact, usage },
  });
}

/**
 * Records a context compaction (`context.compacted`).
 *
 * @param store the state store
 * @param runId the run
 * @param revision the new ContextRevision number
 * @returns the event
 */
export function recordCompaction(
  store: StateStore,
  runId: string,
  revision: number,
): Committed<JournalEvent> {
  return store.write((context) =>
    appendCompaction(context, readRunScope(context.db, runId), revision)
  );
}

/**
 * Appends a `context.compacted` event inside another write's transaction (a
 * compaction commits it with its summary call's end: `completeCompaction`).
 *
 * @param context the write context
 * @param scope the run's scope ids
 * @param revision the new ContextRevision number
 * @returns the event
 */
export function appendCompaction(
  context: WriteContext,
  scope: RunScope,
  revision: number,
): JournalEvent {
  const { threadId, branchId, turnId, runId } = scope;
  return context.append({
    type: "context.compacted",
    threadId,
    branchId,
    turnId,
    runId,
    payload: { revision },
  });
}

/**
 * Records a managed process's facts (`process.recorded`); later records of the same
 * process replace the projection row.
 *
 * @param store the state store
 * @param process the process record
 * @returns the event
 */
export function recordProcess(store: StateStore, process: ProcessRecord): Committed<JournalEvent> {
  return store.write((context) => {
    const { status: _status, turnOrdinal: _ordinal, ...scope } = readRunScope(
      context.db,
      process.runId,
    );
    return context.append({ type: "process.recorded", ...scope, payload: { process } });
  });
}

/**
 * A recorded write or edit, as the file tools capture it: the `file.change_recorded`
 * payload (the protocol owns the shape; the captures and diff ride in its loose part).
 */
export type FileChangeFact = EventPayload<"file.change_recorded">;

/**
 * Appends a `file.change_recorded` event. Call it inside the transaction that
 * settles the tool call (the `facts` callback of `settleToolCall`), so the change and
 * the tool result are committed together.
 *
 * @param context the write context of that transaction
 * @param scope the run's scope ids
 * @param change the captured change
 * @returns the event
 */
export function appendFileChange(
  context: WriteContext,
  scope: RunScope,
  change: FileChangeFact,
): JournalEvent {
  const { threadId, branchId, turnId, runId } = scope;
  return context.append({
    type: "file.change_recorded",
    threadId,
    branchId,
    turnId,
    runId,
    payload: { ...change },
  });
}

/**
 * Appends a `process.recorded` event inside another write's transaction (a process
 * started by a tool call is committed with the call's result).
 *
 * @param context the write context
 * @param scope the run's scope ids
 * @param process the process record
 * @returns the event
 */
export function appendProcessRecord(
  context: WriteContext,
  scope: RunScope,
  process: ProcessRecord,
): JournalEvent {
  const { threadId, branchId, turnId, runId } = scope;
  return context.append({
    type: "process.recorded",
    threadId,
    branchId,
    turnId,
    runId,
    payload: { process },
  });
}
