/**
 * `provider.*` and `model.*`.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Identifier } from "../ids.ts";
import { ReasoningEffort } from "../enums.ts";
import {
  ContextWindow,
  DiscoveredModel,
  Model,
  ModelInput,
  ModelRef,
  Provider,
  ProviderId,
} from "../domain/provider.ts";

const ApiKey = z.string().min(1).max(4096);
const BaseUrl = z.url({ protocol: /^https?$/ }).max(2048);
const Headers = z.record(z.string().min(1).max(200), z.string().max(4096));

/** Methods of the `provider` and `model` namespaces. */
export const providerMethods = {
  "provider.list": method({
    description: "Lists the built-in and custom providers",
    params: z.strictObject({}),
    result: z.looseObject({ providers: z.array(Provider) }),
  }),
  "provider.configure": method({
    description: "Saves the DeepSeek profile or a custom OpenAI-compatible provider",
    params: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("deepseek"),
        apiKey: ApiKey.optional(),
        models: z.array(ModelInput).optional(),
      }),
      z.strictObject({
        kind: z.literal("custom"),
        providerId: ProviderId,
        displayName: z.string().min(1).max(200),
        baseUrl: BaseUrl,
        apiKey: ApiKey.optional(),
        headers: Headers.optional(),
        models: z.array(ModelInput),
      }),
    ]),
    result: z.looseObject({ provider: Provider }),
  }),
  "provider.discover_models": method({
    description: "Lists a provider's models (GET /models); a key given here is not stored",
    params: z.discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("deepseek"), apiKey: ApiKey.optional() }),
      z.strictObject({
        kind: z.literal("custom"),
        providerId: ProviderId.optional(),
        baseUrl: BaseUrl,
        apiKey: ApiKey.optional(),
        headers: Headers.optional(),
      }),
    ]),
    result: z.looseObject({ models: z.array(DiscoveredModel) }),
  }),
  "provider.disconnect": method({
    description: "Forgets the built-in DeepSeek profile's saved configuration",
    params: z.strictObject({ providerId: ProviderId }),
    result: z.looseObject({ provider: Provider }),
  }),
  "provider.remove": method({
    description: "Removes a custom provider and its models",
    params: z.strictObject({ providerId: ProviderId }),
    result: z.looseObject({ removed: z.boolean(), providerId: ProviderId }),
  }),
  "model.list": method({
    description: "Lists configured models",
    params: z.strictObject({ providerId: ProviderId.optional() }),
    result: z.looseObject({ models: z.array(Model) }),
  }),
  "model.set_enabled": method({
    description: "Enables or disables a model for new turns",
    params: z.strictObject({ providerId: ProviderId, modelId: Identifier, enabled: z.boolean() }),
    result: z.looseObject({ model: Model }),
  }),
  "model.set_limits": method({
    description: "Sets a model's context window and reasoning-effort levels",
    params: z.strictObject({
      providerId: ProviderId,
      modelId: Identifier,
      contextWindow: ContextWindow.optional(),
      reasoningEfforts: z.array(ReasoningEffort).optional(),
      reasoningEffort: ReasoningEffort.nullable().optional(),
    }),
    result: z.looseObject({ model: Model }),
  }),
  "model.set_fallback": method({
    description: "Sets or removes (null) the model a Run continues on when this one fails " +
      "with a retryable reason; it must be a configured, enabled model other than this one",
    params: z.strictObject({
      providerId: ProviderId,
      modelId: Identifier,
      fallback: ModelRef.nullable(),
    }),
    result: z.looseObject({ model: Model }),
  }),
};
