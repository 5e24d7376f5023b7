/**
 * What `agent.save` refuses, as a pure check over the runtime's facts: each refusal names
 * the field (`profile.tools[2]`) and has its own reason code.
 *
 * @module
 */
import type { AgentProfile, PermissionPreset } from "@daedalus/protocol";
import { presetRank } from "./agent_catalog.ts";

/** What a profile is checked against. */
export interface AgentFacts {
  /** Every tool id of the runtime (MCP tools included). */
  readonly toolNames: ReadonlySet<string>;
  /** Every skill in the skills folder (enabled or not). */
  readonly skillNames: ReadonlySet<string>;
  /** Every MCP server of config.yaml. */
  readonly mcpServers: ReadonlySet<string>;
  /** Every profile id (the one being saved included). */
  readonly agentIds: ReadonlySet<string>;
  /** The widest preset a profile may have. */
  readonly maxPermission: PermissionPreset;
  /**
   * Why a model cannot be used, or null when it can.
   *
   * @param providerId the provider
   * @param modelId the model
   * @returns a message, or null
   */
  readonly modelProblem: (providerId: string, modelId: string) => string | null;
}

/** One refusal. */
export interface AgentRefusal {
  /** The reason code. */
  readonly reasonCode:
    | "tool_not_found"
    | "skill_not_found"
    | "mcp_server_not_found"
    | "agent_not_found"
    | "model_not_found"
    | "agent_permission_too_wide";
  /** The field, under `profile`. */
  readonly field: string;
  /** What is wrong, for a person. */
  readonly message: string;
}

/**
 * The first problem of a profile, or null when it may be saved.
 *
 * @param profile the profile (already valid against the protocol's schema)
 * @param facts what exists
 * @returns the refusal, or null
 */
export function checkAgentProfile(profile: AgentProfile, facts: AgentFacts): AgentRefusal | null {
  const lists: [
    keyof Pick<AgentProfile, "tools" | "skills" | "mcpServers" | "subagents">,
    ReadonlySet<string>,
    AgentRefusal["reasonCode"],
    string,
  ][] = [
    ["tools", facts.toolNames, "tool_not_found", "tool"],
    ["skills", facts.skillNames, "skill_not_found", "skill"],
    ["mcpServers", facts.mcpServers, "mcp_server_not_found", "MCP server"],
    ["subagents", facts.agentIds, "agent_not_found", "agent profile"],
  ];
  for (const [key, known, reasonCode, noun] of lists) {
    const names = profile[key] ?? [];
    const index = names.findIndex((name) => !known.has(name));
    if (index !== -1) {
      return {
        reasonCode,
        field: `profile.${key}[${index}]`,
        message: `There is no ${noun} "${names[index]}"`,
      };
    }
  }
  if (profile.model) {
    const problem = facts.modelProblem(profile.model.providerId, profile.model.modelId);
    if (problem !== null) {
      return { reasonCode: "model_not_found", field: "profile.model", message: problem };
    }
  }
  if (presetRank(profile.permission) > presetRank(facts.maxPermission)) {
    return {
      reasonCode: "agent_permission_too_wide",
      field: "profile.permission",
      message: `The preset ${profile.permission} is wider than ${facts.maxPermission}, the ` +
        "widest config.yaml allows for agent profiles (agents.max_permission)",
    };
  }
  return null;
}
