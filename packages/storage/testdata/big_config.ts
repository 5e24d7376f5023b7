/**
 * Test helper: large, valid configs stamped with a generation number, and a check that a
 * config read back is one complete generation (not a mix or a truncation).
 *
 * @module
 */
import type { DaedalusConfig, DaedalusConfigInput } from "../config_schema.ts";

/** Models per generated config; sized so the YAML is large but under the 256 KiB limit. */
export const BIG_CONFIG_MODELS = 1200;

/**
 * Builds generation `generation` of the big config.
 *
 * @param generation stamp written into every model
 * @returns a valid config of roughly 200 KiB of YAML
 */
export function bigConfig(generation: number): DaedalusConfigInput {
  const models: Record<string, { display_name: string; context_window: number }> = {};
  for (let index = 0; index < BIG_CONFIG_MODELS; index++) {
    models[`model-${index.toString().padStart(4, "0")}`] = {
      display_name: `generation ${generation} model ${index} `.padEnd(96, "x"),
      context_window: generation + 1,
    };
  }
  return {
    version: 1,
    providers: {
      bulk: {
        type: "openai_compatible",
        base_url: "http://127.0.0.1:9/v1",
        api_key: `key-${generation}`,
        models,
      },
    },
    skills: { disabled: [] },
  };
}

/**
 * Checks that `config` is exactly one generation of {@linkcode bigConfig}.
 *
 * @param config a config read back from disk
 * @returns its generation
 * @throws {Error} if models are missing or stamped with different generations
 */
export function completeGeneration(config: DaedalusConfig): number {
  const provider = config.providers.bulk;
  if (provider === undefined) throw new Error("provider bulk is missing");
  const generation = Number(provider.api_key?.slice("key-".length));
  const models = Object.values(provider.models);
  if (models.length !== BIG_CONFIG_MODELS) {
    throw new Error(`expected ${BIG_CONFIG_MODELS} models, found ${models.length}`);
  }
  for (const model of models) {
    if (model.context_window !== generation + 1) {
      throw new Error(`a model of generation ${model.context_window} in generation ${generation}`);
    }
  }
  return generation;
}
