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
import {
  errorFromResponse,
  errorFromStreamFrame,
  protocolError,
  toProviderError,
} from "./errors.ts";
import {
  cancelledError,
  DEFAULT_PROVIDER_TIMEOUTS,
  Exchange,
  type ProviderTimeouts,
} from "./exchange.ts";
import { ERROR_BODY_MAX_BYTES, JSON_ANSWER_MAX_BYTES } from "./limits.ts";
import type { SecretRedactor } from "./redact.ts";
import { buildChatCompletionsBody } from "./request.ts";
import {
  type CallProgress,
  DEFAULT_RETRY_POLICY,
  nextRetryDelayMs,
  type RetryCount,
  type RetryPolicy,
  sleep as defaultSleep,
} from "./retry.ts";
import { SseParser } from "./sse.ts";
import { ChatStreamDecoder } from "./stream.ts";

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
interface AdapterConfig {
  url: string;
  /** The request headers, or why the configured ones cannot be sent. */
  headers: Headers | ProviderError;
  timeouts: ProviderTimeouts;
  retry: RetryPolicy;
  fetch: typeof fetch;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  redactor: SecretRedactor;
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
    stream: (request, signal) => streamWithRetries(config, request, signal),
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

async function* streamWithRetries(
  config: AdapterConfig,
  request: ProviderRequest,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const count: RetryCount = { request: 0, stream: 0 };
  const { headers } = config;
  if (headers instanceof ProviderError) throw headers;
  let body: string;
  try {
    body = JSON.stringify(buildChatCompletionsBody(request, {
      alwaysSendReasoning: config.alwaysSendReasoning,
    }));
  } catch (error) {
    throw config.redactor.redactError(toProviderError(error));
  }
  while (true) {
    const progress: CallProgress = { responded: false, content: false };
    try {
      yield* streamOnce(config, headers, body, signal, progress);
      return;
    } catch (thrown) {
      const error = config.redactor.redactError(
        signal.aborted ? cancelledError() : toProviderError(thrown),
      );
      const delayMs = nextRetryDelayMs(error, progress, count, config.retry);
      if (delayMs === null) throw error;
      await config.sleep(delayMs, signal);
      if (signal.aborted) throw cancelledError();
    }
  }
}

async function* streamOnce(
  config: AdapterConfig,
  headers: Headers,
  body: string,
  signal: AbortSignal,
  progress: CallProgress,
): AsyncGenerator<ProviderEvent> {
  const exchange = new Exchange(config.fetch, config.timeouts, signal);
  try {
    const response = await exchange.open(config.url, {
      method: "POST",
      headers,
      body,
    });
    // A response header is the provider's text: a proxy may echo the key in it.
    const requestId = redactedHeader(config.redactor, response.headers.get("x-request-id"));
    if (!response.ok) {
      const { text } = await exchange.readText(response, ERROR_BODY_MAX_BYTES);
      throw errorFromResponse(response.status, response.headers, text);
    }
    const decoder = new ChatStreamDecoder();
    if (isJson(response)) {
      const completion = await jsonAnswer(exchange, response, requestId);
      progress.responded = true;
      const events = decoder.acceptCompletion(completion, requestId);
      progress.content ||= decoder.hasContent;
      yield* events;
      return;
    }
    progress.responded = true;
    const parser = new SseParser();
    const text = new TextDecoder();
    let sawDone = false;
    reading: for await (const bytes of exchange.read(response)) {
      for (const data of parser.push(text.decode(bytes, { stream: true }))) {
        if (data.trim() === "[DONE]") {
          sawDone = true;
          break reading;
        }
        const events = decoder.accept(data, requestId);
        progress.content ||= decoder.hasContent;
        yield* events;
      }
    }
    if (!sawDone) {
      parser.push(text.decode());
      parser.end();
    }
    yield* decoder.complete(requestId, sawDone);
  } finally {
    exchange.close();
  }
}

function redactedHeader(redactor: SecretRedactor, value: string | null): string | null {
  return value === null ? null : redactor.redact(value);
}

function isJson(response: Response): boolean {
  return /^application\/json\b/i.test(response.headers.get("content-type") ?? "");
}

/**
 * A successful status with a JSON body instead of a stream: a whole `chat.completion`
 * (servers and proxies that ignore `stream: true` answer so; the OpenAI SDK accepts it
 * too), or an error object sent with status 200.
 *
 * @returns the completion object
 * @throws {ProviderError} the error it carries, or `protocol` when it is neither
 */
async function jsonAnswer(
  exchange: Exchange,
  response: Response,
  requestId: string | null,
): Promise<Record<string, unknown>> {
  const { text, complete } = await exchange.readText(response, JSON_ANSWER_MAX_BYTES);
  if (!complete) {
    throw protocolError(`The provider's JSON answer is larger than ${JSON_ANSWER_MAX_BYTES} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw protocolError("The provider answered with malformed JSON instead of an event stream");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw protocolError("The provider answered with JSON that is not an object");
  }
  const record = parsed as Record<string, unknown>;
  if (record.error !== undefined && record.error !== null) {
    throw errorFromStreamFrame(record.error, requestId);
  }
  if (!Array.isArray(record.choices)) {
    throw protocolError("The provider answered with JSON that is no chat completion");
  }
  return record;
}

export type { ProviderTimeouts } from "./exchange.ts";
export type { RetryPolicy } from "./retry.ts";
