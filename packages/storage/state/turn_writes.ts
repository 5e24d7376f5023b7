/**
 * `turn.start`: the user Item, the Turn, the queued Run and its frozen RunConfig in
 * one transaction, idempotent on clientRequestId.
 *
 * @module
 */
import {
  type Attachment,
  type ExecutionPolicy,
  type Item,
  newId,
  type RunConfig,
  type RunSummary,
} from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { readThread } from "./thread_writes.ts";
import { splitRunConfig } from "./run_config_parts.ts";
import { activeBranchOf } from "./reads/branches.ts";
import { lastHistoryTurn } from "./reads/branch_lineage.ts";

/** What {@linkcode startTurn} needs. */
export interface StartTurnInput {
  /** The thread. */
  threadId: string;
  /** The branch; the thread's active branch when absent. */
  branchId?: string;
  /** The user's message. */
  content: string;
  /** Provider of the Run. */
  providerId: string;
  /** Model of the Run. */
  modelId: string;
  /** Makes retries return the first result. */
  clientRequestId?: string;
  /** Attachments, already checked and hashed by the runtime. */
  attachments?: Attachment[];
  /** The Run's frozen permission mode. */
  executionPolicy?: ExecutionPolicy;
  /**
   * The frozen RunConfig (provider/model, tools, identity…). Its large parts are stored
   * once by the hashes `parts` names; only parts the store lacks are journaled.
   */
  runConfig: RunConfig;
  /** More data for the user Item (e.g. a cross-thread message's hop count). */
  itemData?: Record<string, unknown>;
}

/** The ids of a started turn (the `turn.start` result). */
export interface StartTurnResult {
  /** The thread. */
  threadId: string;
  /** The branch. */
  branchId: string;
  /** The new turn. */
  turnId: string;
  /** Its queued run. */
  runId: string;
  /** Whether this call created it (false for an idempotent retry). */
  created: boolean;
}

/**
 * Starts a turn. Refused on an archived thread.
 *
 * @param store the state store
 * @param input the turn
 * @returns the ids, and the run.state_changed and item.completed events
 * @throws {StoreError} `thread_not_found`, `branch_not_found`, `thread_archived`,
 *   `idempotency_conflict`
 * @throws {JournalError} `run_config_part_mismatch` when a new part's content does not
 *   have the hash `runConfig.parts` names (nothing is written)
 */
export function startTurn(store: StateStore, input: StartTurnInput): Committed<StartTurnResult> {
  return store.write(({ db, now, append }) => {
    const replay = replayStart(db, input);
    if (replay) return replay;
    const thread = readThread(db, input.threadId);
    if (thread.archivedAt !== null) {
      throw new StoreError(
        "thread_archived",
        `Thread ${thread.id} is archived; unarchive it first`,
      );
    }
    const branchId = input.branchId ?? activeBranchOf(thread);
    const branch = statement(db.connection, "SELECT thread_id FROM branches WHERE id = ?").get(
      branchId,
    );
    if (!branch || branch.thread_id !== thread.id) {
      throw new StoreError(
        "branch_not_found",
        `Branch ${branchId} is not a branch of ${thread.id}`,
      );
    }
    // A turn follows the last turn of its branch's history, shared turns included, so
    // a fork's ordinals continue after its fork turn's: an ordinal is a history position.
    const previous = lastHistoryTurn(db.connection, branchId);
    const ordinal = (previous?.ordinal ?? 0) + 1;
    const turnId = newId("turn");
    const runId = newId("run");
    const run: RunSummary = {
      id: runId,
      turnId,
      threadId: thread.id,
      branchId,
      providerId: input.providerId,
      modelId: input.modelId,
      executionPolicy: input.executionPolicy ?? "ask",
      status: "queued",
      reasonCode: null,
      failureClass: null,
      modelCalls: 0,
      compactions: 0,
      createdAt: now,
      startedAt: null,
      settledAt: null,
    };
    const scope = { threadId: thread.id, branchId, turnId, runId };
    const { record, newParts } = splitRunConfig(db.connection, input.runConfig);
    append({
      type: "run.state_changed",
      ...scope,
      payload: {
        status: "queued",
        previousStatus: null,
        run,
        turn: {
          id: turnId,
          threadId: thread.id,
          branchId,
          ordinal,
          createdAt: now,
          parentTurnId: previous?.id ?? null,
        },
        clientRequestId: input.clientRequestId ?? null,
        runConfig: record,
        // Only the first Run that uses a part carries it: the journal holds each once.
        ...(newParts.length > 0 ? { runConfigParts: newParts } : {}),
      },
    });
    const data: Record<string, unknown> = { ...input.itemData };
    if (input.attachments?.length) data.attachments = input.attachments;
    const item: Item = {
      id: newId("item"),
      turnId,
      runId,
      ordinal: 1,
      kind: "message",
      role: "user",
      status: "completed",
      content: input.content,
      data,
      createdAt: now,
      updatedAt: now,
    };
    append({ type: "item.completed", ...scope, itemId: item.id, payload: { item } });
    return { threadId: thread.id, branchId, turnId, runId, created: true };
  });
}

function replayStart(db: StateDatabase, input: StartTurnInput): StartTurnResult | null {
  if (!input.clientRequestId) return null;
  const row = statement(
    db.connection,
    `SELECT r.id AS run_id, r.turn_id, r.provider_id, r.model_id, t.thread_id, t.branch_id,
       i.content, i.data_json
     FROM runs r JOIN turns t ON t.id = r.turn_id
       JOIN items i ON i.run_id = r.id AND i.ordinal = 1
     WHERE r.client_request_id = ?`,
  ).get(input.clientRequestId);
  if (!row) return null;
  const attachments = JSON.parse(String(row.data_json)).attachments ?? [];
  const same = row.thread_id === input.threadId &&
    (input.branchId === undefined || row.branch_id === input.branchId) &&
    row.content === input.content && row.provider_id === input.providerId &&
    row.model_id === input.modelId &&
    JSON.stringify(attachments) === JSON.stringify(input.attachments ?? []);
  if (!same) {
    throw new StoreError(
      "idempotency_conflict",
      `clientRequestId "${input.clientRequestId}" was already used with different params`,
    );
  }
  return {
    threadId: String(row.thread_id),
    branchId: String(row.branch_id),
    turnId: String(row.turn_id),
    runId: String(row.run_id),
    created: false,
  };
}
