/**
 * The pure side of the provider settings forms: turning what the user typed (a custom
 * provider's fields, its headers and models as text, a model's limits) into
 * `provider.configure` / `model.set_limits` params, or into problems to show beside the
 * fields. The runtime validates again; checking here keeps obvious slips from costing a
 * round trip and names the field at fault in the user's language.
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
  const baseUrl = draft.baseUrl.trim();
  if (!PROVIDER_ID.test(providerId)) {
    problems.push({ field: "providerId", key: "settings.problem.providerId" });
  }
  if (displayName === "") problems.push({ field: "displayName", key: "settings.problem.required" });
  if (!isHttpUrl(baseUrl)) problems.push({ field: "baseUrl", key: "settings.problem.baseUrl" });
  const headers = parseHeaders(draft.headers);
  if (!headers.ok) {
    problems.push({
      field: "headers",
      key: "settings.problem.headers",
      vars: { line: headers.line },
    });
  }
  const ids = parseModelIds(draft.models);
  if (ids.length === 0) problems.push({ field: "models", key: "settings.problem.models" });
  const long = ids.find((id) => id.length > MODEL_ID_MAX_CHARS);
  if (long) problems.push({ field: "models", key: "settings.problem.modelId", vars: { id: long } });
  if (problems.length > 0 || !headers.ok) return { ok: false, problems };
  const models = ids.map((id): ModelInput => {
    const found = Object.hasOwn(discovered, id) ? discovered[id] : undefined;
    return found
      ? { id, displayName: found.displayName, contextWindow: found.contextWindow }
      : { id };
  });
  const params: CustomParams = { kind: "custom", providerId, displayName, baseUrl, models };
  if (draft.apiKey !== "") params.apiKey = draft.apiKey;
  if (Object.keys(headers.headers).length > 0) params.headers = headers.headers;
  return { ok: true, params };
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

/** What the limits form holds. */
export interface LimitsDraft {
  /** The context window in tokens, as typed. */
  contextWindow: string;
  /** The levels the model accepts. */
  reasoningEfforts: readonly ReasoningEffort[];
  /** The default level; "" is auto (send none). */
  reasoningEffort: ReasoningEffort | "";
}

// The protocol's ContextWindow bounds (domain/provider.ts).
const CONTEXT_WINDOW_MIN = 1024;
const CONTEXT_WINDOW_MAX = 100_000_000;

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
  const text = draft.contextWindow.trim().replaceAll(/[,_\s]/g, "");
  const contextWindow = /^\d+$/.test(text) ? Number(text) : NaN;
  if (
    !Number.isSafeInteger(contextWindow) || contextWindow < CONTEXT_WINDOW_MIN ||
    contextWindow > CONTEXT_WINDOW_MAX
  ) {
    problems.push({
      field: "contextWindow",
      key: "settings.problem.contextWindow",
      vars: { min: CONTEXT_WINDOW_MIN, max: CONTEXT_WINDOW_MAX },
    });
  }
  const efforts = REASONING_EFFORT_LEVELS.filter((level) => draft.reasoningEfforts.includes(level));
  const effort = draft.reasoningEffort === "" ? null : draft.reasoningEffort;
  if (effort !== null && !efforts.includes(effort)) {
    problems.push({ field: "reasoningEffort", key: "settings.problem.defaultEffort" });
  }
  if (problems.length > 0) return { ok: false, problems };
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
