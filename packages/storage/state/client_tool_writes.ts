/**
 * Client-side tool calls in the state store: calls to a tool the caller runs itself (an
 * AG-UI front end's, offered in the RunConfig's `clientTools`). The runtime cannot run
 * them, so the Run waits — its calls stay running, like a call waiting for an approval —
 * until the caller hands in each result; the last one turns the Run `running` again, in
 * the transaction that records it, and the runtime resumes it from the journal.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { Committed, StateStore, WriteContext } from "./store.ts";
import { StoreError } from "./errors.ts";
import { readRunScope } from "./run_writes.ts";
import { addItem, finishItem, readItem } from "./_item_writes.ts";
import { changeState } from "./_settlement.ts";
import { readRunItems } from "./reads/run_items.ts";
import type { StateDatabase } from "./database.ts";
import { statement } from "../_statements.ts";

/** Whether an Item is a call to a client-side tool (the loop marks them when it records them). */
export function isClientToolCall(item: Item): boolean {
  return item.kind === "tool_call" && item.data.clientTool === true;
}

/**
 * The running client-side calls of a Run, in the model's order.
 *
 * @param db the state database
 * @param runId the Run
 * @returns their `tool_call` Items
 */
export function readPendingClientCalls(db: StateDatabase, runId: string): Item[] {
  return readRunItems(db, runId).filter((item) =>
    isClientToolCall(item) && item.status === "running"
  );
}

/** A thread's Run waiting for client-side results, and the calls it waits for. */
export interface ClientToolWait {
  /** The waiting Run. */
  runId: string;
  /** Its client-side calls without a result, in the model's order. */
  calls: Item[];
}

/**
 * The thread's Run that waits for client-side results, if one does. A Run waiting for an
 * approval may have client-side calls queued behind it: it does not wait for the client
 * yet, and this says null.
 *
 * @param db the state database
 * @param threadId the thread
 * @returns the wait, or null
 */
export function readClientToolWait(db: StateDatabase, threadId: string): ClientToolWait | null {
  const runId = readWaitingRunId(db, threadId);
  if (runId === null) return null;
  const pendingApproval = statement(
    db.connection,
    "SELECT 1 FROM approvals WHERE run_id = ? AND status = 'pending' LIMIT 1",
  ).get(runId);
  if (pendingApproval !== undefined) return null;
  const calls = readPendingClientCalls(db, runId);
  return calls.length > 0 ? { runId, calls } : null;
}

/**
 * The thread's waiting Run (for an approval or for client-side results), if any: a thread
 * runs one Run at a time, so there is at most one.
 *
 * @param db the state database
 * @param threadId the thread
 * @returns its id, or null
 */
export function readWaitingRunId(db: StateDatabase, threadId: string): string | null {
  const row = statement(
    db.connection,
    `SELECT r.id AS run_id FROM runs r JOIN turns t ON t.id = r.turn_id
     WHERE t.thread_id = ? AND r.status = 'waiting' LIMIT 1`,
  ).get(threadId);
  return row === undefined ? null : String(row.run_id);
}

/**
 * Turns a running Run `waiting` for its client-side calls' results (`run.state_changed`
 * running → waiting); the calls stay running.
 *
 * @param store the state store
 * @param runId the Run
 * @returns the calls it waits for
 * @throws {StoreError} `run_not_active` when the Run is not running; `tool_call_not_pending`
 *   when it has no running client-side call
 */
export function awaitClientTools(store: StateStore, runId: string): Committed<{ calls: Item[] }> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    if (scope.status !== "running") {
      throw new StoreError(
        "run_not_active",
        `Run ${runId} is ${scope.status}; only a running Run can wait for client tools`,
      );
    }
    const calls = readPendingClientCalls(context.db, runId);
    if (calls.length === 0) {
      throw new StoreError("tool_call_not_pending", `Run ${runId} has no client-side call`);
    }
    changeState(context, scope, "running", "waiting", {});
    return { calls };
  });
}

/** A client-side call's result, as the caller hands it in. */
export interface ClientToolResult {
  /** The waiting Run. */
  runId: string;
  /** The call's `tool_call` Item. */
  toolCallItemId: string;
  /** What the tool returned, as the model reads it. */
  content: string;
  /** Whether the tool failed. */
  isError?: boolean;
}

/** What handing in a result did. */
export interface ClientToolResultOutcome {
  /** The result Item recorded. */
  result: Item;
  /** The Run's client-side calls still without a result. */
  pending: string[];
  /** Whether the Run turned `running` again (none is left): the runtime resumes it. */
  resumed: boolean;
  /** The Run's thread. */
  threadId: string;
}

/**
 * Records a client-side call's result (the call settles, its `tool_result` is added) and,
 * when no client-side call of the Run waits any more, turns the Run `running` again.
 *
 * @param store the state store
 * @param answer the Run, the call and its result
 * @returns the result Item, the calls still pending and whether the Run goes on
 * @throws {StoreError} `run_not_found`; `run_not_active` when the Run is not waiting;
 *   `tool_call_not_pending` when the item is not a running client-side call of that Run
 */
export function submitClientToolResult(
  store: StateStore,
  answer: ClientToolResult,
): Committed<ClientToolResultOutcome> {
  return store.write((context) => {
    const scope = readRunScope(context.db, answer.runId);
    if (scope.status !== "waiting") {
      throw new StoreError(
        "run_not_active",
        `Run ${answer.runId} is ${scope.status}; it does not wait for a tool result`,
      );
    }
    const call = pendingCall(context, answer);
    const failed = answer.isError === true;
    finishItem(context, call.id, { status: failed ? "failed" : "completed" });
    const result = addItem(context, scope, {
      kind: "tool_result",
      role: "tool",
      status: failed ? "failed" : "completed",
      content: answer.content,
      data: {
        toolCallItemId: call.id,
        toolId: call.data.toolId ?? null,
        callId: call.data.callId ?? null,
        isError: failed,
        clientTool: true,
      },
    });
    const pending = readPendingClientCalls(context.db, answer.runId).map((item) => item.id);
    const resumed = pending.length === 0;
    if (resumed) changeState(context, scope, "waiting", "running", {});
    return { result, pending, resumed, threadId: scope.threadId };
  });
}

function pendingCall(context: WriteContext, answer: ClientToolResult): Item {
  const refuse = () =>
    new StoreError(
      "tool_call_not_pending",
      `Item ${answer.toolCallItemId} is not a client-side call Run ${answer.runId} waits for`,
    );
  let call: Item;
  try {
    call = readItem(context.db, answer.toolCallItemId);
  } catch (error) {
    if (error instanceof StoreError && error.code === "item_not_found") throw refuse();
    throw error;
  }
  if (call.runId !== answer.runId || !isClientToolCall(call) || call.status !== "running") {
    throw refuse();
  }
  return call;
}
