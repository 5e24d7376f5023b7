/**
 * The OpenAI-compatible services people connect most, with their documented default base
 * URLs, so a custom provider starts filled in: pick the service, paste a key (or none, for
 * a local server), Discover models, Save. DeepSeek is built in and not listed here.
 *
 * @module
 */
import type { MessageKey } from "../i18n/i18n.ts";

/** One service the custom provider form can start from. */
export interface ProviderPreset {
  /** The provider id the form proposes (the user may change it). */
  id: string;
  /** The name shown in the list and proposed as the display name. */
  displayName: string;
  /** The service's OpenAI-compatible base URL (the `/models` and `/chat/completions` root). */
  baseUrl: string;
  /** Whether the service needs an API key; local servers take none by default. */
  needsKey: boolean;
  /** What the form says under the base URL. */
  hint: MessageKey;
}

/** The presets, hosted services first, then local servers on their default ports. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = Object.freeze([
  {
    id: "openai",
    displayName: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    needsKey: true,
    hint: "settings.preset.hosted",
  },
  {
    id: "openrouter",
    displayName: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    needsKey: true,
    hint: "settings.preset.hosted",
  },
  {
    id: "ollama",
    displayName: "Ollama",
    baseUrl: "http://127.0.0.1:11434/v1",
    needsKey: false,
    hint: "settings.preset.local",
  },
  {
    id: "lmstudio",
    displayName: "LM Studio",
    baseUrl: "http://127.0.0.1:1234/v1",
    needsKey: false,
    hint: "settings.preset.local",
  },
  {
    id: "vllm",
    displayName: "vLLM",
    baseUrl: "http://127.0.0.1:8000/v1",
    needsKey: false,
    hint: "settings.preset.local",
  },
  {
    id: "llamacpp",
    displayName: "llama.cpp server",
    baseUrl: "http://127.0.0.1:8080/v1",
    needsKey: false,
    hint: "settings.preset.local",
  },
].map((preset) => Object.freeze(preset as ProviderPreset)));

/**
 * The form's fields after choosing a preset: the id, name and base URL follow the preset
 * unless the user already typed their own (a field still holding the previous preset's
 * value, or empty, is replaced); the key, headers and models are left as typed.
 *
 * @param draft the fields now
 * @param previous the preset chosen before, or null
 * @param next the preset chosen now, or null for "another OpenAI-compatible service"
 * @returns the fields to show
 */
export function applyPreset<
  D extends { providerId: string; displayName: string; baseUrl: string },
>(draft: D, previous: ProviderPreset | null, next: ProviderPreset | null): D {
  const follow = (value: string, before: string | undefined, after: string) =>
    value === "" || value === before ? after : value;
  return {
    ...draft,
    providerId: follow(draft.providerId, previous?.id, next?.id ?? ""),
    displayName: follow(draft.displayName, previous?.displayName, next?.displayName ?? ""),
    baseUrl: follow(draft.baseUrl, previous?.baseUrl, next?.baseUrl ?? ""),
  };
}

/**
 * The preset with an id.
 *
 * @param id a preset id, or "" for none
 * @returns the preset, or null
 */
export function presetById(id: string): ProviderPreset | null {
  return PROVIDER_PRESETS.find((preset) => preset.id === id) ?? null;
}
