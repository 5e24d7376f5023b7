/**
 * The context meter of the open thread: how much of its model's window the last step's
 * input used (`thread.context`, read again after each model call of the thread), and
 * "Compact now" (`thread.compact`, one clientRequestId per click so a retried click
 * cannot compact twice).
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { ResultOf } from "@daedalus/client";
import { report } from "./store.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** How much of its window the thread's last step used. */
export type ContextUse = NonNullable<ResultOf<"thread.context">["use"]>;

/** What the meter shows: the thread it is for, and its use (null before the first step). */
export const contextUse = signal<{ threadId: string; use: ContextUse | null } | null>(null);

/** What the last "Compact now" of a thread did. */
export interface CompactOutcome {
  /** The thread. */
  threadId: string;
  /** False when there was nothing to compact. */
  compacted: boolean;
  /** Estimated tokens of the history the summary replaced. */
  tokensBefore: number;
  /** Estimated tokens of the summary. */
  tokensAfter: number;
}

/** The last "Compact now" outcome, cleared when the meter moves to another thread. */
export const compactOutcome = signal<CompactOutcome | null>(null);

/** The thread being compacted now, or null. */
export const compactingThread = signal<string | null>(null);

/**
 * The share of the window used, in whole percent (0–100; more than the window shows 100).
 *
 * @param use the last step's use
 * @returns the percentage
 */
export function contextPercent(use: Pick<ContextUse, "inputTokens" | "contextWindow">): number {
  if (use.contextWindow <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round(use.inputTokens / use.contextWindow * 100)));
}

/**
 * Reads the thread's last step's use into {@linkcode contextUse}. A failure leaves the
 * meter as it was (it is a hint, not a control): nothing is reported.
 *
 * @param threadId the thread
 * @param call the connection (the live one by default)
 */
export async function loadContextUse(threadId: string, call: RpcCall = liveCall): Promise<void> {
  if (contextUse.value?.threadId !== threadId) {
    contextUse.value = null;
    compactOutcome.value = null;
  }
  try {
    const { use } = await call("thread.context", { threadId });
    contextUse.value = { threadId, use };
  } catch {
    // The meter stays empty; the next model call of the thread reads it again.
  }
}

/**
 * Compacts the thread now and records what happened in {@linkcode compactOutcome}.
 *
 * @param threadId the thread
 * @param call the connection (the live one by default)
 * @returns the outcome, or null when the call failed (the error is reported)
 */
export async function compactNow(
  threadId: string,
  call: RpcCall = liveCall,
): Promise<CompactOutcome | null> {
  compactingThread.value = threadId;
  try {
    const result = await call("thread.compact", {
      threadId,
      clientRequestId: crypto.randomUUID(),
    });
    const outcome: CompactOutcome = {
      threadId,
      compacted: result.compacted,
      tokensBefore: result.compaction?.tokensBefore ?? 0,
      tokensAfter: result.compaction?.tokensAfter ?? 0,
    };
    compactOutcome.value = outcome;
    return outcome;
  } catch (error) {
    report(error);
    return null;
  } finally {
    compactingThread.value = null;
  }
}
