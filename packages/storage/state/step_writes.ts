/**
 * The writes of a model step that end or start several facts at once, each one
 * transaction: a step's completion (its streamed message and the call's
 * `model.response_finished`) and the start of its tool calls. One commit per logical
 * operation instead of one per fact: fewer `BEGIN…COMMIT`s on the hot path, and no
 * reader ever sees a step half recorded.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import { type ItemCompletion, type NewItem, readRunScope } from "./run_writes.ts";
import { appendModelResponse, type ModelResponseFact } from "./run_facts.ts";
import { addItem, finishItem } from "./_item_writes.ts";

/** How a model step ended. */
export interface StepCompletion {
  /** The step's streamed message and how it ends; absent when there is none to end. */
  message?: { itemId: string; completion: ItemCompletion };
  /** How the step's model call ended. */
  response: ModelResponseFact;
}

/**
 * Completes a model step in one transaction: its message's `item.completed` (when
 * given), then the call's `model.response_finished`.
 *
 * @param store the state store
 * @param runId the run
 * @param step the message to complete and the call's end
 * @returns the completed message, or null when there was none
 * @throws {StoreError} `run_not_found`, `item_not_found`
 */
export function completeStep(
  store: StateStore,
  runId: string,
  step: StepCompletion,
): Committed<Item | null> {
  return store.write((context) => {
    const item = step.message
      ? finishItem(context, step.message.itemId, step.message.completion)
      : null;
    appendModelResponse(context, readRunScope(context.db, runId), step.response);
    return item;
  });
}

/**
 * Records a step's tool calls as Items in one transaction, in the model's order.
 *
 * @param store the state store
 * @param runId the run
 * @param calls the call items (`running` for calls that will run)
 * @returns the items, in the order given
 * @throws {StoreError} `run_not_found`
 */
export function startItems(
  store: StateStore,
  runId: string,
  calls: readonly NewItem[],
): Committed<Item[]> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    return calls.map((call) => addItem(context, scope, call));
  });
}
