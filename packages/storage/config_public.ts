/**
 * The config schemas as the package promises them: validators typed
 * {@linkcode Schema} of the config types, so the public types do not depend on zod's
 * (the same as `@daedalus/protocol`'s message schemas). Inside the package the zod
 * schemas of `config_schema.ts` are used directly.
 *
 * @module
 */
import type { Schema } from "@daedalus/protocol";
import * as zodSchemas from "./config_schema.ts";
import type { DaedalusConfig, ModelConfig, ProviderConfig } from "./config_schema.ts";

/**
 * The whole of `config.yaml` version 1: `parse` fills in the defaults.
 *
 * @example
 * ```ts
 * const config = DaedalusConfigSchema.parse({
 *   version: 1,
 *   providers: {
 *     local: {
 *       type: "openai_compatible",
 *       base_url: "http://127.0.0.1:11434/v1",
 *       models: { "qwen2.5:7b": { context_window: 32768 } },
 *     },
 *   },
 * });
 * config.providers.local.models["qwen2.5:7b"].enabled; // true
 * ```
 */
export const DaedalusConfigSchema: Schema<DaedalusConfig> = zodSchemas.DaedalusConfigSchema;

/** One OpenAI-compatible provider, as stored under `providers.<id>`. */
export const ProviderConfigSchema: Schema<ProviderConfig> = zodSchemas.ProviderConfigSchema;

/** One model of a provider, as stored under `providers.<id>.models.<model-id>`. */
export const ModelConfigSchema: Schema<ModelConfig> = zodSchemas.ModelConfigSchema;
