/**
 * Context compaction for a Run that outgrows its window: the older part of the Run
 * is trimmed deterministically into records (whole tool units, each record and tool
 * argument cut to 700 bytes, units ≤ 24,000 bytes, head and tail kept when the source
 * is still too large), summarized by one tool-less call, and replaced in later inputs
 * by that summary (prefixed as untrusted) plus a verbatim tail. Raw Items are never
 * rewritten.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { ProviderRequest } from "../providers/provider.ts";
import { estimateTextTokens } from "./token_estimate.ts";
import {
  COMPACTION_OUTPUT_TOKENS,
  COMPACTION_RECORD_MAX_BYTES,
  COMPACTION_RETAINED_TAIL_TOKENS,
  COMPACTION_SUMMARY_MAX_CHARS,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_UNIT_MAX_BYTES,
  COMPACTION_USER_MESSAGES_TOKENS,
} from "./limits.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts a text to at most `maxBytes` UTF-8 bytes on a character boundary, marking the cut. */
export function cutBytes(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end)) + ` …[${bytes.byteLength - end} bytes cut]`;
}

/** One unit of the Run: a message, or a tool call with its result. */
export interface CompactionUnit {
  /** Ordinal of the unit's first item. */
  firstOrdinal: number;
  /** Ordinal of its last item. */
  lastOrdinal: number;
  /** The trimmed text. */
  text: string;
  /** What the unit costs kept verbatim (untrimmed), in estimated tokens. */
  verbatimTokens: number;
}

/**
 * Groups items into units and trims each deterministically.
 *
 * @param items items of the Run, in order (finished ones)
 * @returns the units
 */
export function compactionUnits(items: readonly Item[]): CompactionUnit[] {
  const resultByCall = new Map<string, Item>();
  for (const item of items) {
    const callId = item.data.toolCallItemId;
    if (item.kind === "tool_result" && typeof callId === "string") resultByCall.set(callId, item);
  }
  const units: CompactionUnit[] = [];
  for (const item of items) {
    if (item.kind === "tool_result") continue;
    if (item.kind === "tool_call") {
      const result = resultByCall.get(item.id);
      const args = cutBytes(JSON.stringify(item.data.arguments ?? {}), COMPACTION_RECORD_MAX_BYTES);
      const text = `[tool ${String(item.data.toolId ?? "?")} ${args}] → ` +
        (result ? cutBytes(result.content, COMPACTION_RECORD_MAX_BYTES) : "(no result)");
      units.push({
        firstOrdinal: item.ordinal,
        lastOrdinal: result?.ordinal ?? item.ordinal,
        text: cutBytes(text, COMPACTION_UNIT_MAX_BYTES),
        verbatimTokens: estimateTextTokens(JSON.stringify(item.data.arguments ?? {})) +
          estimateTextTokens(result?.content ?? ""),
      });
      continue;
    }
    if (item.status === "streaming" || !item.content) continue;
    units.push({
      firstOrdinal: item.ordinal,
      lastOrdinal: item.ordinal,
      text: `[${item.role ?? "?"}] ${cutBytes(item.content, COMPACTION_RECORD_MAX_BYTES)}`,
      verbatimTokens: estimateTextTokens(item.content),
    });
  }
  return units;
}

/** Where a compaction cuts a Run. */
export interface CompactionPlan {
  /** Units to summarize (oldest part). */
  summarized: CompactionUnit[];
  /** Items at or below this ordinal are replaced by the summary (the first kept unit starts above it). */
  boundaryOrdinal: number;
}

/**
 * Splits a Run's items into a part to summarize and a verbatim tail of at most
 * `tailTokens`, cutting only between units.
 *
 * @param items the Run's items (a previous summary's part already removed)
 * @param contextWindow the model's window
 * @returns the plan, or null when there is nothing older than the tail to summarize
 */
export function planCompaction(
  items: readonly Item[],
  contextWindow: number,
): CompactionPlan | null {
  const units = compactionUnits(items);
  const tailBudget = Math.min(COMPACTION_RETAINED_TAIL_TOKENS, Math.floor(contextWindow * 0.3));
  let tail = 0;
  let split = units.length;
  while (split > 0) {
    // The tail stays verbatim: what it costs is its items' full text, not the trimmed record.
    const cost = units[split - 1]!.verbatimTokens;
    if (tail + cost > tailBudget) break;
    tail += cost;
    split--;
  }
  if (split === units.length && units.length > 0) split = units.length - 1; // keep at least the newest
  if (split <= 0) return null;
  // Cut before the first kept unit: parallel tool calls interleave (call, call,
  // result, result), so a kept call and its result both lie above the cut, while a
  // summarized call's result left above it is dropped as unpaired.
  return { summarized: units.slice(0, split), boundaryOrdinal: units[split]!.firstOrdinal - 1 };
}

/**
 * The tool-less summary request. When the units are still larger than half the
 * window, the middle is dropped (head and tail kept) with a marker.
 *
 * @param modelId the Run's model
 * @param previousSummary the summary of an earlier compaction, if any
 * @param units the units to summarize
 * @param contextWindow the model's window
 * @returns the request
 */
export function summaryRequest(
  modelId: string,
  previousSummary: string | null,
  units: readonly CompactionUnit[],
  contextWindow: number,
): ProviderRequest {
  const budget = Math.floor(contextWindow * 0.5);
  const texts = units.map((u) => u.text);
  let head = texts.length;
  let total = texts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
  const kept: string[] = [...texts];
  if (total > budget) {
    // Keep the first and last units, drop from the middle until it fits.
    head = Math.ceil(texts.length / 2);
    while (total > budget && head > 1) {
      head--;
      total -= estimateTextTokens(kept.splice(head, 1)[0] ?? "");
    }
    kept.splice(head, 0, `…[${texts.length - kept.length} units omitted]…`);
  }
  return {
    modelId,
    tools: [],
    reasoningEffort: null,
    messages: [
      {
        role: "system",
        content: "You compress the working context of an agent run. Write a faithful, " +
          `compact summary (at most about ${COMPACTION_OUTPUT_TOKENS} tokens) of what the user ` +
          "asked, what was done (files, commands, results), what was learned, and what is " +
          "still open. Keep exact paths, names, numbers and errors. Do not invent anything.",
      },
      {
        role: "user",
        content: (previousSummary ? `Earlier summary:\n${previousSummary}\n\n` : "") +
          `Records to summarize:\n${kept.join("\n")}`,
      },
    ],
  };
}

/**
 * The stored summary: prefixed as untrusted and cut to 64,000 characters.
 *
 * @param text the model's summary
 * @returns the summary text
 */
export function summaryText(text: string): string {
  const body = text.trim().slice(
    0,
    COMPACTION_SUMMARY_MAX_CHARS - COMPACTION_SUMMARY_PREFIX.length - 1,
  );
  return `${COMPACTION_SUMMARY_PREFIX}\n${body}`;
}

/**
 * The user messages of the summarized part kept verbatim: the newest first, up to
 * 20,000 tokens, returned in their original order.
 *
 * @param items the summarized items
 * @returns the user items to keep
 */
export function retainedUserItems(items: readonly Item[]): Item[] {
  const users = items.filter((item) => item.kind === "message" && item.role === "user");
  const kept: Item[] = [];
  let tokens = 0;
  for (const item of users.reverse()) {
    const cost = estimateTextTokens(item.content);
    if (tokens + cost > COMPACTION_USER_MESSAGES_TOKENS) break;
    tokens += cost;
    kept.unshift(item);
  }
  return kept;
}
