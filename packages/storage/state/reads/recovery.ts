/**
 * The runs a restart must settle or resume: every run still `queued` or `running`, in
 * the order the journal first mentioned them, so recovery replays them as they began.
 *
 * @module
 */
import type { RunStatus } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { textColumn } from "../_sqlite.ts";
import { ReadError } from "./errors.ts";
import { statement } from "../../_statements.ts";

/** A run left unsettled when the runtime stopped. */
export interface RecoverableRun {
  /** The run. */
  runId: string;
  /** Its turn. */
  turnId: string;
  /** The turn's thread. */
  threadId: string;
  /** The turn's branch. */
  branchId: string;
  /** Where it stopped: still waiting, or mid-execution. */
  status: Extract<RunStatus, "queued" | "running">;
  /** The provider it runs on. */
  providerId: string;
  /** The model it runs on. */
  modelId: string;
}

const RECOVERABLE_STATUSES = ["queued", "running"] as const;

/**
 * Lists the queued and running runs in journal order: by the seq of each run's first
 * event. A run the journal never mentions (a projection written without its event)
 * comes last, by creation time, rather than being dropped.
 *
 * @param db the state database
 * @returns the runs to recover, oldest first
 * @throws {ReadError} `projection_corrupt` when a row lacks a required column
 * @example
 * ```ts
 * for (const run of listRecoverableRuns(db)) settleInterruptedRun(run);
 * ```
 */
export function listRecoverableRuns(db: StateDatabase): RecoverableRun[] {
  // One statement is one consistent snapshot; no transaction needed.
  const rows = statement(
    db.connection,
    `SELECT r.id, r.turn_id, t.thread_id, t.branch_id, r.status, r.provider_id, r.model_id,
            (SELECT min(e.seq) FROM events AS e WHERE e.run_id = r.id) AS first_seq
     FROM runs AS r JOIN turns AS t ON t.id = r.turn_id
     WHERE r.status IN ('queued', 'running')
     ORDER BY first_seq IS NULL, first_seq ASC, r.created_at ASC, r.id ASC`,
  ).all();
  return rows.map((row) => {
    try {
      return {
        runId: textColumn(row, "id"),
        turnId: textColumn(row, "turn_id"),
        threadId: textColumn(row, "thread_id"),
        branchId: textColumn(row, "branch_id"),
        status: recoverableStatus(textColumn(row, "status")),
        providerId: textColumn(row, "provider_id"),
        modelId: textColumn(row, "model_id"),
      };
    } catch (error) {
      throw new ReadError(
        "projection_corrupt",
        `Stored run does not fit: ${String(error)}`,
        undefined,
        {
          cause: error,
        },
      );
    }
  });
}

function recoverableStatus(status: string): RecoverableRun["status"] {
  const found = RECOVERABLE_STATUSES.find((candidate) => candidate === status);
  if (found === undefined) throw new TypeError(`Unexpected run status ${status}`);
  return found;
}

/** A Run waiting for the user's approval. */
export interface WaitingRun {
  /** The run. */
  runId: string;
  /** Its thread. */
  threadId: string;
}

/**
 * Lists the Runs waiting for an approval, oldest first: after a restart they are still
 * waiting (not interrupted), and their threads stay taken until they are answered.
 *
 * @param db the state database
 * @returns the waiting runs
 */
export function listWaitingRuns(db: StateDatabase): WaitingRun[] {
  return statement(
    db.connection,
    `SELECT r.id, t.thread_id FROM runs AS r JOIN turns AS t ON t.id = r.turn_id
     WHERE r.status = 'waiting' ORDER BY r.created_at ASC, r.id ASC`,
  ).all().map((row) => ({ runId: textColumn(row, "id"), threadId: textColumn(row, "thread_id") }));
}
