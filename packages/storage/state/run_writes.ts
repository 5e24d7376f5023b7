/**
 * Writes during a Run: state changes, items and their deltas, steering, and
 * settlement — exactly one `run.settled` per Run, whoever races to settle it.
 *
 * @module
 */
import {
  type Attachment,
  type Item,
  type ItemKind,
  type ItemRole,
  type ItemStatus,
  type JournalEvent,
  newId,
  type RunStatus,
  type SettledStatus,
} from "@daedalus/protocol";
import type { Committed, StateStore, WriteContext } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { ITEM_COLUMNS, itemFromRow } from "./_rows.ts";
import type { StreamedText } from "./streamed_text.ts";
import { addItem, finishItem, nextOrdinal, scopeIds } from "./_item_writes.ts";
import { changeState, earlierSettlement, isSettlementRace, settleWithin } from "./_settlement.ts";

/** The scope ids of a Run. */
export interface RunScope {
  /** Thread of the run. */
  threadId: string;
  /** Branch of the run. */
  branchId: string;
  /** Turn of the run. */
  turnId: string;
  /** The run. */
  runId: string;
}

/**
 * Reads a Run's scope ids and status.
 *
 * @param db the database
 * @param runId the run
 * @returns its scope and status
 * @throws {StoreError} `run_not_found`
 */
export function readRunScope(
  db: StateDatabase,
  runId: string,
): RunScope & { status: RunStatus; turnOrdinal: number } {
  const row = statement(
    db.connection,
    `SELECT r.status, r.turn_id, t.thread_id, t.branch_id, t.ordinal FROM runs r
     JOIN turns t ON t.id = r.turn_id WHERE r.id = ?`,
  ).get(runId);
  if (!row) throw new StoreError("run_not_found", `Run ${runId} does not exist`);
  return {
    runId,
    turnId: String(row.turn_id),
    threadId: String(row.thread_id),
    branchId: String(row.branch_id),
    status: String(row.status) as RunStatus,
    turnOrdinal: Number(row.ordinal),
  };
}

/**
 * Moves a queued Run to running.
 *
 * @param store the state store
 * @param runId the run
 * @returns true when it was queued and now runs; false otherwise (nothing written)
 */
export function activateRun(store: StateStore, runId: string): Committed<boolean> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    if (scope.status !== "queued") return false;
    changeState(context, scope, "queued", "running", { startedAt: context.now });
    return true;
  });
}

/** A new Item of a Run. */
export interface NewItem {
  /** What it is. */
  kind: ItemKind;
  /** Who speaks. */
  role: ItemRole | null;
  /** Initial status: `streaming` for messages, `running` for tool calls, terminal otherwise. */
  status: ItemStatus;
  /** Initial content. */
  content?: string;
  /** Kind-specific data. */
  data?: Record<string, unknown>;
}

/**
 * Starts (or, with a terminal status, records) an Item of a Run.
 *
 * @param store the state store
 * @param runId the run
 * @param input the item
 * @returns the item
 */
export function startItem(store: StateStore, runId: string, input: NewItem): Committed<Item> {
  return store.write((context) => addItem(context, readRunScope(context.db, runId), input));
}

/**
 * Starts a streamed Item with its first text, in one transaction: `item.started`, then
 * the first `item.delta` (a stream's start is never journaled without what started it).
 *
 * @param store the state store
 * @param runId the run
 * @param input the item (`streaming`)
 * @param delta the first text (non-empty)
 * @param field the answer (default) or the model's reasoning
 * @returns the item and the delta event
 * @throws {StoreError} `run_not_found`
 */
export function startStreamedItem(
  store: StateStore,
  runId: string,
  input: NewItem,
  delta: string,
  field: "content" | "reasoning" = "content",
): Committed<{ item: Item; delta: JournalEvent }> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    const item = addItem(context, scope, input);
    const event = context.append({
      type: "item.delta",
      ...scopeIds(scope),
      itemId: item.id,
      payload: field === "content" ? { delta } : { delta, field },
    });
    return { item, delta: event };
  });
}

/** Item scopes never change, so the delta hot path looks each up once per connection. */
const itemScopes = new WeakMap<object, Map<string, RunScope>>();

/**
 * An item's run scope, refusing items that no longer stream: settlement ends every
 * active item of a run, so a streaming item always belongs to a running run.
 */
function readStreamingItemScope(db: StateDatabase, itemId: string): RunScope {
  const status = statement(db.connection, "SELECT status FROM items WHERE id = ?").get(itemId)
    ?.status;
  if (status === undefined) throw new StoreError("item_not_found", `Item ${itemId} does not exist`);
  if (status !== "streaming" && status !== "running") {
    throw new StoreError("run_not_active", `Item ${itemId} is ${status}; it takes no more text`);
  }
  let scopes = itemScopes.get(db.connection);
  if (!scopes) itemScopes.set(db.connection, scopes = new Map());
  let scope = scopes.get(itemId);
  if (!scope) {
    const row = statement(
      db.connection,
      `SELECT i.run_id, i.turn_id, t.thread_id, t.branch_id FROM items i
       JOIN turns t ON t.id = i.turn_id WHERE i.id = ?`,
    ).get(itemId);
    if (!row) throw new StoreError("item_not_found", `Item ${itemId} does not exist`);
    scope = {
      threadId: String(row.thread_id),
      branchId: String(row.branch_id),
      turnId: String(row.turn_id),
      runId: String(row.run_id),
    };
    if (scopes.size >= 1024) scopes.clear();
    scopes.set(itemId, scope);
  }
  return scope;
}

/**
 * Appends streamed text to an Item.
 *
 * @param store the state store
 * @param itemId the item
 * @param delta the text (non-empty)
 * @param field the answer (default) or the model's reasoning
 * @returns the item.delta event
 * @throws {StoreError} `run_not_active` once the item or its run has ended
 */
export function appendItemDelta(
  store: StateStore,
  itemId: string,
  delta: string,
  field: "content" | "reasoning" = "content",
): Committed<JournalEvent> {
  return store.write((context) => {
    const scope = readStreamingItemScope(context.db, itemId);
    return context.append({
      type: "item.delta",
      ...scope,
      itemId,
      payload: field === "content" ? { delta } : { delta, field },
    });
  });
}

/** How an Item ends. */
export interface ItemCompletion {
  /** Terminal status. */
  status: "completed" | "failed" | "cancelled";
  /** Replacement content; the streamed content is kept when absent. */
  content?: string;
  /** Data merged over the item's data. */
  data?: Record<string, unknown>;
  /**
   * Everything the writer streamed into the item (its `item.delta` texts, joined in
   * order), so completing it needs not read the deltas back from the journal; absent,
   * they are read back. Only used while the item is streaming.
   */
  streamed?: StreamedText;
}

/**
 * Completes an Item.
 *
 * @param store the state store
 * @param itemId the item
 * @param completion its terminal status, content and data
 * @returns the item
 */
export function completeItem(
  store: StateStore,
  itemId: string,
  completion: ItemCompletion,
): Committed<Item> {
  return store.write((context) => finishItem(context, itemId, completion));
}

/**
 * Settles a tool call: completes the call Item and records its result Item in one
 * transaction, with any extra facts (file change, process) the caller appends.
 *
 * @param store the state store
 * @param callItemId the tool_call item
 * @param completion the call's terminal status and data
 * @param result the tool_result item's status, content and data
 * @param facts more events to append in the same transaction
 * @returns the call and result items
 */
export function settleToolCall(
  store: StateStore,
  callItemId: string,
  completion: ItemCompletion,
  result: {
    status: "completed" | "failed" | "cancelled";
    content: string;
    data?: Record<string, unknown>;
  },
  facts: (context: WriteContext, scope: RunScope) => void = () => {},
): Committed<{ call: Item; result: Item }> {
  return store.write((context) => {
    const call = finishItem(context, callItemId, completion);
    const scope = readRunScope(context.db, call.runId);
    facts(context, scope);
    const resultItem = addItem(context, scope, {
      kind: "tool_result",
      role: "tool",
      status: result.status,
      content: result.content,
      data: { toolCallItemId: callItemId, ...result.data },
    });
    return { call, result: resultItem };
  });
}

/**
 * Adds steer text to an active Run as a user Item (`run.steered`).
 *
 * @param store the state store
 * @param runId the run
 * @param content the text
 * @param options attachments and clientRequestId
 * @returns the steer item (the first one again when retried with its clientRequestId)
 * @throws {StoreError} `run_not_active` when the run is settled; `idempotency_conflict`
 *   when the clientRequestId was used with other text
 */
export function steerRun(
  store: StateStore,
  runId: string,
  content: string,
  options: { attachments?: Attachment[]; clientRequestId?: string } = {},
): Committed<Item> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    const replay = options.clientRequestId
      ? replaySteer(context.db, runId, options.clientRequestId, content)
      : null;
    if (replay) return replay;
    // Steering a waiting Run adds the message and leaves its approval pending.
    if (scope.status !== "queued" && scope.status !== "running" && scope.status !== "waiting") {
      throw new StoreError(
        "run_not_active",
        `Run ${runId} is ${scope.status}; it cannot be steered`,
      );
    }
    const data: Record<string, unknown> = { steer: true };
    if (options.attachments?.length) data.attachments = options.attachments;
    if (options.clientRequestId) data.clientRequestId = options.clientRequestId;
    const item: Item = {
      id: newId("item"),
      turnId: scope.turnId,
      runId,
      ordinal: nextOrdinal(context.db, runId),
      kind: "message",
      role: "user",
      status: "completed",
      content,
      data,
      createdAt: context.now,
      updatedAt: context.now,
    };
    context.append({ type: "run.steered", ...scopeIds(scope), itemId: item.id, payload: { item } });
    return item;
  });
}

/** A steer retried with its clientRequestId returns the first one; other text is a conflict. */
function replaySteer(
  db: StateDatabase,
  runId: string,
  clientRequestId: string,
  content: string,
): Item | null {
  const row = statement(
    db.connection,
    `SELECT ${ITEM_COLUMNS} FROM items WHERE run_id = ?
       AND json_extract(data_json, '$.steer') = 1
       AND json_extract(data_json, '$.clientRequestId') = ?`,
  ).get(runId, clientRequestId);
  if (!row) return null;
  const item = itemFromRow(row);
  if (item.content !== content) {
    throw new StoreError(
      "idempotency_conflict",
      `clientRequestId "${clientRequestId}" was already used with a different steer`,
    );
  }
  return item;
}

/** The result of {@linkcode settleRun}. */
export interface Settlement {
  /** Whether this call settled the run (false when it already was). */
  settled: boolean;
  /** The run's terminal status (this call's, or the earlier one). */
  status: SettledStatus;
  /** The reason code of the terminal status. */
  reasonCode: string | null;
}

/**
 * Settles a Run: ends its active Items (partial text is kept, with the run's status),
 * moves it to its terminal status and appends the one `run.settled`, in one
 * transaction. Later attempts — a cancel racing a completion, shutdown, recovery —
 * change nothing and report the first settlement.
 *
 * @param store the state store
 * @param runId the run
 * @param status terminal status
 * @param reasonCode why (null for completed)
 * @param errorMessage what went wrong in words (a provider's redacted message), if known;
 *   clipped to `RUN_ERROR_MESSAGE_MAX_CHARS`
 * @returns whether this call settled it
 */
export function settleRun(
  store: StateStore,
  runId: string,
  status: SettledStatus,
  reasonCode: string | null,
  errorMessage: string | null = null,
): Committed<Settlement> {
  try {
    return store.write((context) =>
      settleWithin(context, runId, { status, reasonCode, errorMessage })
    );
  } catch (error) {
    if (isSettlementRace(error)) return { result: earlierSettlement(store.db, runId), events: [] };
    throw error;
  }
}
