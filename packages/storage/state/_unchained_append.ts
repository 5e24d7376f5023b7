/**
 * Bench only: `appendEvent` with the hash chain left out (AUTOINCREMENT seq, no tail,
 * no hashes, no chain columns), so the benches can measure the chain's share of an
 * append side by side with the real one. Nothing in the store calls it: a row it writes
 * is unchained and `storage verify` reports it `chain_missing`.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { EVENT_SCHEMA_VERSION, type EventType, mirrorScope } from "@daedalus/protocol";
import { statement } from "../_statements.ts";
import { applyEvent } from "./projections.ts";
import { checkEvent } from "./_event_check.ts";
import { JournalError } from "./errors.ts";
import type { EventDraft } from "./journal.ts";

const NO_SCOPE = { turnId: null, runId: null, itemId: null };

/**
 * Appends one event without its chain columns, as the journal did before schema 6.
 *
 * @param connection the state.db connection, inside a write transaction
 * @param draft the event
 * @param timestamp when it happened
 * @returns its seq
 */
export function appendUnchainedForBench<T extends EventType>(
  connection: DatabaseSync,
  draft: EventDraft<T>,
  timestamp: string,
): number {
  const scope = {
    threadId: draft.threadId ?? null,
    branchId: draft.branchId ?? null,
    turnId: draft.turnId ?? null,
    runId: draft.runId ?? null,
    itemId: draft.itemId ?? null,
  };
  const body = mirrorScope(NO_SCOPE, draft.payload as Record<string, unknown>);
  const issue = checkEvent(draft.type, scope, timestamp, body);
  if (issue) throw new JournalError("invalid_event", `${issue.path}: ${issue.message}`);
  const payload = mirrorScope(scope, body);
  const { lastInsertRowid } = statement(
    connection,
    `INSERT INTO events (schema_version, event_type, thread_id, branch_id, turn_id, run_id,
       item_id, created_at, payload_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    EVENT_SCHEMA_VERSION,
    draft.type,
    scope.threadId,
    scope.branchId,
    scope.turnId,
    scope.runId,
    scope.itemId,
    timestamp,
    JSON.stringify(payload),
  );
  const seq = Number(lastInsertRowid);
  applyEvent(
    connection,
    {
      seq,
      schemaVersion: EVENT_SCHEMA_VERSION,
      type: draft.type,
      ...scope,
      timestamp,
      payload,
    } as never,
  );
  return seq;
}
