/**
 * Run preparation in one place (seed 003 §"运行入口", issue 21): every Run's effective
 * config — a user's `turn.start`, a `run.resume`, a sub-agent's start — is built here from
 * stored facts: the thread's agent binding, that profile as saved now, config.yaml and the
 * runtime's tools and skills. The request is trusted for no more than the overrides that
 * are allowed: the model, and a permission preset that can only lower the profile's; its
 * `tools` (a gateway key's) narrows further. The profile (id and content) is frozen into
 * the RunConfig, so a later edit never changes a Run already submitted.
 *
 * @module
 */
import {
  type ExecutionPolicy,
  type PermissionPreset,
  RPC_ERROR_CODES,
  RpcError,
  type RunBudget,
  type RunConfig,
} from "@daedalus/protocol";
import {
  type DaedalusConfig,
  defaultModelSetting,
  getThread,
  readConfig,
  readThreadSettings,
  type StateStore,
} from "@daedalus/storage";
import { DEFAULT_PERMISSION_PRESET, type ToolDefinition } from "@daedalus/tools";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { RunConfigFreezer } from "./run_config_freezer.ts";
import { frozenCompaction } from "./compaction_handlers.ts";
import { type AgentCatalog, agentCatalog, narrowerPreset } from "../agents/agent_catalog.ts";
import { intersectAllowed, selectTools } from "../agents/selection.ts";

/** What run preparation reads. */
export interface RunPreparationDeps {
  /** The state store (the thread's binding and settings). */
  store: StateStore;
  /** `<home>/config.yaml`. */
  configPath: string;
  /** Resolves the model. */
  registry: Pick<ProviderRegistry, "resolveModel">;
  /** The runtime's tools, in the order they are offered. */
  tools: ReadonlyMap<string, ToolDefinition<unknown>>;
  /** Freezes the parts. */
  freezer: RunConfigFreezer;
  /** The context window of a model, when the provider registry knows it. */
  contextWindow?: (providerId: string, modelId: string) => number | undefined;
}

/** The per-request overrides a caller may give (all optional). */
export interface RunRequest {
  /** The thread the Run belongs to. */
  threadId: string;
  /** The model (with `modelId`); absent: the profile's, else the default model. */
  providerId?: string;
  /** The model (with `providerId`); absent: the profile's, else the default model. */
  modelId?: string;
  /** undefined: the profile's, else the model's default; null: "auto". */
  reasoningEffort?: RunConfig["reasoningEffort"];
  /** The preset asked for; lowered to the profile's, never raised. */
  executionPolicy?: ExecutionPolicy;
  /** The Run's limits; absent: config.yaml's `budgets`. */
  budget?: RunBudget;
  /** The only tools the caller allows (intersected with the profile's). */
  tools?: readonly string[];
  /**
   * The only skills the caller allows (intersected with the profile's): a delegated Run's
   * ceiling, the skills of the Run that delegated it.
   */
  skills?: readonly string[];
  /** The caller's own tools. */
  clientTools?: RunConfig["clientTools"];
  /** A profile in place of the thread's binding (a sub-agent's). */
  agentId?: string;
}

/**
 * Prepares the RunConfig of a Run submitted now.
 *
 * @param deps the store, config, registry, tools and freezer
 * @param request the thread and the allowed overrides
 * @returns the frozen config
 * @throws {RpcError} `agent_not_found` when `agentId` names no profile (a thread bound to
 *   one that is gone runs the default), `model_selection_required` when neither
 *   the request nor the profile names a model and config.yaml has no default model, the
 *   registry's model errors (also for a default model no longer configured)
 */
export async function prepareRun(
  deps: RunPreparationDeps,
  request: RunRequest,
): Promise<RunConfig> {
  const config = await readConfig(deps.configPath).catch(() => null);
  const catalog = agentCatalog(config?.agents ?? {});
  if (request.agentId !== undefined && catalog.find(request.agentId) === undefined) {
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "agent_not_found",
      `There is no agent profile "${request.agentId}"`,
      { field: "agentId" },
    );
  }
  const agentId = request.agentId ?? boundAgentId(deps.store, request.threadId, catalog);
  const info = catalog.find(agentId) ?? catalog.find(catalog.defaultAgentId)!;
  const profile = structuredClone(info.profile);
  if ((request.providerId === undefined) !== (request.modelId === undefined)) {
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "invalid_params",
      "Name a model with both providerId and modelId, or neither (the agent profile's)",
      { field: request.providerId === undefined ? "providerId" : "modelId" },
    );
  }
  // The model, most specific first: the request's (the PWA's composer always sends its
  // pick: the thread's last-used model, else Settings' default model, else the first
  // enabled one; a thread stores no model of its own), the profile's, then config.yaml's
  // default model (issue 21: "a default model in Settings applies to profiles without
  // one"). A sub-agent's request carries its parent's model unless its profile names one.
  const chosen = request.providerId !== undefined && request.modelId !== undefined
    ? { providerId: request.providerId, modelId: request.modelId }
    : profile.model ?? defaultModelSetting(config?.agents);
  if (chosen === null) {
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "model_selection_required",
      `Choose a model: the agent profile ${profile.id} names none and no default model is ` +
        "set in Settings",
      { field: "modelId" },
    );
  }
  const { providerId, modelId } = chosen;
  const selection = deps.registry.resolveModel(providerId, modelId);
  const ownModel = profile.model?.providerId === providerId && profile.model.modelId === modelId;
  const reasoningEffort = request.reasoningEffort !== undefined
    ? request.reasoningEffort
    : ownModel
    ? profile.model?.reasoningEffort
    : undefined;
  const efforts = selection.model.reasoningEfforts;
  if (reasoningEffort && efforts.length > 0 && !efforts.includes(reasoningEffort)) {
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "invalid_params",
      `Reasoning effort ${reasoningEffort} is not one of ${efforts.join(", ")} for this model`,
      { field: request.reasoningEffort !== undefined ? "reasoningEffort" : "agent.model" },
    );
  }
  const toolList = [...deps.tools.values()].map((tool) => ({
    name: tool.id,
    ...(tool.mcp ? { mcpServer: tool.mcp.server } : {}),
  }));
  const everything = profile.tools === undefined && profile.mcpServers === undefined;
  const allowedTools = intersectAllowed(
    everything ? undefined : selectTools(profile, toolList),
    request.tools?.filter((name) => deps.tools.has(name)),
  );
  const skills = intersectAllowed(profile.skills, request.skills);
  return await deps.freezer.freeze({
    providerId,
    modelId,
    model: selection.model,
    contextWindow: deps.contextWindow?.(providerId, modelId),
    executionPolicy: runPreset(config, catalog, profile.permission, request.executionPolicy),
    reasoningEffort,
    budget: request.budget ?? configBudget(config),
    compaction: await frozenCompaction(deps.store, deps.configPath, request.threadId),
    ...(allowedTools ? { allowedTools } : {}),
    ...(request.clientTools?.length ? { clientTools: request.clientTools } : {}),
    ...(skills ? { skills } : {}),
    agent: { source: info.saved ? "config" : "builtin", profile },
  }, deps.tools);
}

/**
 * The profile a thread is bound to, if it still exists; else the default (a thread made
 * before profiles, or bound to one removed by hand from config.yaml).
 *
 * @param store the state store
 * @param threadId the thread
 * @param catalog the profiles
 * @returns the id
 * @throws {StoreError} `thread_not_found`
 */
export function boundAgentId(store: StateStore, threadId: string, catalog: AgentCatalog): string {
  const bound = store.read((db) => {
    getThread(db, threadId);
    return readThreadSettings(db, threadId).agentId;
  });
  return bound !== undefined && catalog.find(bound) ? bound : catalog.defaultAgentId;
}

/**
 * A Run's preset: the request's, else config.yaml's default, lowered to the profile's and
 * to `agents.max_permission`. A config.yaml that cannot be read gives `ask` by default.
 */
function runPreset(
  config: DaedalusConfig | null,
  catalog: AgentCatalog,
  profilePreset: PermissionPreset,
  asked: ExecutionPolicy | undefined,
): ExecutionPolicy {
  const fallback = config?.permissions?.preset ?? DEFAULT_PERMISSION_PRESET;
  return narrowerPreset(asked ?? fallback, narrowerPreset(profilePreset, catalog.maxPermission));
}

/** config.yaml's `budgets` as a Run's budget; absent (or an unreadable file): none. */
function configBudget(config: DaedalusConfig | null): RunBudget | undefined {
  const budgets = config?.budgets;
  if (budgets === undefined) return undefined;
  return {
    ...(budgets.tokens !== undefined ? { tokens: budgets.tokens } : {}),
    ...(budgets.cost_usd !== undefined ? { costUsd: budgets.cost_usd } : {}),
    ...(budgets.model_calls !== undefined ? { modelCalls: budgets.model_calls } : {}),
    ...(budgets.wall_time_seconds !== undefined
      ? { wallTimeSeconds: budgets.wall_time_seconds }
      : {}),
  };
}

/**
 * A delegated Run — a sub-agent's, or the one a cross-thread message (`thread_send`)
 * starts — prepared from a profile, never wider than the Run that delegated it. A
 * sub-agent runs the profile it was started with (seed 003: its own profile, on the
 * parent's workspace); a message runs the target thread's own binding, as a turn the user
 * typed there would. The model is the profile's, else the caller's; the caller's preset,
 * tools, skills and budget are the ceiling: a delegated Run never gets what its caller
 * may not use.
 *
 * @param deps as {@linkcode prepareRun}
 * @param request the thread, the profile (absent: the thread's binding) and the caller's
 *   frozen config
 * @returns the delegated Run's config (lineage fields are the caller's to add)
 * @throws {RpcError} as {@linkcode prepareRun}
 */
export async function prepareDelegatedRun(
  deps: RunPreparationDeps,
  request: { threadId: string; agentId?: string; parent: Readonly<RunConfig> },
): Promise<RunConfig> {
  const { parent } = request;
  const config = await readConfig(deps.configPath).catch(() => null);
  const catalog = agentCatalog(config?.agents ?? {});
  const agentId = request.agentId ?? boundAgentId(deps.store, request.threadId, catalog);
  const ownModel = catalog.find(agentId)?.profile.model;
  return await prepareRun(deps, {
    threadId: request.threadId,
    agentId,
    ...(ownModel ? {} : {
      providerId: parent.providerId,
      modelId: parent.modelId,
      reasoningEffort: parent.reasoningEffort,
    }),
    executionPolicy: parent.executionPolicy,
    budget: parent.budget ?? {},
    ...(parent.allowedTools ? { tools: parent.allowedTools } : {}),
    skills: parent.skills.map((skill) => skill.name),
  });
}
