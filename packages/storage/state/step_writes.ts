/**
 * The writes of a model step that end or start several facts at once, each one
 * transaction: a step's completion (its streamed message, the call's
 * `model.response_finished` and, for a Run's last step, its settlement), the start of
 * its tool calls, the completion check's answer, and a compaction. One commit per logical operation
 * instead of one per fact: fewer `BEGIN…COMMIT`s on the hot path, no reader ever sees a
 * step half recorded, and a crash between the parts cannot keep one without the other.
 *
 * @module
 */
import type { Item, JournalEvent } from "@daedalus/protocol";
import type { Committed, StateStore } from "./store.ts";
import { type ItemCompletion, type NewItem, readRunScope, type Settlement } from "./run_writes.ts";
import { appendCompaction, appendModelResponse, type ModelResponseFact } from "./run_facts.ts";
import { addItem, finishItem } from "./_item_writes.ts";
import {
  earlierSettlement,
  isSettlementRace,
  type SettlementRequest,
  settleWithin,
} from "./_settlement.ts";

export type { SettlementRequest } from "./_settlement.ts";

/** How a model step ended. */
export interface StepCompletion {
  /** The step's streamed message and how it ends; absent when there is none to end. */
  message?: { itemId: string; completion: ItemCompletion };
  /** How the step's model call ended. */
  response: ModelResponseFact;
  /** The Run's settlement, when this step is its last. */
  settle?: SettlementRequest;
  /** The step's tool calls, recorded as Items after the call's end (a step that goes on). */
  startItems?: readonly NewItem[];
}

/** What a step's completion committed. */
export interface CompletedStep {
  /** The completed message, or null when there was none. */
  item: Item | null;
  /** The Run's settlement, when the step asked for one. */
  settlement: Settlement | null;
  /** The tool-call Items started, in the order given (empty when none were asked for). */
  started: Item[];
}

/**
 * Completes a model step in one transaction: its message's `item.completed` (when
 * given), the call's `model.response_finished`, then the Run's settlement (when given)
 * or the step's tool calls as started Items (when given).
 * A Run that another connection settled in between keeps that settlement; the step is
 * then committed alone.
 *
 * @param store the state store
 * @param runId the run
 * @param step the message to complete, the call's end and the settlement
 * @returns the completed message and the settlement
 * @throws {StoreError} `run_not_found`, `item_not_found`
 */
export function completeStep(
  store: StateStore,
  runId: string,
  step: StepCompletion,
): Committed<CompletedStep> {
  const write = (settle: SettlementRequest | undefined) =>
    store.write((context) => {
      const item = step.message
        ? finishItem(context, step.message.itemId, step.message.completion)
        : null;
      const scope = readRunScope(context.db, runId);
      appendModelResponse(context, scope, step.response);
      const settlement = settle ? settleWithin(context, runId, settle) : null;
      const started = (step.startItems ?? []).map((call) => addItem(context, scope, call));
      return { item, settlement, started };
    });
  try {
    return write(step.settle);
  } catch (error) {
    if (!step.settle || !isSettlementRace(error)) throw error;
    const committed = write(undefined);
    return {
      ...committed,
      result: { ...committed.result, settlement: earlierSettlement(store.db, runId) },
    };
  }
}

/**
 * Ends a model call that answered without streaming (the completion check) in one
 * transaction: its `model.response_finished`, then its answer as an Item when given.
 *
 * @param store the state store
 * @param runId the run
 * @param response how the call ended
 * @param answer the answer's Item, if any
 * @returns the answer's Item, or null
 * @throws {StoreError} `run_not_found`
 */
export function completeAnswer(
  store: StateStore,
  runId: string,
  response: ModelResponseFact,
  answer?: NewItem,
): Committed<Item | null> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    appendModelResponse(context, scope, response);
    return answer ? addItem(context, scope, answer) : null;
  });
}

/**
 * Ends a compaction in one transaction: its summary call's `model.response_finished`,
 * then `context.compacted` with the new revision (a revision is never journaled
 * without the call that made it, nor the call's end without its revision).
 *
 * @param store the state store
 * @param runId the run
 * @param response how the summary call ended
 * @param revision the new ContextRevision number
 * @returns the `context.compacted` event
 * @throws {StoreError} `run_not_found`
 */
export function completeCompaction(
  store: StateStore,
  runId: string,
  response: ModelResponseFact,
  revision: number,
): Committed<JournalEvent> {
  return store.write((context) => {
    const scope = readRunScope(context.db, runId);
    appendModelResponse(context, scope, response);
    return appendCompaction(context, scope, revision);
  });
}
