/**
 * Providers and models as the wire shows them. Credentials never appear here:
 * only whether one is configured.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { Identifier } from "../ids.ts";
import { ReasoningEffort } from "../enums.ts";
import { ModelPrice } from "./budget.ts";

export const ProviderId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
  error: "a provider id is 1–64 of a-z, 0-9, '-' and '_'",
}).register(docs, {
  description:
    "A provider id: lowercase letters, digits, `-` and `_`, starting with a letter or digit.",
});

export const ContextWindow = z.int().min(1024).max(100_000_000).register(docs, {
  description: "A model's context window in tokens.",
});

export const Provider = z.looseObject({
  id: ProviderId,
  displayName: z.string(),
  origin: z.enum(["builtin", "custom"]),
  configured: z.boolean(),
  credentialConfigured: z.boolean(),
  health: z.enum(["unknown", "ok", "error"]),
  baseUrl: z.string().nullable().optional(),
}).register(docs, { description: "A provider summary (`provider.list`)." });

export const ModelRef = z.strictObject({
  providerId: ProviderId,
  modelId: Identifier,
}).register(docs, {
  description: "A configured model named by its provider and id (a fallback, a Run's models).",
});

export const Model = z.looseObject({
  providerId: ProviderId,
  id: Identifier,
  displayName: z.string(),
  enabled: z.boolean(),
  contextWindow: ContextWindow,
  supportsTools: z.boolean(),
  /** Default effort sent as `reasoning_effort`; null means "auto" (send nothing). */
  reasoningEffort: ReasoningEffort.nullable(),
  reasoningEfforts: z.array(ReasoningEffort),
  /**
   * The model a Run continues on when this one fails with a retryable reason after its
   * retries, or its provider's breaker is open; absent (or null) when it names none.
   */
  fallback: ModelRef.nullable().optional(),
  /** Its price (config.yaml's `price`), for cost budgets; absent when not configured. */
  price: ModelPrice.optional(),
}).register(docs, { description: "A model summary (`model.list`)." });

export const ModelInput = z.strictObject({
  id: Identifier,
  displayName: z.string().min(1).max(200).optional(),
  contextWindow: ContextWindow.optional(),
  enabled: z.boolean().optional(),
  supportsTools: z.boolean().optional(),
  reasoningEfforts: z.array(ReasoningEffort).optional(),
  reasoningEffort: ReasoningEffort.nullable().optional(),
  /** Its fallback (a configured, enabled model other than itself); null removes it. */
  fallback: ModelRef.nullable().optional(),
}).register(docs, { description: "A model entered by the user when configuring a provider." });

export const DiscoveredModel = z.looseObject({
  id: Identifier,
  displayName: z.string(),
  contextWindow: ContextWindow,
}).register(docs, { description: "A model found by `provider.discover_models`." });
