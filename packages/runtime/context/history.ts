/**
 * History selection: earlier turns become model messages, read back from the
 * newest in pages of 32, kept as a contiguous suffix of the branch; a tool call
 * is kept only with its result (and never replayed without one); the first turn
 * that does not fit the budget becomes the omission boundary. A turn a `thread.compact`
 * summarized through ends the history: its summary stands for it and every older turn.
 *
 * @module
 */
import type { Item, Turn } from "@daedalus/protocol";
import type { ProviderContentPart, ProviderMessage } from "../providers/provider.ts";
import { estimateMessagesTokens } from "./token_estimate.ts";
import { HISTORY_PAGE_TURNS } from "./limits.ts";

/** What introduces the images tool results returned, in the user message that carries them. */
export const TOOL_IMAGES_NOTE = "The images the tool calls above returned:";

/**
 * Turns stored items into model messages: user and finished assistant text, and
 * each tool call that has a result paired with that result. User items carry their
 * attachments as rendered parts when given, else as a note naming the files; a tool
 * result's rendered images follow its step's tool messages as one user message.
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
  // The assistant message of the latest model step, which that step's tool calls join,
  // and the reasoning of a step that streamed no text (its calls get a message of their own).
  let step: Extract<ProviderMessage, { role: "assistant" }> | null = null;
  let stepReasoning = "";
  // Images tool results returned: a tool message carries text only, so they follow the
  // step's tool messages as one user message (before anything else is said).
  let toolImages: ProviderContentPart[] = [];
  const showToolImages = () => {
    if (toolImages.length === 0) return;
    messages.push({
      role: "user",
      content: [{ type: "text", text: TOOL_IMAGES_NOTE }, ...toolImages],
    });
    toolImages = [];
  };
  for (const item of items) {
    if (item.kind !== "tool_result") showToolImages();
    if (item.kind === "message" && item.role === "user") {
      step = null;
      stepReasoning = "";
      messages.push({ role: "user", content: userContent(item, attachmentParts.get(item.id)) });
    } else if (item.kind === "message" && item.role === "assistant") {
      step = null;
      stepReasoning = "";
      // Partial text of a failed or cancelled run stays for the user; the model gets
      // the status block instead, so it does not take half an answer for a whole one.
      if (item.status !== "completed") continue;
      const reasoning = typeof item.data.reasoning === "string" ? item.data.reasoning : "";
      if (item.content) {
        step = { role: "assistant", content: item.content, reasoning };
        messages.push(step);
      } else stepReasoning = reasoning;
    } else if (item.kind === "tool_call" && results.has(item.id)) {
      const call = {
        id: String(item.data.callId ?? item.id),
        name: String(item.data.toolId ?? ""),
        arguments: replayedArguments(item.data.arguments),
      };
      callIds.set(item.id, call.id);
      if (step) (step.toolCalls ??= []).push(call);
      else {
        // DeepSeek's thinking mode wants reasoning on every message with tool calls,
        // "" for a step that had none (request.ts decides whether it is sent).
        step = { role: "assistant", content: "", toolCalls: [call], reasoning: stepReasoning };
        messages.push(step);
      }
    } else if (item.kind === "tool_result") {
      // The next step's calls belong to that step, even when it streamed no message.
      step = null;
      stepReasoning = "";
      const callId = callIds.get(String(item.data.toolCallItemId));
      if (callId) {
        messages.push({ role: "tool", toolCallId: callId, content: item.content });
        toolImages = [...toolImages, ...(attachmentParts.get(item.id) ?? [])];
      }
    }
  }
  showToolImages();
  return reasoningOfToolTurns(messages);
}

/**
 * Keeps the reasoning of assistant messages only between two user messages where the
 * model called tools, and gives every assistant message there some ("" when it had
 * none). That is DeepSeek's rule for thinking mode (api-docs.deepseek.com/guides/
 * thinking_mode): such reasoning "must be passed back to the API in all subsequent
 * requests", while reasoning of a stretch without tool calls is not part of the context
 * ("passing it in later turns is ignored"), so it is not carried at all.
 */
function reasoningOfToolTurns(messages: ProviderMessage[]): ProviderMessage[] {
  let start = 0;
  for (let i = 0; i <= messages.length; i++) {
    if (i < messages.length && messages[i]!.role !== "user") continue;
    const stretch = messages.slice(start, i);
    const calledTools = stretch.some((m) =>
      m.role === "assistant" && (m.toolCalls?.length ?? 0) > 0
    );
    for (const message of stretch) {
      if (message.role !== "assistant") continue;
      if (calledTools) message.reasoning ??= "";
      else delete message.reasoning;
    }
    start = i + 1;
  }
  return messages;
}

/**
 * The arguments of a stored call as the model gets them back: the parsed object
 * re-encoded once. Arguments that were not valid JSON are stored as their raw text;
 * they go back as `{}` (the call's result says they were invalid), never encoded a
 * second time as a JSON string, and never as the broken text itself: vLLM parses the
 * arguments of every replayed call (chat_utils `_postprocess_messages`, json.loads)
 * and would refuse the whole conversation.
 */
function replayedArguments(stored: unknown): string {
  if (stored === undefined || typeof stored === "string") return "{}";
  return JSON.stringify(stored);
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
  /** The thread compaction whose summary stands for the turns up to its turn, or null. */
  compaction: HistoryCut | null;
}

/** A `thread.compact` summary that replaces the history up to and including a turn. */
export interface HistoryCut {
  /** The newest turn it covers. */
  throughTurnId: string;
  /** Its summary (marked as untrusted). */
  summary: string;
}

/**
 * The message a thread compaction's summary becomes.
 *
 * @param cut the compaction
 * @returns a system message with the summary
 */
export function cutMessage(cut: HistoryCut): ProviderMessage {
  return { role: "system", content: cut.summary };
}

/**
 * Selects earlier turns newest first until the budget is spent.
 *
 * @param readPage reads up to `limit` turns older than `beforeOrdinal`, newest first
 * @param beforeOrdinal the current turn's ordinal (only older turns are history)
 * @param budgetTokens tokens history may use
 * @param cuts thread compactions by the turn they summarize through (newest per turn)
 * @returns the selection
 */
export function selectHistory(
  readPage: (beforeOrdinal: number, limit: number) => Turn[],
  beforeOrdinal: number,
  budgetTokens: number,
  cuts: ReadonlyMap<string, HistoryCut> = new Map(),
): SelectedHistory {
  const chosen: { turn: Turn; messages: ProviderMessage[] }[] = [];
  let tokens = 0;
  let cursor = beforeOrdinal;
  for (;;) {
    const page = readPage(cursor, HISTORY_PAGE_TURNS);
    for (const turn of page) {
      const cut = cuts.get(turn.id);
      if (cut) {
        // The summary stands for this turn and every older one; one that does not fit
        // is left out like the turns would be.
        const cost = estimateMessagesTokens([cutMessage(cut)]);
        if (tokens + cost > budgetTokens) return finish(chosen, tokens, turn.ordinal);
        return finish(chosen, tokens + cost, null, cut);
      }
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
  compaction: HistoryCut | null = null,
): SelectedHistory {
  chosen.reverse();
  const messages = chosen.flatMap((c) => c.messages);
  return {
    turns: chosen.map((c) => c.turn),
    messages: compaction ? [cutMessage(compaction), ...messages] : messages,
    tokens,
    omittedThroughOrdinal,
    compaction,
  };
}
