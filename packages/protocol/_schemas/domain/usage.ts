/**
 * Token usage as the wire shows it; every number comes from provider reports.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { LocalDate } from "../ids.ts";

export const TokenUsage = z.looseObject({
  inputTokens: z.int().min(0),
  cachedInputTokens: z.int().min(0).nullable(),
  outputTokens: z.int().min(0),
  reasoningOutputTokens: z.int().min(0).nullable(),
  totalTokens: z.int().min(0),
}).register(docs, { description: "Tokens reported by the provider for one model call." });

export const UsageSummary = z.looseObject({
  lifetimeTokens: z.int().min(0),
  peakDailyTokens: z.int().min(0),
  longestRunningTurnSec: z.int().min(0),
  currentStreakDays: z.int().min(0),
  longestStreakDays: z.int().min(0),
}).register(docs, { description: "Lifetime usage figures (`usage.read`)." });

export const DailyUsageBucket = z.looseObject({
  startDate: LocalDate,
  tokens: z.int().min(0),
}).register(docs, { description: "Tokens of one local calendar day." });
