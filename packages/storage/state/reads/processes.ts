/**
 * Recorded process facts (the `process_sessions` projection): what `process.read`
 * falls back to after a restart, and what custody re-checks at start.
 *
 * @module
 */
import type { ProcessRecord } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/**
 * Reads one process's latest recorded facts.
 *
 * @param db the state database
 * @param processId the process
 * @returns its record, or null
 */
export function readProcessRecord(db: StateDatabase, processId: string): ProcessRecord | null {
  const row = statement(
    db.connection,
    "SELECT record_json FROM process_sessions WHERE process_id = ?",
  )
    .get(processId);
  return row ? JSON.parse(String(row.record_json)) as ProcessRecord : null;
}

/**
 * Reads the processes last recorded as running (custody candidates at start).
 *
 * @param db the state database
 * @returns their records
 */
export function readRunningProcessRecords(db: StateDatabase): ProcessRecord[] {
  return statement(
    db.connection,
    `SELECT record_json FROM process_sessions
     WHERE json_extract(record_json, '$.state') = 'running' ORDER BY rowid`,
  ).all().map((row) => JSON.parse(String(row.record_json)) as ProcessRecord);
}
