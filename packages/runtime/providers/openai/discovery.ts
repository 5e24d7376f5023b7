/**
 * Model discovery: `GET {baseUrl}/models` under the provider timeouts and error
 * classification, with a bounded body (≤ 1 MB) and at most 1,000 models taken.
 *
 * @module
 */
import { IDENTIFIER_MAX_CHARS } from "@daedalus/protocol";
import { redactorOf, requestHeaders, trimBaseUrl } from "./_endpoint.ts";
import { errorFromResponse, protocolError, toProviderError } from "./errors.ts";
import { DEFAULT_PROVIDER_TIMEOUTS, Exchange, type ProviderTimeouts } from "./exchange.ts";
import { DISCOVERY_BODY_MAX_BYTES, DISCOVERY_MODELS_MAX, ERROR_BODY_MAX_BYTES } from "./limits.ts";

/** Options of {@linkcode discoverModels}. */
export interface DiscoverModelsOptions {
  /** API root, e.g. `https://api.deepseek.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never in errors. */
  apiKey?: string;
  /** Extra headers; their values are treated as secrets too. */
  headers?: Record<string, string>;
  /** The fetch to use. */
  fetch?: typeof fetch;
  /** Deadlines; the provider defaults otherwise. */
  timeouts?: Partial<ProviderTimeouts>;
  /** Cancellation. */
  signal?: AbortSignal;
}

/** One discovered model. */
export interface DiscoveredModel {
  /** The model id. */
  id: string;
  /** A name to show; the id, since `/models` carries no better one. */
  displayName: string;
  /** The context window in tokens, when the provider tells it. */
  contextWindow: number | null;
}

/**
 * Lists the models an endpoint serves.
 *
 * @param options endpoint, credentials, timeouts and signal
 * @returns the first 1,000 models with a usable id, in the provider's order
 * @throws {ProviderError} classified like a model call; `protocol` when the body is
 *   larger than 1 MB or not a model list
 * @example
 * ```ts
 * const models = await discoverModels({ baseUrl: "http://127.0.0.1:11434/v1" });
 * ```
 */
export async function discoverModels(options: DiscoverModelsOptions): Promise<DiscoveredModel[]> {
  const redactor = redactorOf(options.apiKey, options.headers);
  const exchange = new Exchange(
    options.fetch ?? fetch,
    { ...DEFAULT_PROVIDER_TIMEOUTS, ...options.timeouts },
    options.signal ?? new AbortController().signal,
  );
  try {
    const response = await exchange.open(`${trimBaseUrl(options.baseUrl)}/models`, {
      method: "GET",
      headers: requestHeaders({ accept: "application/json" }, options.apiKey, options.headers),
    });
    if (!response.ok) {
      const { text } = await exchange.readText(response, ERROR_BODY_MAX_BYTES);
      throw errorFromResponse(response.status, response.headers, text);
    }
    const { text, complete } = await exchange.readText(response, DISCOVERY_BODY_MAX_BYTES);
    if (!complete) {
      throw protocolError(`The model list is larger than ${DISCOVERY_BODY_MAX_BYTES} bytes`);
    }
    return parseModelList(text);
  } catch (error) {
    throw redactor.redactError(toProviderError(error));
  } finally {
    exchange.close();
  }
}

/**
 * Parses a `/models` body: `{ data: [{ id, context_length? | context_window? }] }`.
 * Entries without a usable id are skipped; repeated ids are kept once.
 *
 * @param text the body
 * @returns at most {@linkcode DISCOVERY_MODELS_MAX} models
 * @throws {ProviderError} `protocol` when the body is not a model list
 */
export function parseModelList(text: string): DiscoveredModel[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw protocolError("The model list is not valid JSON");
  }
  const data = isRecord(parsed) ? parsed.data : undefined;
  if (!Array.isArray(data)) throw protocolError("The model list has no data array");
  const models = new Map<string, DiscoveredModel>();
  for (const entry of data.slice(0, DISCOVERY_MODELS_MAX)) {
    if (!isRecord(entry) || typeof entry.id !== "string") continue;
    const id = entry.id;
    if (id === "" || id.length > IDENTIFIER_MAX_CHARS || models.has(id)) continue;
    const window = entry.context_length ?? entry.context_window;
    models.set(id, {
      id,
      displayName: id,
      contextWindow: Number.isSafeInteger(window) && (window as number) > 0
        ? window as number
        : null,
    });
  }
  return [...models.values()];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
