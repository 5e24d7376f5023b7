/**
 * The `settings.*` RPC methods: the switches of the runtime's own model calls after a
 * user's Run (automatic thread titles, memory refinement), kept in config.yaml's
 * `auxiliary` section. A missing key means on. Nothing is cached here: config.yaml is
 * read through the storage package's stat-checked cache, so a change (over RPC or by
 * hand) applies to the next auxiliary call without a restart. The environment
 * (`DAEDALUS_THREAD_TITLES=0`, `DAEDALUS_MEMORY_REFINEMENT=0`) forces a call off whatever
 * the file says; `settings.read` reports that, so a client can show why.
 *
 * The default model (`agents.default_model`, issue 21) is served here too: the model of
 * Runs whose request and agent profile name none (run_preparation.ts). A model the
 * provider registry cannot resolve is refused like `agent.save` refuses a profile's.
 *
 * @example
 * ```ts
 * const handlers = createSettingsHandlers({ configPath: paths.config });
 * await handlers["settings.update"]({ threadTitles: false });
 * (await readAuxiliarySettings(paths.config)).threadTitles; // false
 * ```
 *
 * @module
 */
import {
  type ModelRef,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type Settings,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  compactionSetting,
  ConfigError,
  type DaedalusConfig,
  defaultModelSetting,
  readConfig,
  updateConfig,
  withDefaultModel,
} from "@daedalus/storage";
import type { Handled } from "./services.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import type { ProviderRegistry } from "../providers/registry.ts";

/** Which auxiliary calls the environment switches off whatever config.yaml says. */
export interface AuxiliaryForcedOff {
  /** `DAEDALUS_THREAD_TITLES=0`. */
  threadTitles: boolean;
  /** `DAEDALUS_MEMORY_REFINEMENT=0`. */
  memoryRefinement: boolean;
}

/** Nothing forced off. */
export const NOTHING_FORCED_OFF: AuxiliaryForcedOff = Object.freeze({
  threadTitles: false,
  memoryRefinement: false,
});

/** What the settings handlers need. */
export interface SettingsHandlerOptions {
  /** The config file, from `homePaths(home).config`. */
  configPath: string;
  /** What the environment forces off. Default: nothing. */
  forcedOff?: AuxiliaryForcedOff;
  /** Cleans config error messages (config.yaml holds API keys). */
  protectedValues?: Pick<ProtectedValues, "redact">;
  /** Checks a default model; without it every default model is refused. */
  registry?: Pick<ProviderRegistry, "resolveModel">;
}

/** The methods served here. */
export type SettingsMethod = "settings.read" | "settings.update";

/** One handler per `settings.*` method. */
export type SettingsHandlers = {
  [M in SettingsMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Builds the `settings.*` handlers.
 *
 * @param options the config file, what the environment forces off, the protected values
 * @returns a handler per method; a config.yaml that cannot be read or written is refused
 *   as {@linkcode RpcError} -32602 `config_invalid`
 */
export function createSettingsHandlers(options: SettingsHandlerOptions): SettingsHandlers {
  const { configPath, protectedValues } = options;
  const forcedOff = options.forcedOff ?? NOTHING_FORCED_OFF;
  const guard = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error) => {
      if (!(error instanceof ConfigError)) throw error;
      const message = protectedValues
        ? protectedValues.redact(error.message)
        : `Config file ${configPath} cannot be used (${error.code}); fix it by hand`;
      throw new RpcError(RPC_ERROR_CODES.invalidParams, "config_invalid", message, {}, {
        cause: error,
      });
    });
  return {
    "settings.read": async () => ({
      result: { settings: settingsOf(await guard(readConfig(configPath)), forcedOff) },
    }),
    "settings.update": async (changes) => {
      if (changes.defaultModel) checkDefaultModel(changes.defaultModel, options.registry);
      const current = settingsOf(await guard(readConfig(configPath)), forcedOff);
      const unchanged = (changes.threadTitles ?? current.threadTitles) === current.threadTitles &&
        (changes.memoryRefinement ?? current.memoryRefinement) === current.memoryRefinement &&
        (changes.compaction?.threshold ?? current.compaction.threshold) ===
          current.compaction.threshold &&
        (changes.compaction?.enabled ?? current.compaction.enabled) ===
          current.compaction.enabled &&
        (changes.defaultModel === undefined ||
          sameModel(changes.defaultModel, current.defaultModel));
      // Rewriting an unchanged config would only drop the user's comments and layout.
      if (unchanged) return { result: { settings: current } };
      const written = await guard(
        updateConfig(configPath, (config) => withChanges(config, changes)),
      );
      return { result: { settings: settingsOf(written, forcedOff) } };
    },
  };
}

/**
 * Which auxiliary calls should run now: config.yaml's switches, unless the environment
 * forces them off.
 *
 * @param configPath the config file
 * @param forcedOff what the environment forces off
 * @returns true for each call that may run
 * @throws {ConfigError} when config.yaml cannot be read
 */
export async function readAuxiliarySettings(
  configPath: string,
  forcedOff: AuxiliaryForcedOff = NOTHING_FORCED_OFF,
): Promise<{ threadTitles: boolean; memoryRefinement: boolean }> {
  const settings = settingsOf(await readConfig(configPath), forcedOff);
  return {
    threadTitles: settings.threadTitles && !forcedOff.threadTitles,
    memoryRefinement: settings.memoryRefinement && !forcedOff.memoryRefinement,
  };
}

function settingsOf(config: DaedalusConfig, forcedOff: AuxiliaryForcedOff): Settings {
  return {
    threadTitles: config.auxiliary?.thread_titles ?? true,
    memoryRefinement: config.auxiliary?.memory_refinement ?? true,
    forcedOff: { ...forcedOff },
    compaction: compactionSetting(config.compaction),
    defaultModel: defaultModelSetting(config.agents),
  };
}

/**
 * Refuses a default model the registry cannot resolve (not configured, or disabled), with
 * the code `agent.save` gives a profile's model and the registry's own words.
 */
function checkDefaultModel(
  model: ModelRef,
  registry: Pick<ProviderRegistry, "resolveModel"> | undefined,
): void {
  const problem = modelProblem(model, registry);
  if (problem === null) return;
  throw new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "model_not_found",
    `The default model ${model.providerId}/${model.modelId} cannot be used: ${problem}`,
    { field: "defaultModel" },
  );
}

/** Why the registry cannot resolve a model, or null when it can. */
function modelProblem(
  model: ModelRef,
  registry: Pick<ProviderRegistry, "resolveModel"> | undefined,
): string | null {
  if (!registry) return "no provider registry is available to check it";
  try {
    registry.resolveModel(model.providerId, model.modelId);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function sameModel(a: ModelRef | null, b: ModelRef | null): boolean {
  return a?.providerId === b?.providerId && a?.modelId === b?.modelId;
}

function withChanges(
  config: DaedalusConfig,
  changes: ValidParamsOf<"settings.update">,
): DaedalusConfig {
  const auxiliary = { ...config.auxiliary };
  if (changes.threadTitles !== undefined) auxiliary.thread_titles = changes.threadTitles;
  if (changes.memoryRefinement !== undefined) {
    auxiliary.memory_refinement = changes.memoryRefinement;
  }
  const compaction = { ...config.compaction };
  if (changes.compaction?.threshold !== undefined) {
    compaction.threshold = changes.compaction.threshold;
  }
  if (changes.compaction?.enabled !== undefined) compaction.enabled = changes.compaction.enabled;
  const touched = changes.compaction !== undefined && Object.keys(compaction).length > 0;
  const auxiliaryKept = config.auxiliary !== undefined || Object.keys(auxiliary).length > 0;
  const changed: DaedalusConfig = {
    ...config,
    ...(auxiliaryKept ? { auxiliary } : {}),
    ...(touched ? { compaction } : {}),
  };
  return changes.defaultModel === undefined
    ? changed
    : withDefaultModel(changed, changes.defaultModel);
}
