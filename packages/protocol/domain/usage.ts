/**
 * Token usage as the wire shows it; every number comes from provider reports.
 *
 * @module
 */
import { z } from "zod";
import { LocalDate } from "../ids.ts";

/** Tokens reported by the provider for one model call. */
export const TokenUsage = z.looseObject({
  inputTokens: z.int().min(0),
  cachedInputTokens: z.int().min(0).nullable(),
  outputTokens: z.int().min(0),
  reasoningOutputTokens: z.int().min(0).nullable(),
  totalTokens: z.int().min(0),
});
/** Tokens of one model call. */
export type TokenUsage = z.infer<typeof TokenUsage>;

/** Lifetime usage figures (`usage.read`). */
export const UsageSummary = z.looseObject({
  lifetimeTokens: z.int().min(0),
  peakDailyTokens: z.int().min(0),
  longestRunningTurnSec: z.int().min(0),
  currentStreakDays: z.int().min(0),
  longestStreakDays: z.int().min(0),
});
/** Lifetime usage figures. */
export type UsageSummary = z.infer<typeof UsageSummary>;

/** Tokens of one local calendar day. */
export const DailyUsageBucket = z.looseObject({
  startDate: LocalDate,
  tokens: z.int().min(0),
});
/** Tokens of one day. */
export type DailyUsageBucket = z.infer<typeof DailyUsageBucket>;
