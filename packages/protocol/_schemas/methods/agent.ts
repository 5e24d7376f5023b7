/**
 * `agent.*`: the agent profiles (issue 21) — the built-in `build`, `plan` and `explore`
 * and the ones saved in config.yaml's `agents` section. A saved profile with a built-in's
 * id replaces that built-in (an edited copy); removing it brings the built-in back.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { AgentId, AgentInfo, AgentProfile } from "../domain/agent.ts";

/** Methods of the `agent` namespace. */
export const agentMethods = {
  "agent.list": method({
    description: "Lists the agent profiles: the built-ins (or their saved copies) first, " +
      "then the saved ones in config.yaml's order, with the default profile's id and the " +
      "runtime's tool ids (what a profile's `tools` may name)",
    params: z.strictObject({}),
    result: z.looseObject({
      agents: z.array(AgentInfo),
      defaultAgentId: AgentId,
      /** Every tool id of the runtime (MCP tools included), in the order they are offered. */
      tools: z.array(z.string()),
    }),
  }),
  "agent.get": method({
    description: "One agent profile; an unknown id is refused (`agent_not_found`)",
    params: z.strictObject({ agentId: AgentId }),
    result: z.looseObject({ agent: AgentInfo }),
  }),
  "agent.save": method({
    description: "Adds or replaces a profile in config.yaml (atomically). Refused naming " +
      "the field: an unknown tool (`tool_not_found`), skill (`skill_not_found`), MCP " +
      "server (`mcp_server_not_found`), sub-agent (`agent_not_found`) or model " +
      "(`model_not_found`), or a preset above config.yaml's (`agent_permission_too_wide`)",
    params: z.strictObject({
      profile: AgentProfile,
      /** Also make it the profile new threads are bound to. */
      makeDefault: z.boolean().optional(),
    }),
    result: z.looseObject({ agent: AgentInfo }),
  }),
  "agent.remove": method({
    description: "Removes a saved profile (a built-in's saved copy: the built-in is back). " +
      "Threads bound to a profile that no longer exists are moved to the default profile; " +
      "the result names how many. A built-in without a copy is refused (`agent_builtin`)",
    params: z.strictObject({ agentId: AgentId }),
    result: z.looseObject({
      agentId: AgentId,
      /** The profile the bound threads were moved to (the default). */
      movedTo: AgentId,
      /** How many threads were bound to it and now are bound to `movedTo`. */
      movedThreads: z.int().min(0),
    }),
  }),
};
