/**
 * Test fixture for message search: whole exchanges (a user message, the model's answer)
 * written through the real store, so the index is what the live projection makes. Only
 * `_test.ts` and `_bench.ts` files import this.
 *
 * @module
 */
import type { StateStore } from "./store.ts";
import { startTurn } from "./turn_writes.ts";
import { activateRun, appendItemDelta, completeItem, settleRun, startItem } from "./run_writes.ts";
import { startStreamedItem } from "./run_writes.ts";
import { TEST_RUN_CONFIG } from "./_test_store.ts";

/** The ids an {@linkcode exchange} wrote. */
export interface Exchange {
  /** The turn. */
  turnId: string;
  /** Its branch. */
  branchId: string;
  /** The user's message item. */
  userItemId: string;
  /** The assistant's answer item (streamed, then completed). */
  assistantItemId: string;
}

/** What else an exchange writes besides the two messages. */
export interface ExchangeExtras {
  /** Reasoning streamed into the answer (kept in its data, never indexed). */
  reasoning?: string;
  /** A tool call and result with this text (never indexed). */
  toolText?: string;
}

/**
 * Writes one turn: the user's message, an answer streamed and completed, and the Run
 * settled.
 *
 * @param store the store
 * @param threadId the thread
 * @param user the user's message
 * @param assistant the answer
 * @param extras reasoning and tool text to write as well
 * @returns the ids written
 */
export function exchange(
  store: StateStore,
  threadId: string,
  user: string,
  assistant: string,
  extras: ExchangeExtras = {},
): Exchange {
  const { result } = startTurn(store, {
    threadId,
    content: user,
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
  });
  activateRun(store, result.runId);
  const userItemId = String(
    store.db.connection.prepare(
      "SELECT id FROM items WHERE run_id = ? AND role = 'user'",
    ).get(result.runId)?.id,
  );
  if (extras.toolText !== undefined) {
    const call = startItem(store, result.runId, {
      kind: "tool_call",
      role: "assistant",
      status: "completed",
      content: extras.toolText,
    }).result;
    startItem(store, result.runId, {
      kind: "tool_result",
      role: "tool",
      status: "completed",
      content: `${extras.toolText} (${call.id})`,
    });
  }
  const message = { kind: "message", role: "assistant", status: "streaming" } as const;
  const answer = extras.reasoning === undefined
    ? startItem(store, result.runId, message).result
    : startStreamedItem(store, result.runId, message, extras.reasoning, "reasoning").result.item;
  if (assistant.length > 0) appendItemDelta(store, answer.id, assistant);
  completeItem(store, answer.id, { status: "completed" });
  settleRun(store, result.runId, "completed", null);
  return {
    turnId: result.turnId,
    branchId: result.branchId,
    userItemId,
    assistantItemId: answer.id,
  };
}
