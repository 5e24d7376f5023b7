/**
 * A thread's compactions (`thread.compact`): each a `thread.compacted` event naming the
 * newest turn its summary covers. The event is the whole fact — later Runs read the
 * thread's compactions from the journal and use, for a history that contains a
 * compaction's `throughTurnId`, its summary in place of the turns up to it. The summary
 * call is recorded as a `compression` model call of the thread's last Run (whose model
 * made it), so its usage counts like every other call's.
 *
 * @module
 */
import type { JournalEvent, ThreadCompaction } from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import type { Committed, StateStore } from "./store.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { appendModelResponse, type ModelResponseFact } from "./run_facts.ts";
import { readRunScope } from "./run_writes.ts";

/** A journaled compaction of a thread. */
export interface ThreadCompactionRecord extends ThreadCompaction {
  /** The seq of its `thread.compacted` event (newer compactions have higher ones). */
  seq: number;
  /** The request that made it. */
  clientRequestId: string;
  /** The branch it was made on. */
  branchId: string | null;
}

/**
 * The thread's compactions, newest first.
 *
 * @param db the database
 * @param threadId the thread
 * @returns the compactions
 */
export function readThreadCompactions(
  db: StateDatabase,
  threadId: string,
): ThreadCompactionRecord[] {
  // The partial index events_thread_compacted_idx (schema 10) holds only these rows, so
  // every Run's read costs the thread's compactions, not its whole journal.
  const rows = statement(
    db.connection,
    `SELECT seq, branch_id, payload_json FROM events
     WHERE thread_id = ? AND event_type = 'thread.compacted' ORDER BY seq DESC`,
  ).all(threadId);
  return rows.map((row) => {
    const { turnId: _turnId, ...payload } = JSON.parse(String(row.payload_json)) as
      & ThreadCompaction
      & { clientRequestId: string; turnId?: string };
    return {
      ...payload,
      seq: Number(row.seq),
      branchId: row.branch_id === null ? null : String(row.branch_id),
    };
  });
}

/**
 * Each compacted turn's newest compaction: what a history that contains the turn uses.
 *
 * @param compactions the thread's compactions, newest first
 * @returns the compaction by `throughTurnId`
 */
export function compactionCuts(
  compactions: readonly ThreadCompactionRecord[],
): Map<string, ThreadCompactionRecord> {
  const cuts = new Map<string, ThreadCompactionRecord>();
  for (const compaction of compactions) {
    if (!cuts.has(compaction.throughTurnId)) cuts.set(compaction.throughTurnId, compaction);
  }
  return cuts;
}

/** Where the summary call of a `thread.compact` is recorded. */
export interface ThreadCompactionCall {
  /** The thread's last Run (its model makes the summary). */
  runId: string;
  /** The call's ordinal within that Run. */
  callOrdinal: number;
}

/**
 * Records the start of a `thread.compact` summary call: a `compression` model call of
 * the thread's last Run (`model.input_prepared`), with the next ordinal of that Run.
 *
 * @param store the state store
 * @param runId the thread's last Run (settled: one active Run per thread)
 * @param stepInput what the summary is made of
 * @returns the call
 * @throws {StoreError} `run_not_found`
 */
export function beginThreadCompaction(
  store: StateStore,
  runId: string,
  stepInput: Record<string, unknown>,
): Committed<ThreadCompactionCall> {
  return store.write(({ db, append }) => {
    const { status: _status, turnOrdinal: _ordinal, ...scope } = readRunScope(db, runId);
    const row = statement(
      db.connection,
      "SELECT COALESCE(MAX(call_ordinal), 0) AS last FROM model_calls WHERE run_id = ?",
    ).get(runId);
    const callOrdinal = Number(row?.last ?? 0) + 1;
    append({
      type: "model.input_prepared",
      ...scope,
      payload: {
        callOrdinal,
        stepOrdinal: null,
        purpose: "compression",
        contextRevision: null,
        stepInput: { callOrdinal, ...stepInput },
      },
    });
    return { runId, callOrdinal };
  });
}

/** What a finished `thread.compact` records. */
export interface ThreadCompactionInput extends ThreadCompaction {
  /** The thread. */
  threadId: string;
  /** The branch whose history was summarized. */
  branchId: string;
  /** The request (idempotency key). */
  clientRequestId: string;
}

/**
 * Ends a `thread.compact` in one transaction: its summary call's `model.response_finished`
 * (with the usage) and the `thread.compacted` event.
 *
 * @param store the state store
 * @param call the call {@linkcode beginThreadCompaction} recorded
 * @param response how the call ended (completed)
 * @param compaction what was compacted
 * @returns the `thread.compacted` event
 * @throws {StoreError} `run_not_found`
 */
export function completeThreadCompaction(
  store: StateStore,
  call: ThreadCompactionCall,
  response: ModelResponseFact,
  compaction: ThreadCompactionInput,
): Committed<JournalEvent> {
  return store.write((context) => {
    const scope = readRunScope(context.db, call.runId);
    appendModelResponse(context, scope, response);
    const { threadId, branchId, throughTurnId, ...rest } = compaction;
    return context.append({
      type: "thread.compacted",
      threadId,
      branchId,
      turnId: throughTurnId,
      payload: { throughTurnId, ...rest },
    });
  });
}

/** The thread's last Run and its turn (what `thread.compact` summarizes with), or null. */
export interface LastThreadRun {
  /** The Run. */
  runId: string;
  /** Its provider. */
  providerId: string;
  /** Its model. */
  modelId: string;
}

/**
 * The thread's branch that `thread.compact` summarizes (its active branch, else its
 * default one).
 *
 * @param db the database
 * @param threadId the thread
 * @returns the branch id
 * @throws {StoreError} `thread_not_found`
 */
export function readActiveBranchId(db: StateDatabase, threadId: string): string {
  const row = statement(
    db.connection,
    "SELECT COALESCE(active_branch_id, default_branch_id) AS branch_id FROM threads WHERE id = ?",
  ).get(threadId);
  if (!row) throw new StoreError("thread_not_found", `Thread ${threadId} does not exist`);
  return String(row.branch_id);
}

/**
 * The newest Run of a branch, whose model a `thread.compact` uses.
 *
 * @param db the database
 * @param branchId the branch
 * @returns the Run, or null when the branch has none
 */
export function readLastBranchRun(db: StateDatabase, branchId: string): LastThreadRun | null {
  const row = statement(
    db.connection,
    `SELECT r.id, r.provider_id, r.model_id FROM runs r JOIN turns t ON t.id = r.turn_id
     WHERE t.branch_id = ? ORDER BY t.ordinal DESC, r.created_at DESC, r.id DESC LIMIT 1`,
  ).get(branchId);
  if (!row) return null;
  return {
    runId: String(row.id),
    providerId: String(row.provider_id),
    modelId: String(row.model_id),
  };
}

/** How much of its window the thread's last execution call used. */
export interface ThreadContextUse {
  /** The call's Run. */
  runId: string;
  /** Its input tokens: the provider's count, else the estimate. */
  inputTokens: number;
  /** Whether `inputTokens` is the estimate. */
  estimated: boolean;
  /** The window it was sized for. */
  contextWindow: number;
}

/**
 * The thread's last execution call's input against its window (the PWA's context meter).
 *
 * @param db the database
 * @param threadId the thread
 * @returns the use, or null before the thread's first execution call
 */
export function readThreadContextUse(
  db: StateDatabase,
  threadId: string,
): ThreadContextUse | null {
  const row = statement(
    db.connection,
    `SELECT mc.run_id, mc.input_json, mu.input_tokens FROM turns t
     JOIN runs r ON r.turn_id = t.id
     JOIN model_calls mc ON mc.run_id = r.id AND mc.purpose = 'execution'
     LEFT JOIN model_usages mu ON mu.run_id = mc.run_id AND mu.call_ordinal = mc.call_ordinal
     WHERE t.thread_id = ? ORDER BY mc.prepared_at DESC, mc.call_ordinal DESC LIMIT 1`,
  ).get(threadId);
  if (!row) return null;
  const input = JSON.parse(String(row.input_json)) as {
    contextWindow?: unknown;
    estimatedInputTokens?: unknown;
  };
  const contextWindow = Number(input.contextWindow);
  if (!Number.isInteger(contextWindow) || contextWindow < 1) return null;
  const reported = row.input_tokens === null ? null : Number(row.input_tokens);
  return {
    runId: String(row.run_id),
    inputTokens: reported ?? Math.max(0, Number(input.estimatedInputTokens) || 0),
    estimated: reported === null,
    contextWindow,
  };
}
