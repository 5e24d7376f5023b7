/**
 * Run budgets: how much one Run may spend before it pauses and asks the user to go on —
 * tokens, cost (from the model's price), model calls and running time. Each limit is
 * optional; a reached one is an approval (`budget_reached`) that offers `+extension`.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { BUDGET_KINDS } from "../../enums.ts";
import {
  BUDGET_COST_USD_MAX,
  BUDGET_MODEL_CALLS_MAX,
  BUDGET_TOKENS_MAX,
  BUDGET_WALL_TIME_SECONDS_MAX,
} from "../../limits.ts";

export const BudgetKind = z.enum(BUDGET_KINDS).register(docs, {
  description: "What a budget limits: `tokens` (input + output of the Run's model calls), " +
    "`costUsd` (from the model's configured price), `modelCalls`, `wallTimeSeconds` (time " +
    "running, not waiting).",
});

export const RunBudget = z.strictObject({
  tokens: z.int().min(1).max(BUDGET_TOKENS_MAX).optional(),
  costUsd: z.number().positive().max(BUDGET_COST_USD_MAX).optional(),
  modelCalls: z.int().min(1).max(BUDGET_MODEL_CALLS_MAX).optional(),
  wallTimeSeconds: z.int().min(1).max(BUDGET_WALL_TIME_SECONDS_MAX).optional(),
}).register(docs, {
  description: "A Run's limits, each optional; reaching one pauses the Run with an approval.",
});

export const ModelPrice = z.strictObject({
  /** US dollars per million input tokens. */
  inputUsdPerMTok: z.number().min(0).max(10_000),
  /** US dollars per million output tokens. */
  outputUsdPerMTok: z.number().min(0).max(10_000),
}).register(docs, { description: "A model's price, for cost budgets." });

export const BudgetReached = z.strictObject({
  kind: BudgetKind,
  /** The limit in force when it was reached (the configured one plus earlier extensions). */
  limit: z.number().positive(),
  /** What the Run had used. */
  used: z.number().min(0),
  /** What `allow_once` adds to the limit ("continue with +extension"). */
  extension: z.number().positive(),
}).register(docs, { description: "The budget a Run reached, on its approval." });
