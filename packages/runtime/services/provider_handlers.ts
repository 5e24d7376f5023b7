/**
 * The `provider.*` and `model.*` RPC methods over config.yaml. Every call starts from the
 * file on disk (hand edits are picked up, a broken file is reported as `config_invalid` and
 * never overwritten), writes through `updateConfig` (atomic, 0600), then brings the
 * {@linkcode ProviderRegistry} and the {@linkcode ProtectedValues} up to date.
 *
 * Credentials go into config.yaml and nowhere else: results only say
 * `credentialConfigured`, shown strings are redacted, and a key given to
 * `provider.discover_models` is used once, not saved, and protected from then on.
 *
 * @example
 * ```ts
 * const handlers = createProviderHandlers({ configPath: paths.config, registry, protectedValues });
 * const { result } = await handlers["provider.configure"]({ kind: "deepseek", apiKey });
 * result.provider.credentialConfigured; // true
 * ```
 *
 * @module
 */
import {
  type ErrorReasonCode,
  type ModelInput,
  type ReasoningEffort,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  ConfigError,
  type DaedalusConfig,
  fallbackIssues,
  type ModelConfig,
  type ProviderConfig,
  ProviderConfigSchema,
  readConfig,
  updateConfig,
} from "@daedalus/storage";
import type { Handled } from "./services.ts";
import { ProviderError } from "../providers/provider.ts";
import { discoverModels } from "../providers/openai/discovery.ts";
import {
  clampContextWindow,
  deepseekProfileModels,
  effectiveModels,
  isBuiltin,
  type ModelSummary,
  type ProviderRegistry,
  type ProviderSummary,
} from "../providers/registry.ts";
import {
  builtinModelProfile,
  contextWindowFor,
  DEEPSEEK_BASE_URL,
  DEEPSEEK_PROVIDER_ID,
  displayNameFor,
} from "../providers/model_defaults.ts";
import type { ProtectedValues } from "../security/protected_values.ts";

/** Lists a provider's models; `discoverModels` of the OpenAI-compatible adapter. */
export type DiscoverModels = typeof discoverModels;

/** What the provider handlers need. */
export interface ProviderHandlerOptions {
  /** The config file, from `homePaths(home).config`. */
  configPath: string;
  /** The registry to update after each change. */
  registry: ProviderRegistry;
  /** The credentials to keep out of results and errors. */
  protectedValues: ProtectedValues;
  /** Model discovery; default {@linkcode discoverModels}. Tests inject fakes. */
  discover?: DiscoverModels;
}

/** The methods served here. */
export type ProviderMethod =
  | "provider.list"
  | "provider.configure"
  | "provider.discover_models"
  | "provider.disconnect"
  | "provider.remove"
  | "model.list"
  | "model.set_enabled"
  | "model.set_limits"
  | "model.set_fallback";

/** One handler per `provider.*` and `model.*` method. */
export type ProviderHandlers = {
  [M in ProviderMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

type ConfigureParams = ValidParamsOf<"provider.configure">;
type DiscoverParams = ValidParamsOf<"provider.discover_models">;

/**
 * Builds the `provider.*` and `model.*` handlers.
 *
 * @param options the config path, registry, protected values and discovery function
 * @returns a handler per method; refusals are thrown as {@linkcode RpcError}: -32602
 *   `config_invalid`, `provider_builtin`, `provider_not_found`, `model_not_found`,
 *   `model_fallback_invalid` (a fallback that names no configured, enabled other model, or
 *   a change that would break one), `protected_value`, `invalid_params`, and -32010
 *   `provider_<category>` for discovery
 */
export function createProviderHandlers(options: ProviderHandlerOptions): ProviderHandlers {
  const { configPath, registry, protectedValues } = options;
  const discover = options.discover ?? discoverModels;

  const sync = (config: DaedalusConfig): DaedalusConfig => {
    protectedValues.update(config);
    registry.update(config);
    return config;
  };
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
  const load = () => guard(readConfig(configPath)).then(sync);
  // Every write checks the fallbacks first, so a broken one is refused with its own code
  // (naming the model and its fallback) before config.yaml's schema would refuse it.
  const save = (update: (config: DaedalusConfig) => DaedalusConfig) =>
    guard(updateConfig(configPath, (config) => checkFallbacks(update(config)))).then(sync);

  const shownProvider = (providerId: string): ProviderSummary => {
    const summary = registry.providerSummary(providerId);
    if (!summary) throw providerNotFound(providerId);
    const baseUrl = summary.baseUrl;
    return {
      ...summary,
      displayName: protectedValues.redact(summary.displayName),
      baseUrl: typeof baseUrl === "string" ? protectedValues.redact(baseUrl) : baseUrl,
    };
  };
  const shownModel = (providerId: string, modelId: string): ModelSummary => {
    const model = registry.model(providerId, modelId);
    if (!model) throw modelNotFound(providerId, modelId);
    return { ...model, displayName: protectedValues.redact(model.displayName) };
  };
  const updateModel = async (
    providerId: string,
    modelId: string,
    change: (model: ModelConfig) => ModelConfig,
    before?: (config: DaedalusConfig) => void,
  ) => {
    await save((config) => {
      before?.(config);
      const entry = lookup(config.providers, providerId);
      if (!entry) throw providerNotFound(providerId);
      const models = { ...effectiveModels(providerId, entry) };
      const model = lookup(models, modelId);
      if (!model) throw modelNotFound(providerId, modelId);
      models[modelId] = compact(change(model));
      config.providers[providerId] = { ...entry, models };
      return config;
    });
    return { result: { model: shownModel(providerId, modelId) } };
  };

  return {
    "provider.list": async () => {
      await load();
      return { result: { providers: registry.providers().map((p) => shownProvider(p.id)) } };
    },
    "provider.configure": async (params) => {
      const providerId = params.kind === "deepseek" ? DEEPSEEK_PROVIDER_ID : params.providerId;
      if (params.kind === "custom" && isBuiltin(providerId)) {
        throw refusal(
          "provider_builtin",
          "providerId",
          `${providerId} is the built-in provider; configure it with kind "deepseek"`,
        );
      }
      protectCredentials(protectedValues, params);
      const { apiKey: _key, ...shown } = params;
      const headerNames = Object.keys("headers" in shown ? shown.headers ?? {} : {});
      protectedValues.assertSafe({ ...shown, headers: undefined, headerNames }, "");
      await save((config) => {
        const existing = lookup(config.providers, providerId);
        const entry = params.kind === "deepseek"
          ? deepseekEntry(params, existing)
          : customEntry(params, existing);
        checkEntry(entry, params.models ?? [], protectedValues);
        config.providers[providerId] = entry;
        return config;
      });
      return { result: { provider: shownProvider(providerId) } };
    },
    "provider.discover_models": async (params) => {
      const config = await load();
      protectCredentials(protectedValues, params);
      const target = discoveryTarget(params, config);
      let found: Awaited<ReturnType<DiscoverModels>>;
      try {
        found = await discover(target);
      } catch (error) {
        throw providerFailure(error, protectedValues);
      }
      const providerId = params.kind === "deepseek" ? DEEPSEEK_PROVIDER_ID : "";
      const models = found
        .filter((model) => isShowableId(model.id) && !protectedValues.find(model.id))
        .map((model) => shownDiscovery(providerId, model, protectedValues));
      return { result: { models } };
    },
    "provider.disconnect": async ({ providerId }) => {
      const config = await load();
      if (!isBuiltin(providerId)) {
        if (!lookup(config.providers, providerId)) throw providerNotFound(providerId);
        throw refusal(
          "invalid_params",
          "providerId",
          `Provider ${providerId} is a custom provider; remove it with provider.remove`,
        );
      }
      if (lookup(config.providers, providerId)) {
        await save((current) => {
          delete current.providers[providerId];
          return current;
        });
      }
      return { result: { provider: shownProvider(providerId) } };
    },
    "provider.remove": async ({ providerId }) => {
      if (isBuiltin(providerId)) {
        throw refusal(
          "provider_builtin",
          "providerId",
          `${providerId} is the built-in provider; disconnect it instead of removing it`,
        );
      }
      await save((config) => {
        if (!lookup(config.providers, providerId)) throw providerNotFound(providerId);
        delete config.providers[providerId];
        return config;
      });
      return { result: { removed: true, providerId } };
    },
    "model.list": async ({ providerId }) => {
      const config = await load();
      if (providerId !== undefined && !isBuiltin(providerId)) {
        if (!lookup(config.providers, providerId)) throw providerNotFound(providerId);
      }
      const models = registry.models(providerId).map((model) => ({
        ...model,
        displayName: protectedValues.redact(model.displayName),
      }));
      return { result: { models } };
    },
    "model.set_enabled": ({ providerId, modelId, enabled }) =>
      updateModel(providerId, modelId, (model) => ({ ...model, enabled })),
    "model.set_limits": (params) =>
      updateModel(params.providerId, params.modelId, (model) => withLimits(model, params)),
    "model.set_fallback": ({ providerId, modelId, fallback }) =>
      updateModel(providerId, modelId, (model) => withFallback(model, fallback), (config) => {
        // The built-in profile's models are listed in config.yaml once one is a fallback.
        const target = fallback && lookup(config.providers, fallback.providerId);
        if (fallback && target && Object.keys(target.models).length === 0) {
          target.models = { ...effectiveModels(fallback.providerId, target) };
        }
      }),
  };
}

/** A model entry with its fallback set (a `{providerId, modelId}`) or removed (null). */
function withFallback(
  model: ModelConfig,
  fallback: { providerId: string; modelId: string } | null | undefined,
): ModelConfig {
  if (fallback === undefined) return model;
  const { fallback: _old, ...rest } = model;
  return fallback === null
    ? rest
    : { ...rest, fallback: { provider_id: fallback.providerId, model_id: fallback.modelId } };
}

/** The config unchanged, or `model_fallback_invalid` for its first broken fallback. */
function checkFallbacks(config: DaedalusConfig): DaedalusConfig {
  const issue = fallbackIssues(config)[0];
  if (issue === undefined) return config;
  throw new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "model_fallback_invalid",
    `Model ${issue.providerId}/${issue.modelId}: ${issue.message}`,
    { field: "fallback", providerId: issue.providerId, modelId: issue.modelId },
  );
}

/** A discovered model with the profile's name and window, or the defaults. */
function shownDiscovery(
  providerId: string,
  model: Awaited<ReturnType<DiscoverModels>>[number],
  protectedValues: ProtectedValues,
) {
  const name = builtinModelProfile(providerId, model.id)?.displayName ?? model.displayName;
  return {
    id: model.id,
    displayName: protectedValues.redact(name || model.id),
    contextWindow: clampContextWindow(
      model.contextWindow ?? contextWindowFor(providerId, model.id),
    ),
  };
}

function deepseekEntry(
  params: Extract<ConfigureParams, { kind: "deepseek" }>,
  existing: ProviderConfig | undefined,
): ProviderConfig {
  const given = params.models ?? [];
  const kept = existing && Object.keys(existing.models).length > 0 ? existing.models : undefined;
  return compact({
    type: "openai_compatible",
    preset: "deepseek",
    base_url: existing?.base_url ?? DEEPSEEK_BASE_URL,
    api_key: params.apiKey ?? existing?.api_key,
    headers: existing?.headers,
    models: given.length > 0
      ? modelEntries(DEEPSEEK_PROVIDER_ID, given, existing?.models ?? {})
      : kept ?? deepseekProfileModels(),
  });
}

function customEntry(
  params: Extract<ConfigureParams, { kind: "custom" }>,
  existing: ProviderConfig | undefined,
): ProviderConfig {
  // Saved credentials follow the provider only while it stays on the same origin: a key
  // must not be sent to a host it was not given for.
  const keep = existing !== undefined && sameOrigin(existing.base_url, params.baseUrl);
  const headers = params.headers ?? (keep ? existing?.headers : undefined);
  return compact({
    type: "openai_compatible",
    display_name: params.displayName,
    base_url: params.baseUrl,
    api_key: params.apiKey ?? (keep ? existing?.api_key : undefined),
    headers: headers && Object.keys(headers).length > 0 ? { ...headers } : undefined,
    models: modelEntries(params.providerId, params.models, existing?.models ?? {}),
  });
}

/** Model entries from the user's list; fields left out keep their saved values. */
function modelEntries(
  providerId: string,
  inputs: readonly ModelInput[],
  saved: Record<string, ModelConfig>,
): Record<string, ModelConfig> {
  const seen = new Set<string>();
  return Object.fromEntries(inputs.map((input, index) => {
    if (seen.has(input.id)) {
      throw invalidParams(`models.${index}.id`, `Model ${input.id} is listed twice`);
    }
    seen.add(input.id);
    const existing = lookup(saved, input.id);
    const efforts = input.reasoningEfforts ?? existing?.reasoning_efforts ?? [];
    checkEfforts(efforts, input.reasoningEffort ?? null, `models.${index}.`);
    const effort = input.reasoningEffort === undefined
      ? existing?.reasoning_effort
      : input.reasoningEffort ?? undefined;
    return [
      input.id,
      compact({
        display_name: input.displayName ?? existing?.display_name ??
          displayNameFor(providerId, input.id),
        enabled: input.enabled ?? existing?.enabled ?? true,
        supports_tools: input.supportsTools ?? existing?.supports_tools ?? true,
        context_window: input.contextWindow ?? existing?.context_window ??
          contextWindowFor(providerId, input.id),
        reasoning_efforts: efforts.length > 0 ? [...efforts] : undefined,
        reasoning_effort: effort !== undefined && efforts.includes(effort) ? effort : undefined,
        fallback: withFallback(existing ?? { enabled: true, supports_tools: true }, input.fallback)
          .fallback,
      }),
    ];
  }));
}

function withLimits(
  model: ModelConfig,
  params: ValidParamsOf<"model.set_limits">,
): ModelConfig {
  const efforts = params.reasoningEfforts ?? model.reasoning_efforts ?? [];
  checkEfforts(efforts, params.reasoningEffort ?? null, "");
  const effort = params.reasoningEffort === undefined
    ? model.reasoning_effort
    : params.reasoningEffort ?? undefined;
  return {
    ...model,
    context_window: params.contextWindow ?? model.context_window,
    reasoning_efforts: efforts.length > 0 ? [...efforts] : undefined,
    // A default the model no longer offers falls back to "auto".
    reasoning_effort: effort !== undefined && efforts.includes(effort) ? effort : undefined,
  };
}

function checkEfforts(
  efforts: readonly ReasoningEffort[],
  effort: ReasoningEffort | null,
  prefix: string,
): void {
  const repeated = efforts.findIndex((level, index) => efforts.indexOf(level) !== index);
  if (repeated >= 0) {
    throw invalidParams(
      `${prefix}reasoningEfforts`,
      `Reasoning effort ${efforts[repeated]} is listed twice`,
    );
  }
  if (effort !== null && !efforts.includes(effort)) {
    throw invalidParams(
      `${prefix}reasoningEffort`,
      `Reasoning effort ${effort} must be one of reasoningEfforts`,
    );
  }
}

/** Validates a new entry as config.yaml will, naming the params field at fault. */
function checkEntry(
  entry: ProviderConfig,
  inputs: readonly ModelInput[],
  protectedValues: ProtectedValues,
): void {
  const parsed = ProviderConfigSchema.safeParse(entry);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const [head, key, ...rest] = issue.path.map(String);
  const modelIndex = inputs.findIndex((input) => input.id === key);
  const field = head === "models"
    ? ["models", modelIndex, ...rest].map(camelCase).join(".")
    : [head, ...(head === "headers" && key !== undefined ? [key] : [])].map(camelCase).join(".");
  throw invalidParams(field, protectedValues.redact(`Invalid ${field}: ${issue.message}`));
}

function discoveryTarget(params: DiscoverParams, config: DaedalusConfig) {
  if (params.kind === "deepseek") {
    const saved = lookup(config.providers, DEEPSEEK_PROVIDER_ID);
    return compact({
      baseUrl: saved?.base_url ?? DEEPSEEK_BASE_URL,
      apiKey: params.apiKey ?? saved?.api_key,
      headers: saved?.headers,
    });
  }
  const saved = params.providerId === undefined
    ? undefined
    : lookup(config.providers, params.providerId);
  const keep = saved !== undefined && sameOrigin(saved.base_url, params.baseUrl);
  return compact({
    baseUrl: params.baseUrl,
    apiKey: params.apiKey ?? (keep ? saved?.api_key : undefined),
    headers: params.headers ?? (keep ? saved?.headers : undefined),
  });
}

function protectCredentials(
  protectedValues: ProtectedValues,
  params: { apiKey?: string; headers?: Record<string, string> },
): void {
  if (params.apiKey !== undefined) protectedValues.register(params.apiKey);
  for (const value of Object.values(params.headers ?? {})) protectedValues.register(value);
}

function providerFailure(error: unknown, protectedValues: ProtectedValues): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof ProviderError) {
    return new RpcError(
      RPC_ERROR_CODES.providerFailure,
      `provider_${error.category}`,
      protectedValues.redact(error.message),
      error.retryAfterSec === undefined ? {} : { retryAfterSec: error.retryAfterSec },
      { cause: error },
    );
  }
  return new RpcError(
    RPC_ERROR_CODES.providerFailure,
    "provider_unknown",
    "Model discovery failed unexpectedly",
    {},
    { cause: error },
  );
}

function isShowableId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= 200;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function camelCase(segment: string | number): string {
  return String(segment).replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** A copy without undefined members, so nothing empty is written to config.yaml. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, member]) => member !== undefined),
  ) as T;
}

function lookup<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function refusal(reasonCode: ErrorReasonCode, field: string, message: string): RpcError {
  return new RpcError(RPC_ERROR_CODES.invalidParams, reasonCode, message, { field });
}

function invalidParams(field: string, message: string): RpcError {
  return refusal("invalid_params", field, message);
}

function providerNotFound(providerId: string): RpcError {
  return refusal("provider_not_found", "providerId", `Provider ${providerId} is not configured`);
}

function modelNotFound(providerId: string, modelId: string): RpcError {
  const message = `Model ${modelId} is not configured for provider ${providerId}`;
  return refusal("model_not_found", "modelId", message);
}
