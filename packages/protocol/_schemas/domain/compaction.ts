/**
 * Compaction settings (config.yaml's `compaction`, a thread's own override) and what a
 * `thread.compact` made.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { TurnId } from "../ids.ts";
import { ProviderId } from "./provider.ts";
import { COMPACTION_THRESHOLD_MAX, COMPACTION_THRESHOLD_MIN } from "../../limits.ts";

export const CompactionThreshold = z.number()
  .min(COMPACTION_THRESHOLD_MIN, {
    error: `threshold must be at least ${COMPACTION_THRESHOLD_MIN} (a fraction of the window)`,
  })
  .max(COMPACTION_THRESHOLD_MAX, {
    error: `threshold must be at most ${COMPACTION_THRESHOLD_MAX} (a fraction of the window)`,
  }).register(docs, {
    description: "The share of the model's context window at which a Run compacts its " +
      "context, from 0.5 to 0.95.",
  });

export const CompactionSettings = z.strictObject({
  threshold: CompactionThreshold,
  enabled: z.boolean(),
}).register(docs, {
  description: "Whether a Run compacts its context when it outgrows `threshold` of the " +
    "window; off, a Run whose input no longer fits fails with `context_budget_exceeded`.",
});

export const CompactionOverride = z.strictObject({
  threshold: CompactionThreshold.optional(),
  enabled: z.boolean().optional(),
}).register(docs, {
  description: "A change to the compaction settings: each absent field keeps its value.",
});

export const ThreadSettings = z.looseObject({
  /** The thread's own compaction settings over config.yaml's; null: config.yaml's. */
  compaction: CompactionOverride.nullable(),
  /** The agent profile the thread is bound to (`thread.set_agent`); absent: the default one. */
  agentId: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/).optional(),
}).register(docs, { description: "A thread's own settings (absent ones follow config.yaml)." });

export const FrozenCompaction = z.strictObject({
  threshold: CompactionThreshold,
  enabled: z.boolean(),
  /** Where it came from: config.yaml (or the default), or the thread's own override. */
  source: z.enum(["config", "thread"]),
}).register(docs, { description: "The compaction setting a Run was frozen with." });

export const ThreadCompaction = z.looseObject({
  /** The newest turn the summary covers: later Runs' history has it in place of the turns up to it. */
  throughTurnId: TurnId,
  /** The summary, marked as untrusted. */
  summary: z.string(),
  /** Estimated tokens of the history the summary replaces. */
  tokensBefore: z.int().min(0),
  /** Estimated tokens of the summary. */
  tokensAfter: z.int().min(0),
  providerId: ProviderId,
  modelId: z.string().min(1),
}).register(docs, { description: "What a `thread.compact` summarized and by which model." });

export const ContextUse = z.looseObject({
  /** The Run whose last execution call this is. */
  runId: z.string().min(1),
  /** The call's input tokens: the provider's count, else the runtime's estimate. */
  inputTokens: z.int().min(0),
  /** Whether `inputTokens` is the runtime's estimate (the provider reported no usage). */
  estimated: z.boolean(),
  /** The model's context window the call was sized for, in tokens. */
  contextWindow: z.int().min(1),
}).register(docs, {
  description: "How much of its model's window the thread's last execution call used.",
});
