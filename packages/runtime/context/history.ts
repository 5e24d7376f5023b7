/**
 * History selection: earlier turns become model messages, read back from the
 * newest in pages of 32, kept as a contiguous suffix of the branch; a tool call
 * is kept only with its result (and never replayed without one); the first turn
 * that does not fit the budget becomes the omission boundary.
 *
 * @module
 */
import type { Item, Turn } from "@daedalus/protocol";
import type { ProviderContentPart, ProviderMessage } from "../providers/provider.ts";
import { estimateMessagesTokens } from "./token_estimate.ts";
import { HISTORY_PAGE_TURNS } from "./limits.ts";

/**
 * Turns stored items into model messages: user and finished assistant text, and
 * each tool call that has a result paired with that result. User items carry their
 * attachments as rendered parts when given, else as a note naming the files.
 *
 * @param items items in order (one run or several)
 * @param attachmentParts rendered attachments by user item id
 * @returns the messages
 */
export function itemsToMessages(
  items: readonly Item[],
  attachmentParts: ReadonlyMap<string, ProviderContentPart[]> = new Map(),
): ProviderMessage[] {
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
      messages.push({ role: "user", content: userContent(item, attachmentParts.get(item.id)) });
    } else if (item.kind === "message" && item.role === "assistant") {
      // Partial text of a failed or cancelled run stays for the user; the model gets
      // the status block instead, so it does not take half an answer for a whole one.
      if (item.status === "completed" && item.content) {
        messages.push({ role: "assistant", content: item.content });
      }
    } else if (item.kind === "tool_call" && results.has(item.id)) {
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

function userContent(item: Item, parts: ProviderContentPart[] | undefined) {
  if (parts && parts.length > 0) return [{ type: "text" as const, text: item.content }, ...parts];
  const attachments = item.data.attachments;
  if (!Array.isArray(attachments) || attachments.length === 0) return item.content;
  const paths = attachments.map((a) => String((a as { path?: unknown }).path)).join(", ");
  return `${item.content}\n[Attached earlier: ${paths}]`;
}

/**
 * The messages of one turn (every run, in order).
 *
 * @param turn a turn with its runs and items
 * @returns its messages
 */
export function turnToMessages(turn: Turn): ProviderMessage[] {
  return itemsToMessages(turn.runs.flatMap((run) => run.items));
}

/** What {@linkcode selectHistory} chose. */
export interface SelectedHistory {
  /** The selected turns, oldest first. */
  turns: Turn[];
  /** Their messages, oldest first. */
  messages: ProviderMessage[];
  /** Their estimated tokens. */
  tokens: number;
  /** The ordinal of the newest turn left out (it and all older turns are omitted), or null. */
  omittedThroughOrdinal: number | null;
}

/**
 * Selects earlier turns newest first until the budget is spent.
 *
 * @param readPage reads up to `limit` turns older than `beforeOrdinal`, newest first
 * @param beforeOrdinal the current turn's ordinal (only older turns are history)
 * @param budgetTokens tokens history may use
 * @returns the selection
 */
export function selectHistory(
  readPage: (beforeOrdinal: number, limit: number) => Turn[],
  beforeOrdinal: number,
  budgetTokens: number,
): SelectedHistory {
  const chosen: { turn: Turn; messages: ProviderMessage[] }[] = [];
  let tokens = 0;
  let cursor = beforeOrdinal;
  for (;;) {
    const page = readPage(cursor, HISTORY_PAGE_TURNS);
    for (const turn of page) {
      const messages = turnToMessages(turn);
      const cost = estimateMessagesTokens(messages);
      if (tokens + cost > budgetTokens) {
        return finish(chosen, tokens, turn.ordinal);
      }
      tokens += cost;
      chosen.push({ turn, messages });
    }
    if (page.length < HISTORY_PAGE_TURNS) return finish(chosen, tokens, null);
    cursor = page.at(-1)!.ordinal;
  }
}

function finish(
  chosen: { turn: Turn; messages: ProviderMessage[] }[],
  tokens: number,
  omittedThroughOrdinal: number | null,
): SelectedHistory {
  chosen.reverse();
  return {
    turns: chosen.map((c) => c.turn),
    messages: chosen.flatMap((c) => c.messages),
    tokens,
    omittedThroughOrdinal,
  };
}
