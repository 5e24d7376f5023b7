/**
 * Reads and writes config.yaml's `agents` section (see config_agents_schema.ts): a saved
 * profile is added or replaced, or removed, with the rest of the file unchanged; every
 * write validates the whole file and replaces it atomically (`updateConfig`).
 *
 * @module
 */
import type { AgentProfile, ModelRef } from "@daedalus/protocol";
import { readConfig, updateConfig } from "./config_file.ts";
import type { AgentsConfig } from "./config_agents_schema.ts";
import type { DaedalusConfig } from "./config_schema.ts";

export type { AgentsConfig, DefaultModelConfig } from "./config_agents_schema.ts";

/**
 * The `agents` section as stored (`{}` when absent).
 *
 * @param path the config file, from `homePaths(home).config`
 * @returns the section
 * @throws {ConfigError} every error of {@linkcode readConfig}
 */
export async function readAgentsConfig(path: string): Promise<AgentsConfig> {
  return (await readConfig(path)).agents ?? {};
}

/**
 * Adds or replaces the saved profile of `profile.id` (in place, so the list keeps its
 * order), and with `makeDefault` makes it the default.
 *
 * @param path the config file
 * @param profile the profile (checked against the runtime's tools etc. by the caller)
 * @param makeDefault whether new threads are bound to it from now on
 * @returns the section as written
 * @throws {ConfigError} `config_invalid` naming the field, and every error of
 *   {@linkcode updateConfig}
 */
export async function saveAgentProfile(
  path: string,
  profile: AgentProfile,
  makeDefault = false,
): Promise<AgentsConfig> {
  const written = await updateConfig(path, (config) => {
    const profiles = [...config.agents?.profiles ?? []];
    const index = profiles.findIndex((saved) => saved.id === profile.id);
    if (index === -1) profiles.push(profile);
    else profiles[index] = profile;
    return {
      ...config,
      agents: {
        ...config.agents,
        profiles,
        ...(makeDefault ? { default_agent_id: profile.id } : {}),
      },
    };
  });
  return written.agents ?? {};
}

/**
 * Removes the saved profile `id`; when it was the default, the default goes back to the
 * built-in one (the key is dropped).
 *
 * @param path the config file
 * @param id the profile's id
 * @returns whether there was a saved profile of that id (nothing is written without one)
 * @throws {ConfigError} every error of {@linkcode updateConfig}
 */
export async function removeAgentProfile(path: string, id: string): Promise<boolean> {
  const current = await readAgentsConfig(path);
  if (!(current.profiles ?? []).some((saved) => saved.id === id)) return false;
  await updateConfig(path, (config) => {
    const { default_agent_id: defaultId, ...rest } = config.agents ?? {};
    return {
      ...config,
      agents: {
        ...rest,
        ...(defaultId !== undefined && defaultId !== id ? { default_agent_id: defaultId } : {}),
        profiles: (rest.profiles ?? []).filter((saved) => saved.id !== id),
      },
    };
  });
  return true;
}

/**
 * The default model (`agents.default_model`) as the wire names a model.
 *
 * @param agents the `agents` section, if any
 * @returns the model, or null when none is set
 */
export function defaultModelSetting(agents: AgentsConfig | undefined): ModelRef | null {
  const stored = agents?.default_model;
  return stored ? { providerId: stored.provider_id, modelId: stored.model_id } : null;
}

/**
 * The config with another default model, the rest unchanged; null drops the key (and an
 * `agents` section left empty by that, so clearing restores the file's earlier shape).
 *
 * @param config the current config
 * @param model the model, or null for none
 * @returns the config to write
 */
export function withDefaultModel(config: DaedalusConfig, model: ModelRef | null): DaedalusConfig {
  const { default_model: _old, ...rest } = config.agents ?? {};
  const agents: AgentsConfig = model === null
    ? rest
    : { ...rest, default_model: { provider_id: model.providerId, model_id: model.modelId } };
  if (Object.keys(agents).length > 0) return { ...config, agents };
  const { agents: _gone, ...withoutAgents } = config;
  return withoutAgents;
}
