/**
 * `run.resume` in the store: a new Run in the Turn of a Run that settled failed or
 * cancelled, whose frozen config names the Run it continues (`resumedFromRunId`). Its
 * context is built from the journal: the items of the Runs it continues come first
 * (`readResumedItems`).
 *
 * @module
 */
import { type Item, newId, type RunConfig, type RunSummary } from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { hasActiveRun, readThread } from "./thread_writes.ts";
import { splitRunConfig } from "./run_config_parts.ts";
import { readRunItems } from "./reads/run_items.ts";

/** What a resumed Run is made of. */
export interface ResumeRunInput {
  /** The Run to continue: settled failed or cancelled. */
  fromRunId: string;
  /** The new Run's config, frozen now (its `resumedFromRunId` is set here). */
  runConfig: RunConfig;
  /** Makes a retried resume return the first one. */
  clientRequestId?: string;
}

/** The new Run and where it is. */
export interface ResumeRunResult {
  /** The thread. */
  threadId: string;
  /** The branch. */
  branchId: string;
  /** The Turn (the resumed Run's). */
  turnId: string;
  /** The new Run. */
  runId: string;
  /** The Run it continues. */
  resumedFromRunId: string;
  /** False when a retried clientRequestId found the first resume. */
  created: boolean;
}

/**
 * Queues a Run that continues `fromRunId` in its Turn (`run.state_changed` queued, with the
 * frozen config): one transaction.
 *
 * @param store the state store
 * @param input the Run to continue and the new config
 * @returns the new Run's ids
 * @throws {StoreError} `run_not_found`; `run_not_resumable` when the Run did not settle
 *   failed or cancelled, is not the latest Run of its branch's latest Turn, or its thread is
 *   archived or busy; `idempotency_conflict` for a clientRequestId used for another Run
 */
export function resumeRun(store: StateStore, input: ResumeRunInput): Committed<ResumeRunResult> {
  return store.write(({ db, now, append }) => {
    const replay = replayResume(db, input);
    if (replay) return replay;
    const from = statement(
      db.connection,
      `SELECT r.id, r.status, r.turn_id, r.execution_policy, t.thread_id, t.branch_id, t.ordinal
       FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?`,
    ).get(input.fromRunId);
    if (!from) throw new StoreError("run_not_found", `Run ${input.fromRunId} does not exist`);
    const refuse = (why: string): never => {
      throw new StoreError("run_not_resumable", `Run ${input.fromRunId} ${why}`);
    };
    if (from.status !== "failed" && from.status !== "cancelled") {
      refuse(`is ${from.status}; only a failed or cancelled Run can be resumed`);
    }
    const threadId = String(from.thread_id);
    const branchId = String(from.branch_id);
    const turnId = String(from.turn_id);
    const latestRun = statement(
      db.connection,
      "SELECT id FROM runs WHERE turn_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
    ).get(turnId);
    if (latestRun?.id !== input.fromRunId) refuse("was resumed already (a later Run continues it)");
    const latestTurn = statement(
      db.connection,
      "SELECT max(ordinal) AS ordinal FROM turns WHERE branch_id = ?",
    ).get(branchId);
    if (Number(latestTurn?.ordinal) !== Number(from.ordinal)) {
      refuse("is not in the latest turn of its branch; resume continues only the newest work");
    }
    if (readThread(db, threadId).archivedAt !== null) refuse("is in an archived thread");
    if (hasActiveRun(db, threadId)) refuse("is in a thread with a Run still active");
    const runId = newId("run");
    const config: RunConfig = { ...input.runConfig, resumedFromRunId: input.fromRunId };
    const run: RunSummary = {
      id: runId,
      turnId,
      threadId,
      branchId,
      providerId: config.providerId,
      modelId: config.modelId,
      executionPolicy: config.executionPolicy,
      status: "queued",
      reasonCode: null,
      failureClass: null,
      modelCalls: 0,
      compactions: 0,
      createdAt: now,
      startedAt: null,
      settledAt: null,
    };
    const { record, newParts } = splitRunConfig(db.connection, config);
    append({
      type: "run.state_changed",
      threadId,
      branchId,
      turnId,
      runId,
      payload: {
        status: "queued",
        previousStatus: null,
        run,
        clientRequestId: input.clientRequestId ?? null,
        runConfig: record,
        ...(newParts.length > 0 ? { runConfigParts: newParts } : {}),
      },
    });
    return { threadId, branchId, turnId, runId, resumedFromRunId: input.fromRunId, created: true };
  });
}

function replayResume(db: StateDatabase, input: ResumeRunInput): ResumeRunResult | null {
  if (!input.clientRequestId) return null;
  const row = statement(
    db.connection,
    `SELECT r.id, r.turn_id, t.thread_id, t.branch_id,
       json_extract(c.config_json, '$.resumedFromRunId') AS resumed_from
     FROM runs r JOIN turns t ON t.id = r.turn_id LEFT JOIN run_configs c ON c.run_id = r.id
     WHERE r.client_request_id = ?`,
  ).get(input.clientRequestId);
  if (!row) return null;
  if (row.resumed_from !== input.fromRunId) {
    throw new StoreError(
      "idempotency_conflict",
      `clientRequestId "${input.clientRequestId}" was already used for another request`,
    );
  }
  return {
    threadId: String(row.thread_id),
    branchId: String(row.branch_id),
    turnId: String(row.turn_id),
    runId: String(row.id),
    resumedFromRunId: input.fromRunId,
    created: false,
  };
}

/**
 * The items of the Runs a Run continues (`run.resume`, possibly several times), oldest Run
 * first, each Run's in ordinal order: the first part of the resumed Run's context.
 *
 * @param db the state database
 * @param runId the resumed Run
 * @returns the earlier Runs' items (empty for a Run that resumes none)
 */
export function readResumedItems(db: StateDatabase, runId: string): Item[] {
  const chain: string[] = [];
  let current: string | null = runId;
  // Bounded by the Runs of one Turn; a cycle cannot be written (each names an older Run).
  while (current !== null && chain.length < 1000) {
    const fromRun: unknown = statement(
      db.connection,
      `SELECT json_extract(config_json, '$.resumedFromRunId') AS from_run FROM run_configs
       WHERE run_id = ?`,
    ).get(current)?.from_run;
    current = typeof fromRun === "string" ? fromRun : null;
    if (current !== null) chain.unshift(current);
  }
  return chain.flatMap((id) => readRunItems(db, id));
}
