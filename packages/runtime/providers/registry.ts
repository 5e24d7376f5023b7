/**
 * The providers and models of a runtime, as config.yaml describes them: the built-in
 * DeepSeek profile (always listed, configured once it has an entry) and any custom
 * OpenAI-compatible providers. The registry has no default model of its own: run
 * preparation picks a Run's provider and model (the request's, the agent profile's, or
 * config.yaml's `agents.default_model`), and {@linkcode ProviderRegistry.resolveModel}
 * checks the pair.
 *
 * One adapter per provider is created on first use and kept until that provider's
 * connection (base URL, key, headers or enabled models) changes.
 *
 * @example
 * ```ts
 * const registry = new ProviderRegistry(await readConfig(paths.config));
 * const { provider, model } = registry.resolveModel("deepseek", "deepseek-v4-flash");
 * for await (const event of provider.stream(request, signal)) {
 *   // ...
 * }
 * ```
 *
 * @module
 */
import {
  type Model as ModelSummary,
  type Provider as ProviderSummary,
  type ReasoningEffort,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import type { DaedalusConfig, ModelConfig, ProviderConfig } from "@daedalus/storage";
import type { Provider } from "./provider.ts";
import { createOpenAICompatibleProvider } from "./openai/adapter.ts";
import {
  contextWindowFor,
  DEEPSEEK_BASE_URL,
  DEEPSEEK_DEFAULT_MODEL_ID,
  DEEPSEEK_DISPLAY_NAME,
  DEEPSEEK_MODELS,
  DEEPSEEK_PROVIDER_ID,
  displayNameFor,
} from "./model_defaults.ts";

export type { ModelSummary, ProviderSummary };

// The protocol's ContextWindow bounds; config.yaml accepts any positive integer.
const CONTEXT_WINDOW_MIN_TOKENS = 1024;
const CONTEXT_WINDOW_MAX_TOKENS = 100_000_000;

/** What an adapter needs to talk to one provider. */
export interface ProviderConnection {
  /** The provider id. */
  id: string;
  /** The OpenAI-compatible base URL (ending before `/chat/completions`). */
  baseUrl: string;
  /** The API key, sent as a bearer token; absent for endpoints without auth. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The enabled models, in config order. */
  models: readonly string[];
}

/** Makes the adapter of one provider. */
export type ProviderFactory = (connection: ProviderConnection) => Provider;

/** Options of {@linkcode ProviderRegistry}. */
export interface ProviderRegistryOptions {
  /** Makes adapters; default: the OpenAI-compatible adapter. Tests inject fakes. */
  createProvider?: ProviderFactory;
  /**
   * Providers served as they are, ahead of the config (e.g. the scripted provider in
   * tests). They can be resolved but are not listed; each of their models resolves with
   * default limits.
   */
  extraProviders?: readonly Provider[];
}

/** A model as a Run uses it. */
export interface ResolvedModel {
  /** The model id sent to the provider. */
  id: string;
  /** The name shown to people. */
  displayName: string;
  /** Context window in tokens. */
  contextWindow: number;
  /** Whether tools may be offered. */
  supportsTools: boolean;
  /** Effort levels the model accepts (may be empty). */
  reasoningEfforts: ReasoningEffort[];
  /** The default effort, or null for "auto" (send none). */
  reasoningEffort: ReasoningEffort | null;
  /** Whether new turns may use it. */
  enabled: boolean;
  /** The model a Run continues on when this one fails retryably; absent when none. */
  fallback?: { providerId: string; modelId: string } | null;
  /** Its price for cost budgets (US dollars per million tokens); absent when not configured. */
  price?: { inputUsdPerMTok: number; outputUsdPerMTok: number };
}

/** A resolved provider/model pair. */
export interface ModelSelection {
  /** The adapter to stream from. */
  provider: Provider;
  /** The model's settings. */
  model: ResolvedModel;
}

/**
 * The providers and models of the current config, with one adapter per provider.
 */
export class ProviderRegistry {
  #config: DaedalusConfig;
  readonly #createProvider: ProviderFactory;
  readonly #extras: ReadonlyMap<string, Provider>;
  readonly #adapters = new Map<string, { fingerprint: string; provider: Provider }>();

  /**
   * Builds the registry; no adapter is made until {@linkcode ProviderRegistry.provider}.
   *
   * @param config the validated config.yaml
   * @param options the adapter factory and extra providers
   */
  constructor(config: DaedalusConfig, options: ProviderRegistryOptions = {}) {
    this.#config = config;
    this.#createProvider = options.createProvider ?? createOpenAICompatibleProvider;
    this.#extras = new Map((options.extraProviders ?? []).map((p) => [p.id, p]));
  }

  /**
   * Switches to a new config. Adapters of providers whose connection changed, or that
   * are gone, are dropped; the others are kept.
   *
   * @param config the config just read or written
   */
  update(config: DaedalusConfig): void {
    this.#config = config;
    for (const [id, cached] of this.#adapters) {
      const entry = this.#entry(id);
      if (!entry || connectionFingerprint(id, entry) !== cached.fingerprint) {
        this.#adapters.delete(id);
      }
    }
  }

  /**
   * Every provider: the built-in DeepSeek first (configured or not), then the custom ones
   * in config order. Credentials are reported only as `credentialConfigured`.
   *
   * @returns the provider summaries
   */
  providers(): ProviderSummary[] {
    const customIds = Object.keys(this.#config.providers).filter((id) => !isBuiltin(id));
    return [DEEPSEEK_PROVIDER_ID, ...customIds].map((id) => this.#summary(id));
  }

  /**
   * One provider's summary.
   *
   * @param providerId the provider id
   * @returns the summary, or undefined for an unknown custom provider
   */
  providerSummary(providerId: string): ProviderSummary | undefined {
    if (!isBuiltin(providerId) && !this.#entry(providerId)) return undefined;
    return this.#summary(providerId);
  }

  /**
   * The configured models, enabled or not, provider by provider in list order.
   *
   * @param providerId only this provider's models
   * @returns the model summaries
   */
  models(providerId?: string): ModelSummary[] {
    const ids = providerId === undefined
      ? this.providers().map((provider) => provider.id)
      : [providerId];
    return ids.flatMap((id) => {
      const entry = this.#entry(id);
      if (!entry) return [];
      return Object.entries(effectiveModels(id, entry)).map(([modelId, model]) => ({
        providerId: id,
        ...resolvedModel(id, modelId, model),
      }));
    });
  }

  /**
   * One configured model's summary.
   *
   * @param providerId the provider id
   * @param modelId the model id
   * @returns the summary, or undefined if the provider or model is not configured
   */
  model(providerId: string, modelId: string): ModelSummary | undefined {
    const entry = this.#entry(providerId);
    const model = entry ? lookup(effectiveModels(providerId, entry), modelId) : undefined;
    if (!model) return undefined;
    return { providerId, ...resolvedModel(providerId, modelId, model) };
  }

  /**
   * The adapter of a configured provider, made on first use and remade after its
   * connection changed. It serves only the provider's enabled models.
   *
   * @param providerId the provider id
   * @returns the adapter, or undefined if the provider is not configured
   */
  provider(providerId: string): Provider | undefined {
    const extra = this.#extras.get(providerId);
    if (extra) return extra;
    const entry = this.#entry(providerId);
    if (!entry) return undefined;
    const fingerprint = connectionFingerprint(providerId, entry);
    const cached = this.#adapters.get(providerId);
    if (cached?.fingerprint === fingerprint) return cached.provider;
    const provider = this.#createProvider(connectionOf(providerId, entry));
    this.#adapters.set(providerId, { fingerprint, provider });
    return provider;
  }

  /**
   * Checks that a turn may use a provider/model pair and returns what the Run needs.
   *
   * @param providerId the provider the turn names
   * @param modelId the model the turn names
   * @returns the adapter and the model's settings
   * @throws {RpcError} -32602 `model_not_configured` (field `providerId` or `modelId`) for
   *   an unknown or unconfigured provider or model, `model_selection_required` (field
   *   `modelId`) for a disabled model
   */
  resolveModel(providerId: string, modelId: string): ModelSelection {
    const extra = this.#extras.get(providerId);
    if (extra) return resolveExtra(extra, modelId);
    const entry = this.#entry(providerId);
    if (!entry) {
      throw notConfigured("providerId", `Provider ${providerId} is not configured`);
    }
    const model = lookup(effectiveModels(providerId, entry), modelId);
    if (!model) {
      throw notConfigured(
        "modelId",
        `Model ${modelId} is not configured for provider ${providerId}`,
      );
    }
    if (!model.enabled) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "model_selection_required",
        `Model ${modelId} of provider ${providerId} is disabled; choose an enabled model`,
        { field: "modelId" },
      );
    }
    const provider = this.provider(providerId);
    if (!provider) throw notConfigured("providerId", `Provider ${providerId} is not configured`);
    return { provider, model: resolvedModel(providerId, modelId, model) };
  }

  /**
   * A model's fallback as configured now, resolved like a turn's model; one level only.
   *
   * @param providerId the provider of the model that failed
   * @param modelId the model that failed
   * @returns the fallback's adapter and settings, or null when the model names none or the
   *   one it names is no longer configured and enabled
   */
  fallback(providerId: string, modelId: string): (ModelSelection & { providerId: string }) | null {
    const target = this.model(providerId, modelId)?.fallback;
    if (!target) return null;
    try {
      return {
        providerId: target.providerId,
        ...this.resolveModel(target.providerId, target.modelId),
      };
    } catch (error) {
      if (error instanceof RpcError) return null; // removed or disabled since: no fallback
      throw error;
    }
  }

  #entry(providerId: string): ProviderConfig | undefined {
    return lookup(this.#config.providers, providerId);
  }

  #summary(providerId: string): ProviderSummary {
    const entry = this.#entry(providerId);
    const builtin = isBuiltin(providerId);
    return {
      id: providerId,
      displayName: builtin ? DEEPSEEK_DISPLAY_NAME : entry?.display_name ?? providerId,
      origin: builtin ? "builtin" : "custom",
      configured: entry !== undefined,
      credentialConfigured: entry?.api_key !== undefined,
      health: "unknown",
      baseUrl: publicUrl(entry?.base_url ?? (builtin ? DEEPSEEK_BASE_URL : null)),
    };
  }
}

/**
 * The models of a provider entry. A DeepSeek entry without models has the profile's,
 * with only {@linkcode DEEPSEEK_DEFAULT_MODEL_ID} enabled.
 *
 * @param providerId the provider id
 * @param entry its config entry
 * @returns model configs by id, in config order
 */
export function effectiveModels(
  providerId: string,
  entry: ProviderConfig,
): Record<string, ModelConfig> {
  if (isBuiltin(providerId) && Object.keys(entry.models).length === 0) {
    return deepseekProfileModels();
  }
  return entry.models;
}

/**
 * The DeepSeek profile's models as config entries, only
 * {@linkcode DEEPSEEK_DEFAULT_MODEL_ID} enabled.
 *
 * @returns model configs by id
 */
export function deepseekProfileModels(): Record<string, ModelConfig> {
  return Object.fromEntries(DEEPSEEK_MODELS.map((model) => [model.id, {
    display_name: model.displayName,
    enabled: model.id === DEEPSEEK_DEFAULT_MODEL_ID,
    supports_tools: model.supportsTools,
    context_window: model.contextWindow,
  }]));
}

/**
 * Whether a provider id is the built-in DeepSeek profile's.
 *
 * @param providerId the provider id
 * @returns true for `deepseek`
 */
export function isBuiltin(providerId: string): boolean {
  return providerId === DEEPSEEK_PROVIDER_ID;
}

/**
 * A context window as the protocol carries it: config.yaml accepts any positive integer,
 * the wire 1,024 to 100,000,000 tokens.
 *
 * @param tokens a context window in tokens
 * @returns the window clamped to the protocol's range
 */
export function clampContextWindow(tokens: number): number {
  return Math.min(CONTEXT_WINDOW_MAX_TOKENS, Math.max(CONTEXT_WINDOW_MIN_TOKENS, tokens));
}

function resolvedModel(providerId: string, modelId: string, model: ModelConfig): ResolvedModel {
  return {
    id: modelId,
    displayName: model.display_name ?? displayNameFor(providerId, modelId),
    contextWindow: clampContextWindow(
      model.context_window ?? contextWindowFor(providerId, modelId),
    ),
    supportsTools: model.supports_tools,
    reasoningEfforts: [...(model.reasoning_efforts ?? [])],
    reasoningEffort: model.reasoning_effort ?? null,
    enabled: model.enabled,
    // Present only when set, like in config.yaml (older clients' fixtures stay equal).
    ...(model.fallback
      ? { fallback: { providerId: model.fallback.provider_id, modelId: model.fallback.model_id } }
      : {}),
    ...(model.price
      ? {
        price: {
          inputUsdPerMTok: model.price.input_usd_per_mtok,
          outputUsdPerMTok: model.price.output_usd_per_mtok,
        },
      }
      : {}),
  };
}

function resolveExtra(provider: Provider, modelId: string): ModelSelection {
  if (!provider.models.includes(modelId)) {
    throw notConfigured("modelId", `Model ${modelId} is not configured for ${provider.id}`);
  }
  const model = resolvedModel(provider.id, modelId, { enabled: true, supports_tools: true });
  return { provider, model };
}

function connectionOf(providerId: string, entry: ProviderConfig): ProviderConnection {
  const models = Object.entries(effectiveModels(providerId, entry))
    .filter(([, model]) => model.enabled)
    .map(([id]) => id);
  return {
    id: providerId,
    baseUrl: entry.base_url,
    ...(entry.api_key === undefined ? {} : { apiKey: entry.api_key }),
    ...(entry.headers === undefined ? {} : { headers: { ...entry.headers } }),
    models,
  };
}

function connectionFingerprint(providerId: string, entry: ProviderConfig): string {
  const connection = connectionOf(providerId, entry);
  const headers = Object.entries(connection.headers ?? {}).sort(([a], [b]) => a < b ? -1 : 1);
  return JSON.stringify([
    connection.baseUrl,
    connection.apiKey ?? null,
    headers,
    connection.models,
  ]);
}

/** A base URL without user info (a password in a URL is a credential). */
function publicUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return null;
  }
}

function lookup<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function notConfigured(field: "providerId" | "modelId", message: string): RpcError {
  return new RpcError(RPC_ERROR_CODES.invalidParams, "model_not_configured", message, { field });
}
