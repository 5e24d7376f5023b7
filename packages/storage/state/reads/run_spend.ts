/**
 * What a Run has spent, as its budgets count it: tokens and model calls from its recorded
 * model calls, running time from its state changes (time `waiting` for the user does not
 * count), and what the user added to each limit by allowing its `budget_reached` approvals.
 *
 * @module
 */
import type { Approval, BudgetKind } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/** A Run's spending so far. */
export interface RunSpend {
  /** Input tokens of its model calls. */
  inputTokens: number;
  /** Output tokens of its model calls. */
  outputTokens: number;
  /** All tokens (as the providers reported `totalTokens`). */
  totalTokens: number;
  /** Model calls made (every purpose: execution, compaction, completion check). */
  modelCalls: number;
  /** Seconds the Run was `running`, up to `now`. */
  runningSeconds: number;
  /** What allowed `budget_reached` approvals added to each limit. */
  extensions: Record<BudgetKind, number>;
}

/**
 * Reads a Run's spending.
 *
 * @param db the state database
 * @param runId the run
 * @param now the time the running time counts up to
 * @returns the spending
 */
export function readRunSpend(db: StateDatabase, runId: string, now: Date): RunSpend {
  const calls = statement(
    db.connection,
    "SELECT usage_json FROM model_calls WHERE run_id = ?",
  ).all(runId);
  let inputTokens = 0;
  let outputTokens = 0;
  let totalTokens = 0;
  for (const row of calls) {
    if (row.usage_json === null) continue;
    const usage = JSON.parse(String(row.usage_json)) as Record<string, unknown>;
    inputTokens += typeof usage.inputTokens === "number" ? usage.inputTokens : 0;
    outputTokens += typeof usage.outputTokens === "number" ? usage.outputTokens : 0;
    totalTokens += typeof usage.totalTokens === "number" ? usage.totalTokens : 0;
  }
  return {
    inputTokens,
    outputTokens,
    totalTokens,
    modelCalls: calls.length,
    runningSeconds: runningSeconds(db, runId, now),
    extensions: extensions(db, runId),
  };
}

/** The Run's time in `running`: from each change into it to the next change out of it. */
function runningSeconds(db: StateDatabase, runId: string, now: Date): number {
  const changes = statement(
    db.connection,
    `SELECT created_at AS timestamp, json_extract(payload_json, '$.status') AS status FROM events
     WHERE run_id = ? AND event_type = 'run.state_changed' ORDER BY seq`,
  ).all(runId);
  let total = 0;
  let since: number | null = null;
  for (const change of changes) {
    const at = Date.parse(String(change.timestamp));
    if (since !== null) total += at - since;
    since = change.status === "running" ? at : null;
  }
  if (since !== null) total += now.getTime() - since;
  return Math.max(0, total) / 1000;
}

function extensions(db: StateDatabase, runId: string): Record<BudgetKind, number> {
  const added: Record<BudgetKind, number> = {
    tokens: 0,
    costUsd: 0,
    modelCalls: 0,
    wallTimeSeconds: 0,
  };
  const rows = statement(
    db.connection,
    `SELECT record_json FROM approvals WHERE run_id = ? AND status = 'allowed'
     AND tool_call_item_id IS NULL`,
  ).all(runId);
  for (const row of rows) {
    const approval = JSON.parse(String(row.record_json)) as Approval;
    if (approval.budget) added[approval.budget.kind] += approval.budget.extension;
  }
  return added;
}
