/**
 * How far a Run got: its last model call and step, and its current context revision — what
 * the runtime continues from when a Run resumes after an approval (seed 003: the context is
 * rebuilt from stored facts, never guessed).
 *
 * @module
 */
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/** A Run's progress as the journal has it. */
export interface RunProgress {
  /** The highest model call ordinal recorded (0: none yet). */
  lastCallOrdinal: number;
  /** The highest execution step recorded (0: none yet). */
  lastStepOrdinal: number;
  /** The newest context revision recorded with an execution call, or null (revision 1). */
  revision: { revision: number; summary: string | null; boundaryOrdinal: number } | null;
}

/**
 * Reads a Run's progress.
 *
 * @param db the state database
 * @param runId the run
 * @returns its last call, step and context revision
 */
export function readRunProgress(db: StateDatabase, runId: string): RunProgress {
  const calls = statement(
    db.connection,
    `SELECT COALESCE(MAX(call_ordinal), 0) AS calls, COALESCE(MAX(step_ordinal), 0) AS steps
     FROM model_calls WHERE run_id = ?`,
  ).get(runId);
  const row = statement(
    db.connection,
    "SELECT record_json FROM context_revisions WHERE run_id = ? ORDER BY revision DESC LIMIT 1",
  ).get(runId);
  let revision: RunProgress["revision"] = null;
  if (row) {
    const record = JSON.parse(String(row.record_json)) as Record<string, unknown>;
    revision = {
      revision: Number(record.revision),
      summary: typeof record.summary === "string" ? record.summary : null,
      boundaryOrdinal: typeof record.summarizedThroughOrdinal === "number"
        ? record.summarizedThroughOrdinal
        : 0,
    };
  }
  return {
    lastCallOrdinal: Number(calls?.calls ?? 0),
    lastStepOrdinal: Number(calls?.steps ?? 0),
    revision,
  };
}
