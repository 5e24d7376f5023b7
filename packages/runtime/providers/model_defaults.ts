/**
 * What the runtime assumes about models nobody described: the built-in DeepSeek profile
 * (provider id, base URL, its three models and their context windows), the context window
 * of an unknown model, and which model ids accept images.
 *
 * @example
 * ```ts
 * contextWindowFor("deepseek", "deepseek-v4-pro"); // 1_000_000
 * contextWindowFor("local", "qwen3:32b"); // 32_768
 * isVisionModel("qwen2.5-VL-7b"); // true
 * ```
 *
 * @module
 */

/** The provider id of the built-in DeepSeek profile. */
export const DEEPSEEK_PROVIDER_ID = "deepseek";

/** The name the built-in DeepSeek profile is shown under. */
export const DEEPSEEK_DISPLAY_NAME = "DeepSeek";

/** DeepSeek's OpenAI-compatible endpoint. */
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com/v1";

/** Context window of the DeepSeek V4 models, in tokens (seed 000 config example). */
export const DEEPSEEK_CONTEXT_WINDOW_TOKENS = 1_000_000;

/** Context window assumed for a model nobody described, in tokens: small enough to be safe. */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 32_768;

/** The model enabled when DeepSeek is configured without a model list. */
export const DEEPSEEK_DEFAULT_MODEL_ID = "deepseek-v4-flash";

/** A model the runtime knows without being told. */
export interface ModelProfile {
  /** The model id sent to the provider. */
  readonly id: string;
  /** The name shown to people. */
  readonly displayName: string;
  /** Context window in tokens. */
  readonly contextWindow: number;
  /** Whether the model accepts tool definitions. */
  readonly supportsTools: boolean;
}

/** The models of the built-in DeepSeek profile, in the order they are offered. */
export const DEEPSEEK_MODELS: readonly ModelProfile[] = [
  {
    id: "deepseek-v4-flash",
    displayName: "DeepSeek V4 Flash",
    contextWindow: DEEPSEEK_CONTEXT_WINDOW_TOKENS,
    supportsTools: true,
  },
  {
    id: "deepseek-v4-pro",
    displayName: "DeepSeek V4 Pro",
    contextWindow: DEEPSEEK_CONTEXT_WINDOW_TOKENS,
    supportsTools: true,
  },
  {
    id: "deepseek-v4-flash-vision-exp",
    displayName: "DeepSeek V4 Flash Vision (experimental)",
    contextWindow: DEEPSEEK_CONTEXT_WINDOW_TOKENS,
    supportsTools: true,
  },
];

/**
 * The profile of a built-in model, if the provider is the built-in DeepSeek one and it
 * knows the model.
 *
 * @param providerId the provider id
 * @param modelId the model id
 * @returns the profile, or undefined for a model the runtime does not know
 */
export function builtinModelProfile(
  providerId: string,
  modelId: string,
): ModelProfile | undefined {
  if (providerId !== DEEPSEEK_PROVIDER_ID) return undefined;
  return DEEPSEEK_MODELS.find((model) => model.id === modelId);
}

/**
 * The context window to assume when the config does not give one.
 *
 * @param providerId the provider id
 * @param modelId the model id
 * @returns the profile's window for a built-in model, {@linkcode DEFAULT_CONTEXT_WINDOW_TOKENS}
 *   otherwise
 */
export function contextWindowFor(providerId: string, modelId: string): number {
  return builtinModelProfile(providerId, modelId)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW_TOKENS;
}

/**
 * The name to show for a model when the config does not give one.
 *
 * @param providerId the provider id
 * @param modelId the model id
 * @returns the profile's name for a built-in model, the id otherwise
 */
export function displayNameFor(providerId: string, modelId: string): string {
  return builtinModelProfile(providerId, modelId)?.displayName ?? modelId;
}

const VISION_MARKERS = ["vision", "vl", "multimodal"];

/**
 * Whether a model accepts images, judged by its id: the id contains `vision`, `vl` or
 * `multimodal` in any case (`deepseek-v4-flash-vision-exp`, `qwen2.5-VL-7b`). A model that
 * does not gets attachments as a text note with their paths instead.
 *
 * @param modelId the model id
 * @returns true when images may be sent inline
 */
export function isVisionModel(modelId: string): boolean {
  const id = modelId.toLowerCase();
  return VISION_MARKERS.some((marker) => id.includes(marker));
}
