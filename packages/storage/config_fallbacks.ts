/**
 * The cross-checks of model fallbacks (`providers.<id>.models.<model-id>.fallback`): a
 * fallback names a model listed under a configured provider, enabled, and not the model
 * itself. Only one level is ever followed, so a fallback may have a fallback of its own
 * (used when a Run starts on it) without forming a chain.
 *
 * The schema of config.yaml runs this check (a file or a write that breaks it is
 * `config_invalid`, naming the key), and the runtime's RPC handlers run it before writing
 * to answer with their own reason code.
 *
 * @module
 */

/** A model's fallback as config.yaml stores it. */
export interface ModelFallbackConfig {
  /** The provider of the fallback model. */
  provider_id: string;
  /** The fallback model's id. */
  model_id: string;
}

/** What the check needs of a config: providers and their models. */
export interface FallbackCheckInput {
  /** Providers by id, each with its models by id. */
  providers: Readonly<
    Record<
      string,
      {
        models: Readonly<
          Record<string, { enabled?: boolean; fallback?: ModelFallbackConfig | undefined }>
        >;
      }
    >
  >;
}

/** One broken fallback. */
export interface FallbackIssue {
  /** Where it is: `["providers", id, "models", modelId, "fallback"]`. */
  path: string[];
  /** The model whose fallback is broken. */
  providerId: string;
  /** The model whose fallback is broken. */
  modelId: string;
  /** Why, naming the fallback. */
  message: string;
}

/**
 * Every broken fallback of a config, in config order.
 *
 * @param config the providers and their models (defaults need not be filled in: a model
 *   without `enabled` is enabled)
 * @returns the issues; empty when every fallback names a configured, enabled other model
 * @example
 * ```ts
 * const issues = fallbackIssues({
 *   providers: { p: { models: { a: { fallback: { provider_id: "p", model_id: "a" } } } } },
 * });
 * issues[0].message; // "fallback p/a is the model itself"
 * ```
 */
export function fallbackIssues(config: FallbackCheckInput): FallbackIssue[] {
  const issues: FallbackIssue[] = [];
  for (const [providerId, provider] of Object.entries(config.providers)) {
    for (const [modelId, model] of Object.entries(provider.models)) {
      const fallback = model.fallback;
      if (fallback === undefined) continue;
      const problem = fallbackProblem(config, providerId, modelId, fallback);
      if (problem === null) continue;
      issues.push({
        path: ["providers", providerId, "models", modelId, "fallback"],
        providerId,
        modelId,
        message: problem,
      });
    }
  }
  return issues;
}

function fallbackProblem(
  config: FallbackCheckInput,
  providerId: string,
  modelId: string,
  fallback: ModelFallbackConfig,
): string | null {
  const name = `${fallback.provider_id}/${fallback.model_id}`;
  if (fallback.provider_id === providerId && fallback.model_id === modelId) {
    return `fallback ${name} is the model itself`;
  }
  const target = Object.hasOwn(config.providers, fallback.provider_id)
    ? config.providers[fallback.provider_id]
    : undefined;
  if (target === undefined) {
    return `fallback ${name}: provider ${fallback.provider_id} is not configured`;
  }
  const model = Object.hasOwn(target.models, fallback.model_id)
    ? target.models[fallback.model_id]
    : undefined;
  if (model === undefined) {
    return `fallback ${name}: model ${fallback.model_id} is not configured for provider ` +
      fallback.provider_id;
  }
  if (model.enabled === false) return `fallback ${name} is disabled; enable it first`;
  return null;
}
