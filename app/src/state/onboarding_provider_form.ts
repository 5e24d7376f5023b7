/**
 * The "connect a model" form (onboarding step 2, later the settings' provider form) as
 * plain values: what the user typed, checked and turned into `provider.configure`'s
 * params. The runtime validates again; this only catches what can be said before asking.
 *
 * @module
 */
import type { ParamsOf, ReasoningEffort } from "@daedalus/client";
import { parseModelIds, providerIdFor } from "./onboarding_flow.ts";

/** The effort levels in the protocol's order (a test compares them with it). */
export const EFFORT_LEVELS = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
  "ultra",
] as const satisfies readonly ReasoningEffort[];

/** The smallest context window the protocol accepts (`ContextWindow`), in tokens. */
export const CONTEXT_WINDOW_MIN = 1024;
/** The largest context window the protocol accepts (`ContextWindow`), in tokens. */
export const CONTEXT_WINDOW_MAX = 100_000_000;

/** The form's fields as typed. */
export interface ProviderForm {
  /** The built-in DeepSeek profile or a custom OpenAI-compatible endpoint. */
  kind: "deepseek" | "custom";
  /** A custom provider's name; its id is derived from it. */
  displayName: string;
  /** A custom provider's base URL (http or https). */
  baseUrl: string;
  /** Required for DeepSeek, optional for a custom provider. */
  apiKey: string;
  /** One id per line or comma-separated. */
  modelIds: string;
  /** Empty: the runtime's default for the model. */
  contextWindow: string;
  /** Levels the models accept; empty: leave the runtime's. */
  efforts: ReasoningEffort[];
  /** The default level; empty: automatic (nothing sent). */
  defaultEffort: ReasoningEffort | "";
}

/** Why the form cannot be sent yet (each has a message `provider.problem.<name>`). */
export type FormProblem =
  | "apiKeyRequired"
  | "nameRequired"
  | "baseUrlInvalid"
  | "modelRequired"
  | "contextWindowInvalid"
  | "defaultEffortNotListed";

/** @returns an empty form for a kind */
export function emptyProviderForm(kind: ProviderForm["kind"] = "deepseek"): ProviderForm {
  return {
    kind,
    displayName: "",
    baseUrl: "",
    apiKey: "",
    modelIds: "",
    contextWindow: "",
    efforts: [],
    defaultEffort: "",
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Checks the form and builds `provider.configure`'s params. A custom provider's id comes
 * from its display name; the Advanced settings apply to every model listed.
 *
 * @param form the fields
 * @returns the params, or the first problem
 */
export function configureParams(
  form: ProviderForm,
): { params: ParamsOf<"provider.configure"> } | { problem: FormProblem } {
  const apiKey = form.apiKey.trim();
  const ids = parseModelIds(form.modelIds);
  const windowText = form.contextWindow.trim();
  const contextWindow = windowText === "" ? undefined : Number(windowText);
  if (
    contextWindow !== undefined &&
    !(Number.isInteger(contextWindow) && contextWindow >= CONTEXT_WINDOW_MIN &&
      contextWindow <= CONTEXT_WINDOW_MAX)
  ) return { problem: "contextWindowInvalid" };
  if (
    form.defaultEffort !== "" && form.efforts.length > 0 &&
    !form.efforts.includes(form.defaultEffort)
  ) return { problem: "defaultEffortNotListed" };
  const models = ids.map((id) => ({
    id,
    ...(contextWindow !== undefined && { contextWindow }),
    ...(form.efforts.length > 0 && { reasoningEfforts: form.efforts }),
    ...(form.defaultEffort !== "" && { reasoningEffort: form.defaultEffort }),
  }));
  if (form.kind === "deepseek") {
    if (apiKey === "") return { problem: "apiKeyRequired" };
    return { params: { kind: "deepseek", apiKey, ...(models.length > 0 && { models }) } };
  }
  const displayName = form.displayName.trim();
  if (displayName === "") return { problem: "nameRequired" };
  if (!isHttpUrl(form.baseUrl.trim())) return { problem: "baseUrlInvalid" };
  if (models.length === 0) return { problem: "modelRequired" };
  return {
    params: {
      kind: "custom",
      providerId: providerIdFor(displayName),
      displayName,
      baseUrl: form.baseUrl.trim(),
      ...(apiKey !== "" && { apiKey }),
      models,
    },
  };
}

/**
 * `provider.discover_models`' params for the form, or null when the form lacks what the
 * lookup needs (a custom provider's base URL).
 *
 * @param form the fields
 * @returns the params or null
 */
export function discoverParams(form: ProviderForm): ParamsOf<"provider.discover_models"> | null {
  const apiKey = form.apiKey.trim() === "" ? undefined : form.apiKey.trim();
  if (form.kind === "deepseek") return { kind: "deepseek", ...(apiKey && { apiKey }) };
  const baseUrl = form.baseUrl.trim();
  if (!isHttpUrl(baseUrl)) return null;
  return { kind: "custom", baseUrl, ...(apiKey && { apiKey }) };
}

/**
 * Adds discovered ids to the typed ones, keeping the user's first.
 *
 * @param typed the field's text
 * @param discovered ids from the provider
 * @returns the field's new text, one id per line
 */
export function mergeModelIds(typed: string, discovered: readonly string[]): string {
  return [...new Set([...parseModelIds(typed), ...discovered])].join("\n");
}
