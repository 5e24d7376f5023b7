/**
 * A Run's row as the wire's RunSummary.
 *
 * @module
 */
import {
  type RunBudget,
  type RunConfig,
  RunConfigRecord,
  runFailureClass,
  type RunSummary,
} from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import { statement } from "../_statements.ts";
import { StoreError } from "./errors.ts";
import { ReadError } from "./reads/errors.ts";
import { resolveRunConfig } from "./run_config_parts.ts";
import { deepFreeze } from "../_deep_freeze.ts";
import { RUN_CONFIG_CACHE_MAX_ENTRIES } from "../limits.ts";
import type { DatabaseSync } from "node:sqlite";

/**
 * Reads one Run as the wire's RunSummary, with its model-call and compaction counts.
 *
 * @param db the database
 * @param runId the run
 * @returns the run
 * @throws {StoreError} `run_not_found`
 */
export function readRunSummary(db: StateDatabase, runId: string): RunSummary {
  const row = statement(
    db.connection,
    `SELECT r.*, t.thread_id, t.branch_id,
       (SELECT count(*) FROM model_calls c WHERE c.run_id = r.id) AS model_calls,
       (SELECT count(*) FROM context_revisions v WHERE v.run_id = r.id) AS revisions,
       (SELECT json_extract(g.config_json, '$.budget') FROM run_configs g WHERE g.run_id = r.id)
         AS budget_json
     FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?`,
  ).get(runId);
  if (!row) throw new StoreError("run_not_found", `Run ${runId} does not exist`);
  const reasonCode = row.reason_code === null
    ? null
    : String(row.reason_code) as NonNullable<RunSummary["reasonCode"]>;
  return {
    id: String(row.id),
    turnId: String(row.turn_id),
    threadId: String(row.thread_id),
    branchId: String(row.branch_id),
    providerId: String(row.provider_id),
    modelId: String(row.model_id),
    executionPolicy: String(row.execution_policy) as RunSummary["executionPolicy"],
    status: String(row.status) as RunSummary["status"],
    reasonCode,
    // Derived, not stored: the mapping may grow without migrating old rows.
    failureClass: runFailureClass(reasonCode),
    // Present only when there is one, like in the run.settled that carried it.
    ...(typeof row.error_message === "string" ? { errorMessage: row.error_message } : {}),
    // Likewise only once the Run continued on its model's fallback (run.model_fallback).
    ...(typeof row.fallback_provider_id === "string" && typeof row.fallback_model_id === "string"
      ? {
        fallbackModel: { providerId: row.fallback_provider_id, modelId: row.fallback_model_id },
      }
      : {}),
    ...budgetOf(row.budget_json),
    modelCalls: Number(row.model_calls),
    compactions: Math.max(0, Number(row.revisions) - 1),
    createdAt: String(row.created_at),
    startedAt: row.started_at === null ? null : String(row.started_at),
    settledAt: row.settled_at === null ? null : String(row.settled_at),
  };
}

/**
 * Reads the RunConfig frozen when the Run's turn started, with its parts resolved.
 *
 * @param db the database
 * @param runId the run
 * @returns the resolved config, shared and deeply frozen
 * @throws {StoreError} `run_not_found` when the run has no config
 * @throws {ReadError} `projection_corrupt` when the stored config or a part is malformed
 */
export function readRunConfig(db: StateDatabase, runId: string): RunConfig {
  const row = statement(db.connection, "SELECT config_json FROM run_configs WHERE run_id = ?").get(
    runId,
  );
  if (!row) throw new StoreError("run_not_found", `Run ${runId} has no frozen config`);
  const text = String(row.config_json);
  // A frozen config never changes, and a Run's loop, tools and after-Run work ask for it
  // several times: the same stored text gives the same (frozen) config without a second
  // parse. The row is still read, so a deleted Run is still not found.
  let cache = resolvedConfigs.get(db.connection);
  if (cache === undefined) resolvedConfigs.set(db.connection, cache = new Map());
  const cached = cache.get(runId);
  if (cached !== undefined && cached.text === text) return cached.config;
  const parsed = RunConfigRecord.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new ReadError(
      "projection_corrupt",
      `Stored RunConfig of ${runId} does not match the protocol: ${parsed.error.message}`,
      undefined,
      { cause: parsed.error },
    );
  }
  const config = deepFreeze(resolveRunConfig(db.connection, parsed.data));
  // Oldest first out: only the Runs in progress ask again.
  if (cache.size >= RUN_CONFIG_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(runId, { text, config });
  return config;
}

/** The configs {@linkcode readRunConfig} resolved, per connection, by run id. */
const resolvedConfigs = new WeakMap<
  DatabaseSync,
  Map<string, { text: string; config: RunConfig }>
>();

/**
 * Where a Run stands in submission order: the seq of its first event (the `queued`
 * `run.state_changed` that created it). The scheduler starts a thread's Runs in this order,
 * whatever order their submitters got round to queueing them in.
 *
 * @param db the database
 * @param runId the run
 * @returns the seq, or null for a Run the journal does not know
 */
export function readRunSubmissionSeq(db: StateDatabase, runId: string): number | null {
  const row = statement(
    db.connection,
    "SELECT min(seq) AS seq FROM events WHERE run_id = ?",
  ).get(runId);
  return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
}

/**
 * When a thread's newest queued Run submitted before `seq` (other than `runId`) was created,
 * or null when there is none: the scheduler does not start a thread's later Run while an
 * earlier one is still to be queued (two connections' turn.starts can reach the scheduler in
 * the other order than they committed).
 *
 * @param db the database
 * @param threadId the thread
 * @param runId the Run about to start
 * @param seq its submission seq ({@linkcode readRunSubmissionSeq})
 * @returns the earlier Run's `created_at`, or null
 */
export function earlierQueuedRunCreatedAt(
  db: StateDatabase,
  threadId: string,
  runId: string,
  seq: number,
): string | null {
  const row = statement(
    db.connection,
    `SELECT max(r.created_at) AS created_at FROM runs r JOIN turns t ON t.id = r.turn_id
     WHERE t.thread_id = ? AND r.id != ? AND r.status = 'queued'
       AND (SELECT min(e.seq) FROM events e WHERE e.run_id = r.id) < ?`,
  ).get(threadId, runId, seq);
  return typeof row?.created_at === "string" ? row.created_at : null;
}

/**
 * A Run's budget from its stored config (`json_extract` of `$.budget`), present only when it
 * has one; a value that is not an object is left out rather than guessed.
 *
 * @param value the column
 * @returns `{budget}` or nothing
 */
export function budgetOf(value: unknown): { budget?: RunBudget } {
  if (typeof value !== "string") return {};
  try {
    const budget = JSON.parse(value);
    return typeof budget === "object" && budget !== null && !Array.isArray(budget)
      ? { budget: budget as RunBudget }
      : {};
  } catch {
    return {};
  }
}
