/**
 * `agent.*` and `thread.set_agent` (issue 21): the agent profiles — the built-ins and
 * config.yaml's `agents` section — and a thread's binding to one (kept in the thread's
 * settings, so a journal rebuild restores it). `agent.save` checks a profile against the
 * runtime's tools, skills, MCP servers, profiles and models and refuses it naming the
 * field; `agent.remove` moves the threads bound to a profile that no longer exists to the
 * default and says how many.
 *
 * @module
 */
import {
  type AgentInfo,
  type AgentProfile,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  ConfigError,
  getThread,
  readConfig,
  rebindThreadAgents,
  removeAgentProfile,
  saveAgentProfile,
  setThreadAgent,
  type StateStore,
} from "@daedalus/storage";
import type { ToolDefinition } from "@daedalus/tools";
import type { Handled } from "./services.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import { SkillCatalogCache } from "../skills/catalog_cache.ts";
import { type AgentCatalog, agentCatalog } from "../agents/agent_catalog.ts";
import { checkAgentProfile } from "../agents/agent_checks.ts";
import { isBuiltInAgent } from "../agents/builtin_agents.ts";

/** What the agent handlers need. */
export interface AgentHandlerOptions {
  /** The state store (threads' bindings). */
  store: StateStore;
  /** `<home>/config.yaml`. */
  configPath: string;
  /** `<home>/skills`. */
  skillsRoot: string;
  /** The runtime's tools (MCP tools included). */
  tools: ReadonlyMap<string, ToolDefinition<unknown>>;
  /** Checks a profile's model. */
  registry: Pick<ProviderRegistry, "resolveModel">;
  /** Refuses configured secrets in a profile and cleans config error messages. */
  protectedValues: Pick<ProtectedValues, "assertSafe" | "redact">;
}

/** The methods served here. */
export type AgentMethod =
  | "agent.list"
  | "agent.get"
  | "agent.save"
  | "agent.remove"
  | "thread.set_agent";

/** One handler per method. */
export type AgentHandlers = {
  [M in AgentMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Builds the handlers.
 *
 * @param options store, config, skills, tools, registry
 * @returns a handler per method
 */
export function createAgentHandlers(options: AgentHandlerOptions): AgentHandlers {
  const { store, configPath, protectedValues } = options;
  const skills = new SkillCatalogCache(options.skillsRoot);
  const guard = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error) => {
      if (!(error instanceof ConfigError)) throw error;
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "config_invalid",
        protectedValues.redact(error.message),
        {},
        { cause: error },
      );
    });
  const catalog = async (): Promise<AgentCatalog> =>
    agentCatalog((await guard(readConfig(configPath))).agents ?? {});
  const found = (agents: AgentCatalog, id: string, field: string): AgentInfo => {
    const info = agents.find(id);
    if (info) return info;
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "agent_not_found",
      `There is no agent profile "${id}" (agent.list names them)`,
      { field },
    );
  };
  return {
    "agent.list": async () => {
      const agents = await catalog();
      return {
        result: {
          agents: [...agents.agents],
          defaultAgentId: agents.defaultAgentId,
          tools: [...options.tools.keys()],
        },
      };
    },
    "agent.get": async (params) => ({
      result: { agent: found(await catalog(), params.agentId, "agentId") },
    }),
    "agent.save": async (params) => {
      protectedValues.assertSafe(params.profile, "profile");
      const config = await guard(readConfig(configPath));
      const agents = agentCatalog(config.agents ?? {});
      const refusal = checkAgentProfile(params.profile, {
        toolNames: new Set(options.tools.keys()),
        skillNames: new Set((await skills.catalog()).skills.map((skill) => skill.name)),
        mcpServers: new Set(Object.keys(config.mcp?.servers ?? {})),
        agentIds: new Set([...agents.agents.map((info) => info.profile.id), params.profile.id]),
        maxPermission: agents.maxPermission,
        modelProblem: (providerId, modelId) => {
          try {
            options.registry.resolveModel(providerId, modelId);
            return null;
          } catch (error) {
            return (error as Error).message;
          }
        },
      });
      if (refusal !== null) {
        throw new RpcError(RPC_ERROR_CODES.invalidParams, refusal.reasonCode, refusal.message, {
          field: refusal.field,
        });
      }
      const written = await guard(
        saveAgentProfile(configPath, withoutUndefined(params.profile), params.makeDefault),
      );
      return { result: { agent: found(agentCatalog(written), params.profile.id, "profile.id") } };
    },
    "agent.remove": async (params) => {
      const before = await catalog();
      found(before, params.agentId, "agentId");
      const removed = await guard(removeAgentProfile(configPath, params.agentId));
      if (!removed) {
        throw new RpcError(
          RPC_ERROR_CODES.invalidParams,
          isBuiltInAgent(params.agentId) ? "agent_builtin" : "agent_not_found",
          `The built-in agent profile "${params.agentId}" cannot be removed; save a copy to change it`,
          { field: "agentId" },
        );
      }
      const after = await catalog();
      // A built-in's copy removed: the built-in is back, and its threads stay with it.
      const moved = rebindThreadAgents(
        store,
        (id) => after.find(id) === undefined,
        after.defaultAgentId,
      );
      return {
        result: {
          agentId: params.agentId,
          movedTo: after.defaultAgentId,
          movedThreads: moved.result,
        },
      };
    },
    "thread.set_agent": async (params) => {
      found(await catalog(), params.agentId, "agentId");
      const committed = setThreadAgent(store, params.threadId, params.agentId);
      const thread = store.read((db) => getThread(db, params.threadId)).thread;
      return { result: { thread, changed: committed.result.changed } };
    },
  };
}

/**
 * The id to bind a new thread to: the one asked for (which must exist), else the default.
 *
 * @param configPath config.yaml
 * @param asked the `thread.create` `agentId`
 * @returns the id
 * @throws {RpcError} `agent_not_found` naming `agentId`
 */
export async function agentForNewThread(configPath: string, asked?: string): Promise<string> {
  const config = await readConfig(configPath).catch(() => null);
  const agents = agentCatalog(config?.agents ?? {});
  if (asked === undefined) return agents.defaultAgentId;
  if (agents.find(asked)) return asked;
  throw new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "agent_not_found",
    `There is no agent profile "${asked}" (agent.list names them)`,
    { field: "agentId" },
  );
}

/** The profile without keys whose value is undefined (YAML cannot hold them). */
function withoutUndefined(profile: AgentProfile): AgentProfile {
  return JSON.parse(JSON.stringify(profile)) as AgentProfile;
}
