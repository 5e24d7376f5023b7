/**
 * Summing token usage over a Run's model calls: counts add; a nullable count stays null
 * only while no call reported it.
 *
 * @module
 */
import type { TokenUsage } from "@daedalus/protocol";

/**
 * Adds one call's usage to a total.
 *
 * @param total the total so far, or null before the first report
 * @param usage the call's usage
 * @returns the new total (a new object; neither argument changes)
 */
export function addUsage(total: TokenUsage | null, usage: TokenUsage): TokenUsage {
  if (total === null) return { ...usage };
  const nullable = (a: number | null, b: number | null) =>
    a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    cachedInputTokens: nullable(total.cachedInputTokens, usage.cachedInputTokens),
    outputTokens: total.outputTokens + usage.outputTokens,
    reasoningOutputTokens: nullable(total.reasoningOutputTokens, usage.reasoningOutputTokens),
    totalTokens: total.totalTokens + usage.totalTokens,
  };
}
