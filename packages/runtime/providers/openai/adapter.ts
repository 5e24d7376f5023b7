/**
 * The OpenAI-compatible provider: one adapter that speaks Chat Completions over SSE
 * for DeepSeek, OpenAI and any custom endpoint (seed §6.5). It classifies every
 * failure, retries what is safe to retry, and keeps credentials out of every error.
 *
 * @module
 */
import {
  type Provider,
  ProviderError,
  type ProviderEvent,
  type ProviderRequest,
} from "../provider.ts";
import { redactorOf, requestHeaders, trimBaseUrl } from "./_endpoint.ts";
import { type ChatCallConfig, ChatCallStream } from "./chat_stream.ts";
import { toProviderError } from "./errors.ts";
import { DEFAULT_PROVIDER_TIMEOUTS, type ProviderTimeouts } from "./exchange.ts";
import { buildChatCompletionsBody } from "./request.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, sleep as defaultSleep } from "./retry.ts";

/** Options of {@linkcode createOpenAICompatibleProvider}. */
export interface OpenAICompatibleOptions {
  /** Provider id. */
  id: string;
  /** API root, e.g. `https://api.deepseek.com/v1` (without `/chat/completions`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never logged, never in errors. */
  apiKey?: string;
  /** Extra headers; their values are treated as secrets too. */
  headers?: Record<string, string>;
  /** The model ids it serves. */
  models: readonly string[];
  /** Deadlines; defaults connect 10 s, headers 30 s, idle 300 s. */
  timeouts?: Partial<ProviderTimeouts>;
  /** Retry policy; defaults 4 request and 5 stream retries, 0.2 s × 2ⁿ up to 5 s. */
  retry?: Partial<RetryPolicy>;
  /** The fetch to use (tests inject one). */
  fetch?: typeof fetch;
  /** How to wait before a retry (tests inject one); must return early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Options resolved once per provider. */
interface AdapterConfig extends ChatCallConfig {
  /** DeepSeek's endpoint: reasoning goes back on every tool-calling message (request.ts). */
  alwaysSendReasoning: boolean;
}

/**
 * Creates a provider for an OpenAI-compatible Chat Completions endpoint.
 *
 * @param options endpoint, credentials, models, timeouts and retry policy
 * @returns the provider
 * @example
 * ```ts
 * const deepseek = createOpenAICompatibleProvider({
 *   id: "deepseek",
 *   baseUrl: "https://api.deepseek.com/v1",
 *   apiKey: Deno.env.get("DEEPSEEK_API_KEY"),
 *   models: ["deepseek-chat"],
 * });
 * ```
 */
export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): Provider {
  const config: AdapterConfig = {
    url: `${trimBaseUrl(options.baseUrl)}/chat/completions`,
    headers: chatHeaders(options),
    timeouts: { ...DEFAULT_PROVIDER_TIMEOUTS, ...options.timeouts },
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    fetch: options.fetch ?? fetch,
    sleep: options.sleep ?? defaultSleep,
    redactor: redactorOf(options.apiKey, options.headers),
    alwaysSendReasoning: isDeepSeekEndpoint(options.baseUrl),
  };
  return {
    id: options.id,
    models: Object.freeze([...options.models]),
    stream: (request, signal) => chatStream(config, request, signal),
  };
}

function isDeepSeekEndpoint(baseUrl: string): boolean {
  try {
    return /(^|\.)deepseek\.com$/i.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

function chatHeaders(options: OpenAICompatibleOptions): Headers | ProviderError {
  try {
    return requestHeaders(
      { accept: "text/event-stream", "content-type": "application/json" },
      options.apiKey,
      options.headers,
    );
  } catch (error) {
    // Reported by each call rather than here, so one bad provider cannot stop the registry.
    return toProviderError(error);
  }
}

/**
 * One call's events. The request's parts are made here; a failure to make them is the
 * stream's failure, thrown at its first step like a failure of the request.
 */
function chatStream(
  config: AdapterConfig,
  request: ProviderRequest,
  signal: AbortSignal,
): AsyncIterable<ProviderEvent> {
  const { headers } = config;
  if (headers instanceof ProviderError) return failedStream(headers);
  let body: string;
  try {
    body = JSON.stringify(buildChatCompletionsBody(request, {
      alwaysSendReasoning: config.alwaysSendReasoning,
    }));
  } catch (error) {
    return failedStream(config.redactor.redactError(toProviderError(error)));
  }
  return new ChatCallStream({ config, headers, body, signal });
}

function failedStream(error: ProviderError): AsyncIterable<ProviderEvent> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}
