/**
 * Builds a model call's messages from a thread's stored items. Minimal until the
 * context builder lands: the whole branch in order, tool calls paired with their
 * results, unfinished items left out.
 *
 * @module
 */
import type { Item, Turn } from "@daedalus/protocol";
import { listTurns, type StateStore } from "@daedalus/storage";
import type { ProviderMessage } from "../providers/provider.ts";

/**
 * Reads every turn of a branch, oldest first.
 *
 * @param store the state store
 * @param threadId the thread
 * @param branchId the branch
 * @returns the turns with runs and items
 */
export function readBranch(store: StateStore, threadId: string, branchId: string): Turn[] {
  const turns: Turn[] = [];
  let cursor: string | null = null;
  do {
    const page = store.read((db) => listTurns(db, { threadId, branchId, cursor, limit: 100 }));
    turns.push(...page.turns);
    cursor = page.hasMore ? page.nextCursor : null;
  } while (cursor);
  return turns;
}

/**
 * Turns stored items into provider messages.
 *
 * @param turns the branch's turns
 * @returns the messages, oldest first
 */
export function messagesFromTurns(turns: Turn[]): ProviderMessage[] {
  const items: Item[] = turns.flatMap((turn) => turn.runs.flatMap((run) => run.items));
  const results = new Map<string, Item>();
  for (const item of items) {
    const callItemId = item.data.toolCallItemId;
    if (item.kind === "tool_result" && typeof callItemId === "string") {
      results.set(callItemId, item);
    }
  }
  const messages: ProviderMessage[] = [];
  const callIds = new Map<string, string>();
  for (const item of items) {
    if (item.kind === "message" && item.role === "user") {
      messages.push({ role: "user", content: item.content });
    } else if (
      item.kind === "message" && item.role === "assistant" && item.status !== "streaming"
    ) {
      if (item.content) messages.push({ role: "assistant", content: item.content });
    } else if (item.kind === "tool_call" && results.has(item.id)) {
      // A call without a result is never replayed; one with a result is paired with it.
      const call = {
        id: String(item.data.callId ?? item.id),
        name: String(item.data.toolId ?? ""),
        arguments: JSON.stringify(item.data.arguments ?? {}),
      };
      callIds.set(item.id, call.id);
      const last = messages.at(-1);
      if (last?.role === "assistant") (last.toolCalls ??= []).push(call);
      else messages.push({ role: "assistant", content: "", toolCalls: [call] });
    } else if (item.kind === "tool_result") {
      const callId = callIds.get(String(item.data.toolCallItemId));
      if (callId) messages.push({ role: "tool", toolCallId: callId, content: item.content });
    }
  }
  return messages;
}
