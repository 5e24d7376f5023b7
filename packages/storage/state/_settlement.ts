/**
 * A Run's state changes inside the caller's transaction: the `run.state_changed` event
 * and the settlement (ending the Run's active Items, the terminal state, the one
 * `run.settled`). `settleRun` commits a settlement alone; `completeStep` commits a
 * final step and its settlement together, so neither is journaled without the other.
 *
 * @module
 */
import {
  RUN_ERROR_MESSAGE_MAX_CHARS,
  runFailureClass,
  type RunReasonCode,
  type RunStatus,
  type SettledStatus,
} from "@daedalus/protocol";
import type { WriteContext } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { statement } from "../_statements.ts";
import { readRunSummary } from "./run_row.ts";
import { readRunScope, type RunScope, type Settlement } from "./run_writes.ts";
import { finishItem, scopeIds } from "./_item_writes.ts";
import { cancelPendingApprovals } from "./approval_writes.ts";

/** How a Run settles. */
export interface SettlementRequest {
  /** Terminal status. */
  status: SettledStatus;
  /** Why (null for completed). */
  reasonCode: string | null;
  /** What went wrong in words, if known; clipped to `RUN_ERROR_MESSAGE_MAX_CHARS`. */
  errorMessage?: string | null;
}

/** Appends a `run.state_changed` event with the run row as it becomes. */
export function changeState(
  context: WriteContext,
  scope: RunScope,
  previousStatus: RunStatus,
  status: RunStatus,
  changes: {
    startedAt?: string;
    settledAt?: string;
    reasonCode?: string | null;
    errorMessage?: string;
  },
): void {
  const current = readRunSummary(context.db, scope.runId);
  const run = { ...current, status, ...changes };
  const { threadId, branchId, turnId, runId } = scope;
  context.append({
    type: "run.state_changed",
    threadId,
    branchId,
    turnId,
    runId,
    payload: { status, previousStatus, run },
  });
}

/**
 * Settles a Run inside the caller's transaction; a Run already settled is left as it
 * is and its first settlement reported.
 */
export function settleWithin(
  context: WriteContext,
  runId: string,
  request: SettlementRequest,
): Settlement {
  const { status, reasonCode } = request;
  // Absent rather than null when there is none, so older readers see what they knew.
  const message = request.errorMessage
    ? { errorMessage: clipErrorMessage(request.errorMessage) }
    : {};
  const scope = readRunScope(context.db, runId);
  if (isTerminal(scope.status)) return earlierSettlement(context.db, runId);
  // A Run that settles while waiting (cancelled, shut down) leaves no approval pending.
  if (scope.status === "waiting") cancelPendingApprovals(context, scope);
  const active = statement(
    context.db.connection,
    "SELECT id FROM items WHERE run_id = ? AND status IN ('streaming', 'running') ORDER BY ordinal",
  ).all(runId);
  const itemStatus = status === "completed" ? "completed" : status;
  for (const row of active) finishItem(context, String(row.id), { status: itemStatus });
  changeState(context, scope, scope.status, status, {
    startedAt: readRunSummary(context.db, runId).startedAt ?? context.now,
    settledAt: context.now,
    reasonCode,
    ...message,
  });
  context.append({
    type: "run.settled",
    ...scopeIds(scope),
    payload: {
      status,
      reasonCode,
      // Settlement codes come from the runtime's own vocabulary; the schema checks them.
      failureClass: runFailureClass(reasonCode as RunReasonCode | null),
      ...message,
    },
  });
  return { settled: true, status, reasonCode };
}

/** The settlement a Run already has. */
export function earlierSettlement(db: StateDatabase, runId: string): Settlement {
  const row = statement(db.connection, "SELECT status, reason_code FROM runs WHERE id = ?").get(
    runId,
  );
  return {
    settled: false,
    status: String(row?.status) as SettledStatus,
    reasonCode: row?.reason_code === null || row?.reason_code === undefined
      ? null
      : String(row.reason_code),
  };
}

/**
 * Whether a write failed because another connection settled the Run between its read
 * and its append: the unique index events_one_settled_per_run refused the second
 * run.settled.
 */
export function isSettlementRace(error: unknown): boolean {
  return String((error as Error)?.message).includes("UNIQUE constraint failed: events.run_id");
}

function clipErrorMessage(text: string): string {
  return text.length <= RUN_ERROR_MESSAGE_MAX_CHARS
    ? text
    : `${text.slice(0, RUN_ERROR_MESSAGE_MAX_CHARS - 1)}…`;
}

function isTerminal(status: RunStatus): status is SettledStatus {
  return status === "completed" || status === "failed" || status === "cancelled";
}
