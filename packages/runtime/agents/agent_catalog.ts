/**
 * The agent profiles as the user sees them: the built-ins (each replaced by a saved copy
 * of the same id, if any) first, then the other saved profiles in config.yaml's order;
 * and the default profile — config.yaml's `default_agent_id` when it names one that
 * exists, else `build`.
 *
 * @example
 * ```ts
 * const catalog = agentCatalog(config.agents ?? {});
 * catalog.find("plan")?.profile.permission; // "read_only"
 * ```
 *
 * @module
 */
import type { AgentInfo, AgentProfile, PermissionPreset } from "@daedalus/protocol";
import { PERMISSION_PRESETS } from "@daedalus/protocol";
import type { AgentsConfig } from "@daedalus/storage";
import { BUILD_AGENT_ID, BUILTIN_AGENTS } from "./builtin_agents.ts";

/** The merged profiles and the default. */
export interface AgentCatalog {
  /** Every profile, as `agent.list` shows it. */
  readonly agents: readonly AgentInfo[];
  /** The profile new threads are bound to. */
  readonly defaultAgentId: string;
  /** The widest preset a profile may have (config.yaml's `max_permission`, else full). */
  readonly maxPermission: PermissionPreset;
  /**
   * One profile.
   *
   * @param id its id
   * @returns it, or undefined when there is none of that id
   */
  find(id: string): AgentInfo | undefined;
}

/**
 * Merges the built-ins with config.yaml's `agents` section.
 *
 * @param section the stored section (`{}` when absent)
 * @returns the catalog
 */
export function agentCatalog(section: AgentsConfig): AgentCatalog {
  const saved = section.profiles ?? [];
  const savedById = new Map(saved.map((profile) => [profile.id, profile]));
  const ids = new Set<string>();
  const merged: { profile: AgentProfile; builtIn: boolean; saved: boolean }[] = [];
  for (const builtIn of BUILTIN_AGENTS) {
    const copy = savedById.get(builtIn.id);
    merged.push({ profile: copy ?? builtIn, builtIn: true, saved: copy !== undefined });
    ids.add(builtIn.id);
  }
  for (const profile of saved) {
    if (!ids.has(profile.id)) merged.push({ profile, builtIn: false, saved: true });
    ids.add(profile.id);
  }
  const wanted = section.default_agent_id;
  const defaultAgentId = wanted !== undefined && ids.has(wanted) ? wanted : BUILD_AGENT_ID;
  const agents = merged.map((entry) => ({
    ...entry,
    isDefault: entry.profile.id === defaultAgentId,
  }));
  const byId = new Map(agents.map((info) => [info.profile.id, info]));
  return {
    agents,
    defaultAgentId,
    maxPermission: section.max_permission ?? "full_access",
    find: (id) => byId.get(id),
  };
}

/**
 * How wide a preset is: `read_only` < `ask` < `workspace_write` < `full_access` (the
 * order of `PERMISSION_PRESETS`: each lets through at least what the one before does
 * without asking).
 *
 * @param preset a preset
 * @returns its rank, 0 for `read_only`
 */
export function presetRank(preset: PermissionPreset): number {
  return PERMISSION_PRESETS.indexOf(preset);
}

/**
 * The narrower of two presets.
 *
 * @param a one preset
 * @param b the other
 * @returns the one with the lower {@linkcode presetRank}
 */
export function narrowerPreset(a: PermissionPreset, b: PermissionPreset): PermissionPreset {
  return presetRank(a) <= presetRank(b) ? a : b;
}
