/**
 * The one function that turns a journal event into projection rows. It runs on the
 * live path (in the same transaction as the append) and in rebuilds, so the two
 * cannot drift: every projection column is derived from events alone.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Approval, JournalEvent } from "@daedalus/protocol";
import { statement } from "../_statements.ts";
import { storeJournaledParts, storeRunConfigParts } from "./run_config_parts.ts";
import { indexItem, MESSAGE_SEARCH_TABLE } from "./search_index.ts";

/** Projection tables, children first: the order to clear them in. */
export const PROJECTION_TABLES = [
  MESSAGE_SEARCH_TABLE,
  "approvals",
  "file_changes",
  "model_usages",
  "model_calls",
  "process_sessions",
  "context_revisions",
  "run_configs",
  "run_config_parts",
  "items",
  "runs",
  "turns",
  "branches",
  "threads",
] as const;

type Payload = Record<string, unknown>;

/**
 * Applies one event to the projections.
 *
 * @param connection the state.db connection, inside a transaction
 * @param event the committed (or replayed) event
 */
export function applyEvent(connection: DatabaseSync, event: JournalEvent): void {
  const payload = event.payload as Payload;
  const run = (sql: string, ...values: SqlValue[]) => statement(connection, sql).run(...values);
  switch (event.type) {
    case "thread.created": {
      const thread = event.payload.thread;
      run(
        `INSERT INTO threads (id, title, title_source, default_branch_id, created_at, updated_at,
           archived_at, client_request_id, workspace_json, source_json, settings_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        thread.id,
        thread.title,
        text(payload.titleSource) ?? (thread.title === null ? null : "provisional"),
        thread.defaultBranchId,
        thread.createdAt,
        thread.updatedAt,
        thread.archivedAt,
        event.payload.clientRequestId,
        thread.workspace === null ? null : JSON.stringify(thread.workspace),
        thread.source ? JSON.stringify(thread.source) : null,
        // Bound at creation: the thread's settings start with its agent profile.
        typeof thread.agentId === "string" ? JSON.stringify({ agentId: thread.agentId }) : null,
      );
      const branch = event.payload.branch;
      run(
        "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES (?, ?, ?, ?)",
        branch.id,
        branch.threadId,
        branch.createdAt,
        branch.isDefault ? 1 : 0,
      );
      return;
    }
    case "thread.renamed": {
      const thread = event.payload.thread;
      run(
        "UPDATE threads SET title = ?, title_source = ?, updated_at = ? WHERE id = ?",
        thread.title,
        text(payload.titleSource) ?? "user",
        thread.updatedAt,
        thread.id,
      );
      return;
    }
    case "thread.archived":
    case "thread.unarchived": {
      const thread = event.payload.thread;
      run(
        "UPDATE threads SET archived_at = ?, updated_at = ? WHERE id = ?",
        thread.archivedAt,
        thread.updatedAt,
        thread.id,
      );
      return;
    }
    case "thread.deleted":
      // Its rows' payloads are erased (rebuilds skip them), so it leaves no row of the
      // thread; the shared parts it carries on for other threads' Runs are stored.
      storeJournaledParts(connection, event.payload.runConfigParts ?? []);
      return;
    case "thread.settings_changed":
      run(
        "UPDATE threads SET settings_json = ? WHERE id = ?",
        JSON.stringify(event.payload.settings),
        event.threadId,
      );
      return;
    case "branch.created": {
      const branch = event.payload.branch;
      run(
        `INSERT INTO branches (id, thread_id, created_at, is_default, parent_branch_id,
           fork_turn_id, client_request_id) VALUES (?, ?, ?, 0, ?, ?, ?)`,
        branch.id,
        branch.threadId,
        branch.createdAt,
        branch.parentBranchId ?? null,
        branch.forkTurnId ?? null,
        event.payload.clientRequestId,
      );
      // A fork is what the user wants to see next (Edit and resend, Regenerate).
      run("UPDATE threads SET active_branch_id = ? WHERE id = ?", branch.id, branch.threadId);
      return;
    }
    case "thread.branch_switched":
      run(
        "UPDATE threads SET active_branch_id = ? WHERE id = ?",
        event.payload.branchId,
        event.payload.thread.id,
      );
      return;
    case "run.state_changed":
      return applyRunStateChanged(connection, event);
    case "item.started":
    case "item.completed":
    case "run.steered": {
      const item = event.payload.item;
      run(
        `INSERT INTO items (id, turn_id, run_id, ordinal, kind, role, status, content, created_at,
           updated_at, data_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status, content = excluded.content,
           updated_at = excluded.updated_at, data_json = excluded.data_json`,
        item.id,
        item.turnId,
        item.runId,
        item.ordinal,
        item.kind,
        item.role,
        item.status,
        item.content,
        item.createdAt,
        item.updatedAt,
        JSON.stringify(item.data),
      );
      indexItem(connection, event.threadId ?? threadOfTurn(connection, item.turnId), item);
      return;
    }
    case "file.change_recorded": {
      const { turnId: _t, runId: _r, itemId: _i, ...record } = payload;
      run(
        `INSERT INTO file_changes (tool_call_item_id, record_json) VALUES (?, ?)
         ON CONFLICT(tool_call_item_id) DO UPDATE SET record_json = excluded.record_json`,
        event.payload.toolCallItemId,
        JSON.stringify({ ...record, recordedAt: event.timestamp }),
      );
      return;
    }
    case "process.recorded": {
      const process = event.payload.process;
      run(
        `INSERT INTO process_sessions (process_id, run_id, item_id, record_json) VALUES (?, ?, ?, ?)
         ON CONFLICT(process_id) DO UPDATE SET record_json = excluded.record_json`,
        process.processId,
        process.runId,
        process.itemId,
        JSON.stringify(process),
      );
      return;
    }
    case "model.input_prepared": {
      const body = event.payload;
      run(
        `INSERT INTO model_calls (run_id, call_ordinal, step_ordinal, input_json, prepared_at, purpose)
         VALUES (?, ?, ?, ?, ?, ?)`,
        event.runId,
        body.callOrdinal,
        body.stepOrdinal,
        JSON.stringify(body.stepInput),
        event.timestamp,
        body.purpose,
      );
      const revision = body.contextRevision;
      if (revision !== null && typeof revision.revision === "number") {
        run(
          `INSERT INTO context_revisions (run_id, revision, record_json) VALUES (?, ?, ?)
           ON CONFLICT(run_id, revision) DO NOTHING`,
          event.runId,
          revision.revision,
          JSON.stringify(revision),
        );
      }
      return;
    }
    case "model.response_finished":
      return applyResponseFinished(connection, event);
    case "approval.requested":
    case "approval.resolved": {
      // The payload is the approval itself plus its scope ids and the answer's request id.
      const { turnId: _turn, itemId: _item, clientRequestId: _request, ...approval } = event
        .payload as Approval & Record<string, unknown>;
      run(
        `INSERT INTO approvals (id, run_id, thread_id, tool_call_item_id, status, created_at,
           client_request_id, record_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status,
           client_request_id = excluded.client_request_id, record_json = excluded.record_json`,
        approval.approvalId,
        approval.runId,
        approval.threadId,
        approval.toolCallItemId,
        approval.status,
        approval.createdAt,
        text(payload.clientRequestId),
        JSON.stringify(approval),
      );
      return;
    }
    case "run.model_fallback":
      run(
        "UPDATE runs SET fallback_provider_id = ?, fallback_model_id = ? WHERE id = ?",
        event.payload.toProviderId,
        event.payload.toModelId,
        event.runId,
      );
      return;
    case "item.delta":
    case "turn.reverted":
    case "context.compacted":
    case "thread.compacted":
    case "run.settled":
    case "mcp.status_changed":
    case "item.progress":
      // The journal row is the whole fact. Deltas reach the item row with its
      // item.completed (readers add them meanwhile: streamed_text.ts); the Run's state
      // moved with its own run.state_changed; the compacted revision is recorded by
      // the next model.input_prepared; a thread's compactions are read from the journal
      // (thread_compactions.ts).
      return;
  }
}

type SqlValue = string | number | null;

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function applyRunStateChanged(
  connection: DatabaseSync,
  event: Extract<JournalEvent, { type: "run.state_changed" }>,
): void {
  const run = (sql: string, ...values: SqlValue[]) => statement(connection, sql).run(...values);
  const body = event.payload;
  const summary = body.run;
  if (body.previousStatus === null) {
    const turn = body.turn;
    if (turn) {
      run(
        `INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at,
           parent_turn_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        turn.id,
        turn.threadId,
        turn.branchId,
        turn.ordinal,
        body.status,
        turn.createdAt,
        event.timestamp,
        turn.parentTurnId !== undefined ? turn.parentTurnId : previousOnBranch(connection, turn),
      );
    }
    run(
      `INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at, started_at,
         settled_at, reason_code, client_request_id, execution_policy)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      summary.id,
      summary.turnId,
      summary.providerId,
      summary.modelId,
      summary.status,
      summary.createdAt,
      summary.startedAt,
      summary.settledAt,
      summary.reasonCode,
      body.clientRequestId ?? null,
      summary.executionPolicy,
    );
    const config = body.runConfig;
    if (config !== undefined) {
      storeRunConfigParts(connection, config, body.runConfigParts ?? []);
      run(
        "INSERT INTO run_configs (run_id, config_json) VALUES (?, ?)",
        summary.id,
        JSON.stringify(config),
      );
    }
  } else {
    run(
      `UPDATE runs SET status = ?, started_at = ?, settled_at = ?, reason_code = ?,
         error_message = ? WHERE id = ?`,
      summary.status,
      summary.startedAt,
      summary.settledAt,
      summary.reasonCode,
      summary.errorMessage ?? null,
      summary.id,
    );
  }
  run(
    "UPDATE turns SET status = ?, updated_at = ? WHERE id = ?",
    body.status,
    event.timestamp,
    summary.turnId,
  );
  // A thread's place in the catalog follows its activity: new turns and settlements.
  if (body.previousStatus === null || isTerminal(body.status)) {
    run("UPDATE threads SET updated_at = ? WHERE id = ?", event.timestamp, summary.threadId);
  }
}

/**
 * The previous turn of a turn whose event is older than branches (no `parentTurnId`): the
 * turn one ordinal earlier on its branch, which the journal created before it, so a
 * rebuild finds the same one.
 */
function previousOnBranch(
  connection: DatabaseSync,
  turn: { branchId: string; ordinal: number },
): string | null {
  if (turn.ordinal <= 1) return null;
  const row = statement(connection, "SELECT id FROM turns WHERE branch_id = ? AND ordinal = ?")
    .get(turn.branchId, turn.ordinal - 1);
  return row === undefined ? null : String(row.id);
}

/** The thread of a turn, for an item event that names no thread (none do today). */
function threadOfTurn(connection: DatabaseSync, turnId: string): string {
  const row = statement(connection, "SELECT thread_id FROM turns WHERE id = ?").get(turnId);
  return String(row?.thread_id ?? "");
}

function isTerminal(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function applyResponseFinished(
  connection: DatabaseSync,
  event: Extract<JournalEvent, { type: "model.response_finished" }>,
): void {
  const body = event.payload;
  const extra = body as Payload;
  const outcome = body.outcome ?? (body.usage ? "completed" : "failed");
  const activityDate = text(extra.activityDate) ?? event.timestamp.slice(0, 10);
  const usage = outcome === "completed" ? body.usage : null;
  statement(
    connection,
    `UPDATE model_calls SET outcome = ?, reason_code = ?, response_model_id = ?, request_id = ?,
       usage_json = ?, activity_date = ?, finished_at = ? WHERE run_id = ? AND call_ordinal = ?`,
  ).run(
    outcome,
    outcome === "completed" ? null : text(extra.reasonCode) ?? outcome,
    body.responseModelId,
    body.requestId,
    usage ? JSON.stringify(usage) : null,
    usage ? activityDate : null,
    event.timestamp,
    event.runId,
    body.callOrdinal,
  );
  if (!usage) return;
  statement(
    connection,
    `INSERT INTO model_usages (thread_id, turn_id, run_id, call_ordinal, step_ordinal, provider_id,
       model_id, input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens,
       total_tokens, activity_date, completed_at)
     SELECT ?, ?, c.run_id, c.call_ordinal, c.step_ordinal,
       -- After run.model_fallback every call of the Run is the fallback's (journal order).
       coalesce(r.fallback_provider_id, r.provider_id), coalesce(r.fallback_model_id, r.model_id),
       ?, ?, ?, ?, ?, ?, ?
     FROM model_calls c JOIN runs r ON r.id = c.run_id
     WHERE c.run_id = ? AND c.call_ordinal = ?`,
  ).run(
    event.threadId,
    event.turnId,
    usage.inputTokens,
    usage.cachedInputTokens,
    usage.outputTokens,
    usage.reasoningOutputTokens,
    usage.totalTokens,
    activityDate,
    event.timestamp,
    event.runId,
    body.callOrdinal,
  );
}

/**
 * Clears every projection table, children first. Run inside a transaction, then
 * replay the journal with {@linkcode applyEvent}.
 *
 * @param connection the state.db connection
 */
export function clearProjections(connection: DatabaseSync): void {
  for (const table of PROJECTION_TABLES) connection.exec(`DELETE FROM ${table}`);
}
