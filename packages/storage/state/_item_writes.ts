/**
 * The item writes that several logical operations share, each inside the caller's
 * transaction (a `WriteContext`): adding an Item, and ending one with its streamed
 * text. `run_writes.ts` and `step_writes.ts` compose them into one transaction per
 * operation.
 *
 * @module
 */
import { type Item, newId } from "@daedalus/protocol";
import type { WriteContext } from "./store.ts";
import type { StateDatabase } from "./database.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { ITEM_COLUMNS, itemFromRow } from "./_rows.ts";
import { overlayStreamedText, withStreamedText } from "./streamed_text.ts";
import { type ItemCompletion, type NewItem, readRunScope, type RunScope } from "./run_writes.ts";

/** The next item ordinal of a Run (inside the write that adds the item). */
export function nextOrdinal(db: StateDatabase, runId: string): number {
  return Number(
    statement(
      db.connection,
      "SELECT coalesce(max(ordinal), 0) + 1 AS n FROM items WHERE run_id = ?",
    )
      .get(runId)?.n ?? 1,
  );
}

/** Adds an Item to a Run: `item.started`, or `item.completed` for a terminal status. */
export function addItem(context: WriteContext, scope: RunScope, input: NewItem): Item {
  const item: Item = {
    id: newId("item"),
    turnId: scope.turnId,
    runId: scope.runId,
    ordinal: nextOrdinal(context.db, scope.runId),
    kind: input.kind,
    role: input.role,
    status: input.status,
    content: input.content ?? "",
    data: input.data ?? {},
    createdAt: context.now,
    updatedAt: context.now,
  };
  const terminal = input.status !== "streaming" && input.status !== "running";
  context.append({
    type: terminal ? "item.completed" : "item.started",
    ...scopeIds(scope),
    itemId: item.id,
    payload: { item },
  });
  return item;
}

/** The four scope ids of a run scope, without its status and ordinal. */
export function scopeIds(scope: RunScope): RunScope {
  const { threadId, branchId, turnId, runId } = scope;
  return { threadId, branchId, turnId, runId };
}

/** Reads one Item row. */
export function readItem(db: StateDatabase, itemId: string): Item {
  const row = statement(db.connection, `SELECT ${ITEM_COLUMNS} FROM items WHERE id = ?`).get(
    itemId,
  );
  if (!row) throw new StoreError("item_not_found", `Item ${itemId} does not exist`);
  return itemFromRow(row);
}

/** Ends an Item (`item.completed`), its streamed text kept unless replaced. */
export function finishItem(
  context: WriteContext,
  itemId: string,
  completion: ItemCompletion,
): Item {
  const stored = readItem(context.db, itemId);
  // The writer's own copy of what it streamed spares reading the deltas back.
  const [current] = completion.streamed && stored.status === "streaming"
    ? [withStreamedText(stored, completion.streamed)]
    : overlayStreamedText(context.db, [stored]);
  if (!current) throw new StoreError("item_not_found", `Item ${itemId} does not exist`);
  const item: Item = {
    ...current,
    status: completion.status,
    content: completion.content ?? current.content,
    data: { ...current.data, ...completion.data },
    updatedAt: context.now,
  };
  const scope = readRunScope(context.db, item.runId);
  context.append({ type: "item.completed", ...scopeIds(scope), itemId, payload: { item } });
  return item;
}
