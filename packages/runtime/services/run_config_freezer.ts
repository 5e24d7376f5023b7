/**
 * Freezes a Run's config at `turn.start`: the settings of the request and the model,
 * and the three large, immutable parts (tool schemas, identity, skills catalog) with
 * their content hashes. The parts change rarely, so each is kept with its hash between
 * turns and hashed again only when it changed: a warm turn hashes nothing.
 *
 * @module
 */
import type {
  RunBudget,
  RunConfig,
  RunIdentity,
  RunSkill,
  RunToolSchema,
} from "@daedalus/protocol";
import { contentHash, readConfig } from "@daedalus/storage";
import type { ResolvedModel } from "../providers/registry.ts";
import { freezeSkillDescriptors } from "../skills/catalog.ts";
import { SkillCatalogCache } from "../skills/catalog_cache.ts";
import type { ToolDefinition } from "@daedalus/tools";
import { modelTool } from "../tools/model_schema.ts";
import { bundledIdentity } from "../context/identity.ts";

/** A part's content and its hash. */
interface HashedPart<T> {
  readonly content: T;
  readonly hash: string;
}

/** What a Run's settings are frozen from. */
export interface FreezeInput {
  /** The provider of the Run. */
  providerId: string;
  /** The model of the Run. */
  modelId: string;
  /** The model as the registry resolved it. */
  model: ResolvedModel;
  /** The context window when the registry knows a better one than the model's. */
  contextWindow?: number;
  /** The permission mode asked for; `ask` when absent. */
  executionPolicy?: RunConfig["executionPolicy"];
  /** The Run's limits (the turn's, else config.yaml's `budgets`); absent: none. */
  budget?: RunBudget;
  /** undefined → the model's default; null → "auto" (send none). */
  reasoningEffort?: RunConfig["reasoningEffort"];
  /** When the Run compacts (config.yaml's, the thread's own over it); absent: not recorded. */
  compaction?: RunConfig["compaction"];
  /** The only tools the Run may call (ids, all known to the runtime); absent: all. */
  allowedTools?: readonly string[];
  /** Tools the caller runs itself (checked: no name of the runtime's); absent: none. */
  clientTools?: RunConfig["clientTools"];
  /** The agent profile's skills (seed 003: absent = every enabled skill, `[]` = none). */
  skills?: readonly string[];
  /** The agent profile the Run is prepared from (frozen with it). */
  agent?: RunConfig["agent"];
}

/** Freezes RunConfigs, keeping the parts and their hashes between turns. */
export class RunConfigFreezer {
  readonly #skillCatalog: SkillCatalogCache;
  readonly #configPath: string;
  #toolSource: readonly ToolDefinition<unknown>[] = [];
  #tools: HashedPart<readonly RunToolSchema[]> | undefined;
  #identity: HashedPart<RunIdentity> | undefined;
  #skills: HashedPart<readonly RunSkill[]> & { json: string } | undefined;
  readonly #noTools = hashed<readonly RunToolSchema[]>(Object.freeze([]));

  /**
   * @param skillsRoot `<home>/skills`, rescanned only when it changed
   * @param configPath `<home>/config.yaml` (its `skills.disabled`)
   */
  constructor(skillsRoot: string, configPath: string) {
    this.#skillCatalog = new SkillCatalogCache(skillsRoot);
    this.#configPath = configPath;
  }

  /**
   * The RunConfig of a Run submitted now.
   *
   * @param input the request's and the model's settings
   * @param tools the runtime's tools, in the order they are offered
   * @returns the resolved config, with `parts` naming each part's hash
   */
  async freeze(
    input: FreezeInput,
    tools: ReadonlyMap<string, ToolDefinition<unknown>>,
  ): Promise<RunConfig> {
    const toolSet = !input.model.supportsTools
      ? this.#noTools
      : input.allowedTools === undefined
      ? this.#toolSchemas(tools)
      : subsetSchemas(tools, input.allowedTools);
    const identity = this.#identity ??= frozenIdentity();
    const skills = selectedSkills(await this.#enabledSkills(), input.skills);
    return {
      providerId: input.providerId,
      modelId: input.modelId,
      contextWindow: input.contextWindow ?? input.model.contextWindow,
      supportsTools: input.model.supportsTools,
      executionPolicy: input.executionPolicy ?? "ask",
      ...(input.budget && Object.keys(input.budget).length > 0 ? { budget: input.budget } : {}),
      ...(input.model.price ? { price: input.model.price } : {}),
      ...(input.compaction ? { compaction: input.compaction } : {}),
      ...(input.allowedTools ? { allowedTools: [...input.allowedTools] } : {}),
      ...(input.clientTools?.length ? { clientTools: input.clientTools } : {}),
      ...(input.agent ? { agent: input.agent } : {}),
      reasoningEffort: input.reasoningEffort === undefined
        ? input.model.reasoningEffort
        : input.reasoningEffort,
      parts: { toolSchemas: toolSet.hash, identity: identity.hash, skills: skills.hash },
      tools: toolSet.content as RunToolSchema[],
      identity: identity.content,
      skills: skills.content as RunSkill[],
    };
  }

  /** Recomputed only when the tools differ (by identity, in order) from the last call. */
  #toolSchemas(
    toolMap: ReadonlyMap<string, ToolDefinition<unknown>>,
  ): HashedPart<readonly RunToolSchema[]> {
    const source = [...toolMap.values()];
    const same = this.#tools !== undefined && source.length === this.#toolSource.length &&
      source.every((tool, index) => tool === this.#toolSource[index]);
    if (same) return this.#tools!;
    this.#toolSource = source;
    return this.#tools = hashed(Object.freeze(source.map(frozenSchema)));
  }

  /**
   * The enabled skills at submission; a broken config.yaml disables none (and is logged).
   * The few hundred bytes of descriptors are compared as text, and hashed only when
   * they changed.
   */
  async #enabledSkills(): Promise<HashedPart<readonly RunSkill[]>> {
    const config = await readConfig(this.#configPath).catch((error) => {
      console.error(`config.yaml: ${(error as Error).message}`);
      return null;
    });
    const catalog = await this.#skillCatalog.catalog(config?.skills.disabled ?? []);
    const descriptors = freezeSkillDescriptors(catalog.skills) as readonly RunSkill[];
    const json = JSON.stringify(descriptors);
    if (this.#skills?.json !== json) {
      this.#skills = { content: descriptors, hash: contentHash(json), json };
    }
    return this.#skills;
  }
}

/**
 * The schemas of a Run limited to some tools, in the runtime's order (hashed each time:
 * such Runs are a gateway key's, and their set is small).
 */
function subsetSchemas(
  tools: ReadonlyMap<string, ToolDefinition<unknown>>,
  allowed: readonly string[],
): HashedPart<readonly RunToolSchema[]> {
  const names = new Set(allowed);
  return hashed(Object.freeze(
    [...tools].filter(([name]) => names.has(name)).map(([, tool]) => frozenSchema(tool)),
  ));
}

/**
 * The enabled skills a profile selects (absent: all, kept with their cached hash; a list:
 * those of them, hashed again).
 */
function selectedSkills(
  enabled: HashedPart<readonly RunSkill[]>,
  selection: readonly string[] | undefined,
): HashedPart<readonly RunSkill[]> {
  if (selection === undefined) return enabled;
  const names = new Set(selection);
  return hashed(Object.freeze(enabled.content.filter((skill) => names.has(skill.name))));
}

/** One tool as the model is offered it. */
function frozenSchema(tool: ToolDefinition<unknown>): RunToolSchema {
  const { name, description, parameters, mutating } = modelTool(tool);
  return Object.freeze({ name, description, parameters, mutating });
}

/** The bundled identity with the hash of its text (the StepInput audit records it). */
function frozenIdentity(): HashedPart<RunIdentity> {
  const identity = bundledIdentity();
  return hashed(Object.freeze({ ...identity, hash: contentHash(identity.text) }));
}

/** A part with the hash of its JSON text: what the store verifies and stores it under. */
function hashed<T>(content: T): HashedPart<T> {
  return { content, hash: contentHash(JSON.stringify(content)) };
}
