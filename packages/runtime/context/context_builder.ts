/**
 * Assembles one model call's input in the order the seed fixes — identity and
 * instructions, selected history, the status block, then the current turn — within
 * 95 % of the model's window, and records what was used (the StepInput). The tool
 * schemas offered with the call count against the window like the messages do.
 *
 * @module
 */
import type { Item, Turn } from "@daedalus/protocol";
import type { ProviderContentPart, ProviderMessage, ProviderTool } from "../providers/provider.ts";
import { type HistoryCut, itemsToMessages, selectHistory } from "./history.ts";
import type { RecalledMemory } from "@daedalus/storage";
import { memoryBlock } from "../memory/recall_block.ts";
import { buildStatusBlock } from "./status_block.ts";
import { estimateMessagesTokens, estimateToolsTokens, TOKEN_ESTIMATOR } from "./token_estimate.ts";
import {
  AUTO_COMPACT_TOKEN_LIMIT_PERCENT,
  NOTES_RESERVE_TOKENS,
  USABLE_CONTEXT_WINDOW_PERCENT,
} from "./limits.ts";

/** What one model call's input is built from. */
export interface ContextSources {
  /** The system prompt: identity, instruction files, skills catalog. */
  systemText: string;
  /** The current turn's ordinal (history is what came before it). */
  turnOrdinal: number;
  /** The current turn's items so far (every run of it, in order). */
  currentItems: readonly Item[];
  /** Reads earlier turns newest first. */
  readHistoryPage: (beforeOrdinal: number, limit: number) => Turn[];
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** The current turn's attachments, rendered (images as data URLs or notes). */
  attachmentParts?: ReadonlyMap<string, ProviderContentPart[]>;
  /** Memories recalled (and frozen) for the Run, best first. */
  recalled?: readonly RecalledMemory[];
  /** The tools the call offers: their schemas travel with every request and use the window. */
  tools?: readonly ProviderTool[];
  /** The share of the window at which the Run compacts (its frozen setting); default 0.9. */
  compactionThreshold?: number;
  /** The thread's compactions by the turn each summarizes through (`thread.compact`). */
  historyCuts?: ReadonlyMap<string, HistoryCut>;
}

/** One model call's input and its audit. */
export interface BuiltContext {
  /** The messages to send. */
  messages: ProviderMessage[];
  /** What was used, recorded as the call's StepInput. */
  stepInput: Record<string, unknown>;
  /** The estimated input tokens. */
  estimatedTokens: number;
  /** 95 % of the window. */
  budgetTokens: number;
  /** Whether the fixed part (system, tools, current turn) alone passes the compaction threshold. */
  compactionDue: boolean;
  /** Whether it cannot fit at all (even with no history). */
  overBudget: boolean;
}

/**
 * Builds the input of one model call.
 *
 * @param sources system text, the current turn, a history reader and the window
 * @returns the messages, the StepInput and the budget figures
 */
export function buildContext(sources: ContextSources): BuiltContext {
  const budgetTokens = Math.floor(sources.contextWindow * USABLE_CONTEXT_WINDOW_PERCENT / 100);
  const threshold = sources.compactionThreshold ?? AUTO_COMPACT_TOKEN_LIMIT_PERCENT / 100;
  const compactLimit = Math.floor(sources.contextWindow * threshold);
  const system: ProviderMessage = { role: "system", content: sources.systemText };
  const current = itemsToMessages(sources.currentItems, sources.attachmentParts);
  const toolTokens = estimateToolsTokens(sources.tools ?? []);
  const fixedTokens = estimateMessagesTokens([system, ...current]) + toolTokens;
  const memory = memoryBlock(
    sources.recalled ?? [],
    budgetTokens - fixedTokens - NOTES_RESERVE_TOKENS,
  );
  const memoryMessage = memory.text === null
    ? null
    : { role: "system" as const, content: memory.text };
  const memoryTokens = memoryMessage ? estimateMessagesTokens([memoryMessage]) : 0;
  const history = selectHistory(
    sources.readHistoryPage,
    sources.turnOrdinal,
    Math.max(0, budgetTokens - fixedTokens - NOTES_RESERVE_TOKENS - memoryTokens),
    sources.historyCuts,
  );
  const status = buildStatusBlock(history.turns);
  const omission = history.omittedThroughOrdinal === null ? null : {
    role: "system" as const,
    content: `Turns 1–${history.omittedThroughOrdinal} of this conversation are not shown ` +
      "(they did not fit the context window); history_read can retrieve them.",
  };
  const statusMessage = status === null ? null : { role: "system" as const, content: status };
  const notes = [omission, memoryMessage, statusMessage].filter((m) =>
    m !== null
  ) as ProviderMessage[];
  const messages = [system, ...history.messages, ...notes, ...current];
  const estimatedTokens = fixedTokens + history.tokens + estimateMessagesTokens(notes);
  return {
    messages,
    estimatedTokens,
    budgetTokens,
    compactionDue: fixedTokens > compactLimit,
    overBudget: fixedTokens > budgetTokens,
    stepInput: {
      estimator: TOKEN_ESTIMATOR,
      estimatedInputTokens: estimatedTokens,
      toolTokens,
      budgetTokens,
      contextWindow: sources.contextWindow,
      historyTurns: history.turns.map((turn) => turn.ordinal),
      omittedThroughOrdinal: history.omittedThroughOrdinal,
      compactedThroughTurnId: history.compaction?.throughTurnId ?? null,
      compactionThreshold: threshold,
      currentItemIds: sources.currentItems.map((item) => item.id),
      statusBlock: status !== null,
      recalledMemories: memory.included.map((m) => ({
        memoryId: m.memoryId,
        revision: m.revision,
      })),
    },
  };
}
