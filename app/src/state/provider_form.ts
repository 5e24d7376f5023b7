/**
 * The pure side of every provider form — Settings' custom provider and model limits, and
 * onboarding's "connect a model" step: turning what the user typed (a provider's fields,
 * its headers and models as text, context windows and reasoning-effort levels) into
 * `provider.configure` / `provider.discover_models` / `model.set_limits` params, or into
 * problems to show beside the fields. The runtime validates again; checking here keeps
 * obvious slips from costing a round trip and names the field at fault in the user's
 * language.
 *
 * @module
 */
import type { DiscoveredModel, ModelInput, ParamsOf, ReasoningEffort } from "@daedalus/client";
import type { MessageKey } from "../i18n/i18n.ts";

/** What the custom provider form holds, every field as typed. */
export interface CustomProviderDraft {
  providerId: string;
  displayName: string;
  baseUrl: string;
  /** Blank keeps the saved key (same origin only; the runtime decides). */
  apiKey: string;
  /** One `Name: value` per line; blank keeps the saved headers. */
  headers: string;
  /** Model ids, one per line (commas also separate). */
  models: string;
}

/** A problem with one field, as a string key to show beside it. */
export interface FieldProblem<F extends string> {
  field: F;
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** Either the params to send or the problems to show. */
export type Checked<P, F extends string> =
  | { ok: true; params: P }
  | { ok: false; problems: FieldProblem<F>[] };

/** A blank custom provider form. */
export function emptyCustomDraft(): CustomProviderDraft {
  return { providerId: "", displayName: "", baseUrl: "", apiKey: "", headers: "", models: "" };
}

// The protocol's ProviderId and Identifier rules (domain/provider.ts, ids.ts).
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MODEL_ID_MAX_CHARS = 200;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/;

/**
 * Reads headers typed as `Name: value`, one per line; blank lines are skipped.
 *
 * @param text the textarea's value
 * @returns the headers, or the 1-based number of the first line that is not a header
 */
export function parseHeaders(
  text: string,
): { ok: true; headers: Record<string, string> } | { ok: false; line: number } {
  const headers: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const colon = raw.indexOf(":");
    const name = colon < 0 ? "" : raw.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) return { ok: false, line: index + 1 };
    headers[name] = raw.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}

/**
 * Reads model ids separated by newlines or commas, trimmed, blanks and repeats dropped.
 *
 * @param text the textarea's value
 * @returns the ids in the order typed
 */
export function parseModelIds(text: string): string[] {
  const ids = text.split(/[\n,]/).map((id) => id.trim()).filter((id) => id !== "");
  return [...new Set(ids)];
}

/**
 * Adds picked model ids to a models textarea's value, keeping what is there.
 *
 * @param text the current value
 * @param picked ids to add
 * @returns one id per line, the existing ones first
 */
export function addModelIds(text: string, picked: readonly string[]): string {
  return [...new Set([...parseModelIds(text), ...picked])].join("\n");
}

/**
 * A provider id from a display name (`My Local LLM` → `my-local-llm`), matching the
 * protocol's `^[a-z0-9][a-z0-9_-]{0,63}$`.
 *
 * @param displayName the name the user typed
 * @returns the id, or `custom` when the name has no usable letters
 */
export function providerIdFor(displayName: string): string {
  const slug = displayName.normalize("NFKD").toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+/, "").replace(/-+$/, "").slice(0, 64);
  return slug === "" || slug === "deepseek" ? "custom" : slug;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

type CustomParams = Extract<ParamsOf<"provider.configure">, { kind: "custom" }>;

/**
 * Checks the custom provider form and builds `provider.configure` params. A discovered
 * model keeps the name and context window discovery reported for it.
 *
 * @param draft the form
 * @param discovered models found by "Discover models", by id
 * @returns the params, or the problems by field
 */
export function customProviderParams(
  draft: CustomProviderDraft,
  discovered: Readonly<Record<string, DiscoveredModel>> = {},
): Checked<CustomParams, keyof CustomProviderDraft> {
  const problems: FieldProblem<keyof CustomProviderDraft>[] = [];
  const providerId = draft.providerId.trim();
  const displayName = draft.displayName.trim();
  if (!PROVIDER_ID.test(providerId)) {
    problems.push({ field: "providerId", key: "settings.problem.providerId" });
  }
  if (displayName === "") {
    problems.push({ field: "displayName", key: "settings.problem.displayName" });
  }
  const endpoint = checkEndpoint(draft);
  problems.push(...endpoint.problems);
  const ids = parseModelIds(draft.models);
  if (ids.length === 0) problems.push({ field: "models", key: "settings.problem.models" });
  const long = ids.find((id) => id.length > MODEL_ID_MAX_CHARS);
  if (long) problems.push({ field: "models", key: "settings.problem.modelId", vars: { id: long } });
  if (problems.length > 0) return { ok: false, problems };
  const { baseUrl, headers } = endpoint;
  const models = ids.map((id): ModelInput => {
    const found = Object.hasOwn(discovered, id) ? discovered[id] : undefined;
    return found
      ? { id, displayName: found.displayName, contextWindow: found.contextWindow }
      : { id };
  });
  const params: CustomParams = { kind: "custom", providerId, displayName, baseUrl, models };
  const apiKey = draft.apiKey.trim();
  if (apiKey !== "") params.apiKey = apiKey;
  if (Object.keys(headers).length > 0) params.headers = headers;
  return { ok: true, params };
}

/** What a model lookup needs, every field as typed (onboarding has no headers: ""). */
export interface DiscoverDraft {
  kind: "deepseek" | "custom";
  /** A saved provider's id, so the runtime can use its stored key and headers. */
  providerId?: string;
  /** A custom provider's base URL; unused for DeepSeek. */
  baseUrl: string;
  /** Blank: the saved key, if any. */
  apiKey: string;
  /** One `Name: value` per line. */
  headers: string;
}

/**
 * Checks what a lookup needs and builds `provider.discover_models` params; a key given
 * here is used for the lookup only.
 *
 * @param draft where to look
 * @returns the params, or the problems by field (a custom provider's base URL, headers)
 */
export function discoverParams(
  draft: DiscoverDraft,
): Checked<ParamsOf<"provider.discover_models">, "baseUrl" | "headers"> {
  if (draft.kind === "deepseek") return { ok: true, params: deepseekDiscoverParams(draft.apiKey) };
  const { baseUrl, headers, problems } = checkEndpoint(draft);
  if (problems.length > 0) return { ok: false, problems };
  const apiKey = draft.apiKey.trim();
  return {
    ok: true,
    params: {
      kind: "custom",
      ...(draft.providerId === undefined ? {} : { providerId: draft.providerId }),
      baseUrl,
      ...(apiKey === "" ? {} : { apiKey }),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    },
  };
}

/**
 * `provider.discover_models` params for DeepSeek, which needs nothing but an optional key.
 *
 * @param apiKey the key as typed; blank looks up with the saved key
 * @returns the params
 */
export function deepseekDiscoverParams(apiKey: string): ParamsOf<"provider.discover_models"> {
  const key = apiKey.trim();
  return key === "" ? { kind: "deepseek" } : { kind: "deepseek", apiKey: key };
}

/**
 * Checks the two fields every custom endpoint has, for saving and for a lookup alike.
 *
 * @param draft the base URL and the headers as typed
 * @returns the trimmed base URL, the parsed headers (empty when they do not parse) and the
 *   fields' problems
 */
function checkEndpoint(draft: { baseUrl: string; headers: string }): {
  baseUrl: string;
  headers: Record<string, string>;
  problems: FieldProblem<"baseUrl" | "headers">[];
} {
  const problems: FieldProblem<"baseUrl" | "headers">[] = [];
  const baseUrl = draft.baseUrl.trim();
  if (!isHttpUrl(baseUrl)) problems.push({ field: "baseUrl", key: "settings.problem.baseUrl" });
  const headers = parseHeaders(draft.headers);
  if (!headers.ok) {
    problems.push({
      field: "headers",
      key: "settings.problem.headers",
      vars: { line: headers.line },
    });
  }
  return { baseUrl, headers: headers.ok ? headers.headers : {}, problems };
}

/** Every reasoning effort the protocol knows, in its order (a record, so none is missed). */
const EFFORT_ORDER: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 1,
  low: 2,
  medium: 3,
  high: 4,
  xhigh: 5,
  max: 6,
  ultra: 7,
};

/** The reasoning-effort levels, lowest first. */
export const REASONING_EFFORT_LEVELS = (Object.keys(EFFORT_ORDER) as ReasoningEffort[])
  .sort((a, b) => EFFORT_ORDER[a] - EFFORT_ORDER[b]);

/** The effort part of a form: the levels ticked and the default. */
export interface EffortDraft {
  /** The levels the model accepts. */
  reasoningEfforts: readonly ReasoningEffort[];
  /** The default level; "" is auto (send none). */
  reasoningEffort: ReasoningEffort | "";
}

/**
 * The levels a default can be picked from. Settings edits one model, whose empty list
 * means it accepts none; onboarding's empty list means "leave the runtime's", so any
 * level may be the default there.
 *
 * @param levels the levels ticked
 * @param emptyOffersAll whether no level ticked offers every level
 * @returns the choices in the protocol's order
 */
export function effortChoices(
  levels: readonly ReasoningEffort[],
  emptyOffersAll: boolean,
): ReasoningEffort[] {
  if (levels.length === 0 && emptyOffersAll) return [...REASONING_EFFORT_LEVELS];
  return REASONING_EFFORT_LEVELS.filter((level) => levels.includes(level));
}

/**
 * Ticks or unticks a level, keeping the protocol's order; a default that is no longer
 * among the choices goes back to auto, as the runtime would do.
 *
 * @param draft the effort part
 * @param level the level
 * @param on ticked or not
 * @param emptyOffersAll see {@linkcode effortChoices}
 * @returns the new effort part
 */
export function toggleEffortLevel(
  draft: EffortDraft,
  level: ReasoningEffort,
  on: boolean,
  emptyOffersAll: boolean,
): EffortDraft {
  const levels = REASONING_EFFORT_LEVELS.filter((other) =>
    other === level ? on : draft.reasoningEfforts.includes(other)
  );
  const effort = draft.reasoningEffort;
  const kept = effort !== "" && effortChoices(levels, emptyOffersAll).includes(effort);
  return { reasoningEfforts: levels, reasoningEffort: kept ? effort : "" };
}

/** What the limits form holds. */
export interface LimitsDraft extends EffortDraft {
  /** The context window in tokens, as typed. */
  contextWindow: string;
}

/** The smallest context window the protocol accepts (`ContextWindow`), in tokens. */
export const CONTEXT_WINDOW_MIN = 1024;
/** The largest context window the protocol accepts (`ContextWindow`), in tokens. */
export const CONTEXT_WINDOW_MAX = 100_000_000;

/**
 * Reads a context window typed with or without digit grouping (`128,000`, `128 000`).
 *
 * @param text what was typed
 * @returns the tokens, or null when it is not a whole number within the protocol's bounds
 */
export function parseContextWindow(text: string): number | null {
  const digits = text.trim().replaceAll(/[,_\s]/g, "");
  const tokens = /^\d+$/.test(digits) ? Number(digits) : NaN;
  const fits = Number.isSafeInteger(tokens) && tokens >= CONTEXT_WINDOW_MIN &&
    tokens <= CONTEXT_WINDOW_MAX;
  return fits ? tokens : null;
}

const contextWindowProblem = <F extends string>(field: F): FieldProblem<F> => ({
  field,
  key: "settings.problem.contextWindow",
  vars: { min: CONTEXT_WINDOW_MIN, max: CONTEXT_WINDOW_MAX },
});

/**
 * Checks the limits form and builds `model.set_limits` params.
 *
 * @param providerId the model's provider
 * @param modelId the model
 * @param draft the form
 * @returns the params, or the problems by field
 */
export function limitsParams(
  providerId: string,
  modelId: string,
  draft: LimitsDraft,
): Checked<ParamsOf<"model.set_limits">, keyof LimitsDraft> {
  const problems: FieldProblem<keyof LimitsDraft>[] = [];
  const contextWindow = parseContextWindow(draft.contextWindow);
  if (contextWindow === null) problems.push(contextWindowProblem("contextWindow"));
  const efforts = effortChoices(draft.reasoningEfforts, false);
  const effort = draft.reasoningEffort === "" ? null : draft.reasoningEffort;
  if (effort !== null && !efforts.includes(effort)) {
    problems.push({ field: "reasoningEffort", key: "settings.problem.defaultEffort" });
  }
  if (problems.length > 0 || contextWindow === null) return { ok: false, problems };
  return {
    ok: true,
    params: {
      providerId,
      modelId,
      contextWindow,
      reasoningEfforts: efforts,
      reasoningEffort: effort,
    },
  };
}

/**
 * What onboarding's "connect a model" form holds, every field as typed. Its Advanced
 * part applies to every model listed; left blank, the runtime's defaults stay.
 */
export interface ConnectDraft extends EffortDraft {
  /** The built-in DeepSeek profile or a custom OpenAI-compatible endpoint. */
  kind: "deepseek" | "custom";
  /** A custom provider's name; its id is derived from it ({@linkcode providerIdFor}). */
  displayName: string;
  /** A custom provider's base URL. */
  baseUrl: string;
  /** Required for DeepSeek, optional for a custom provider. */
  apiKey: string;
  /** Model ids, one per line (commas also separate); optional for DeepSeek. */
  models: string;
  /** Blank: the runtime's default for the model. */
  contextWindow: string;
}

/**
 * A blank connect form.
 *
 * @param kind the provider kind it starts with
 * @returns the form
 */
export function emptyConnectDraft(kind: ConnectDraft["kind"] = "deepseek"): ConnectDraft {
  return {
    kind,
    displayName: "",
    baseUrl: "",
    apiKey: "",
    models: "",
    contextWindow: "",
    reasoningEfforts: [],
    reasoningEffort: "",
  };
}

/**
 * Checks the connect form and builds `provider.configure` params: DeepSeek needs its key;
 * a custom provider is checked as Settings' form is, with its id derived from the name.
 * A discovered model keeps the name (and, without an Advanced window, the context
 * window) discovery reported for it.
 *
 * @param draft the form
 * @param discovered models found by "Discover models", by id
 * @returns the params, or the problems by field
 */
export function connectParams(
  draft: ConnectDraft,
  discovered: Readonly<Record<string, DiscoveredModel>> = {},
): Checked<ParamsOf<"provider.configure">, keyof ConnectDraft> {
  // The Advanced part's problems come last, in the form's order.
  const later: FieldProblem<keyof ConnectDraft>[] = [];
  const windowText = draft.contextWindow.trim();
  const contextWindow = windowText === "" ? undefined : parseContextWindow(windowText);
  if (contextWindow === null) later.push(contextWindowProblem("contextWindow"));
  const efforts = effortChoices(draft.reasoningEfforts, false);
  const effort = draft.reasoningEffort;
  if (effort !== "" && !effortChoices(efforts, true).includes(effort)) {
    later.push({ field: "reasoningEffort", key: "settings.problem.defaultEffort" });
  }
  const advanced = {
    ...(typeof contextWindow === "number" && { contextWindow }),
    ...(efforts.length > 0 && { reasoningEfforts: efforts }),
    ...(effort !== "" && { reasoningEffort: effort }),
  };
  const withAdvanced = (models: ModelInput[]) => models.map((model) => ({ ...model, ...advanced }));
  if (draft.kind === "deepseek") {
    const apiKey = draft.apiKey.trim();
    const problems: FieldProblem<keyof ConnectDraft>[] = apiKey === ""
      ? [{ field: "apiKey", key: "settings.problem.apiKey" }, ...later]
      : later;
    if (problems.length > 0) return { ok: false, problems };
    const models = withAdvanced(parseModelIds(draft.models).map((id) => ({ id })));
    return { ok: true, params: { kind: "deepseek", apiKey, ...(models.length > 0 && { models }) } };
  }
  const custom = customProviderParams({
    providerId: providerIdFor(draft.displayName),
    displayName: draft.displayName,
    baseUrl: draft.baseUrl,
    apiKey: draft.apiKey,
    headers: "",
    models: draft.models,
  }, discovered);
  // The derived id always fits the protocol, and there are no headers to get wrong.
  const problems = [...(custom.ok ? [] : custom.problems.filter(isConnectProblem)), ...later];
  if (problems.length > 0 || !custom.ok) return { ok: false, problems };
  return { ok: true, params: { ...custom.params, models: withAdvanced(custom.params.models) } };
}

function isConnectProblem(
  problem: FieldProblem<keyof CustomProviderDraft>,
): problem is FieldProblem<keyof ConnectDraft & keyof CustomProviderDraft> {
  return problem.field !== "providerId" && problem.field !== "headers";
}
