/**
 * One model call of the OpenAI-compatible adapter as the stream of its events: the
 * request, each retry that is safe (retry.ts), and the response read chunk by chunk
 * (SSE, or a whole JSON answer) into provider events.
 *
 * It is an async iterator written out rather than a chain of async generators: a
 * streamed answer arrives in thousands of chunks of one delta each, and every generator
 * between the body and the agent loop added a suspension and two promises per delta.
 * Measured in process on the 2,000-delta answer of the tool-turn benchmark, the body
 * read alone is ~35 ms and the three generators (body, attempt, retries) with an
 * async `yield*` over each chunk's events added ~45 ms more; here a chunk costs the
 * body read's own promise and one more, and the events of a chunk are handed out from
 * an array without any.
 *
 * @module
 */
import type { ProviderError, ProviderEvent } from "../provider.ts";
import {
  errorFromResponse,
  errorFromStreamFrame,
  protocolError,
  toProviderError,
} from "./errors.ts";
import { type BodyChunks, cancelledError, Exchange, type ProviderTimeouts } from "./exchange.ts";
import { ERROR_BODY_MAX_BYTES, JSON_ANSWER_MAX_BYTES } from "./limits.ts";
import type { SecretRedactor } from "./redact.ts";
import { type CallProgress, nextRetryDelayMs, type RetryCount, type RetryPolicy } from "./retry.ts";
import { SseParser } from "./sse.ts";
import { ChatStreamDecoder } from "./stream.ts";

/** What every call of one provider shares, resolved when the provider is made. */
export interface ChatCallConfig {
  /** The `/chat/completions` URL. */
  url: string;
  /** The request headers, or why the configured ones cannot be sent. */
  headers: Headers | ProviderError;
  /** The deadlines. */
  timeouts: ProviderTimeouts;
  /** The retry policy. */
  retry: RetryPolicy;
  /** The fetch to use. */
  fetch: typeof fetch;
  /** How to wait before a retry; returns early when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Keeps the credentials out of errors and headers. */
  redactor: SecretRedactor;
}

/** One call's request: what every attempt of it sends, and the caller's cancellation. */
export interface ChatRequest {
  /** The provider's shared settings. */
  config: ChatCallConfig;
  /** The request headers. */
  headers: Headers;
  /** The request body (JSON text). */
  body: string;
  /** The caller's cancellation. */
  signal: AbortSignal;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The events of one call, retried as the policy allows. Iterate it once; stopping early
 * (break, return) cancels the request or its body.
 */
export class ChatCallStream implements AsyncIterableIterator<ProviderEvent> {
  readonly #request: ChatRequest;
  readonly #count: RetryCount = { request: 0, stream: 0 };
  /** Events received and not yet handed out, from {@linkcode ChatCallStream.#next}. */
  #events: ProviderEvent[] = [];
  #nextEvent = 0;
  #attempt: StreamAttempt | null = null;
  #finished = false;

  /** @param request what to send, with the caller's cancellation */
  constructor(request: ChatRequest) {
    this.#request = request;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next event; the stream's end after the finish. */
  next(): Promise<IteratorResult<ProviderEvent>> {
    if (this.#nextEvent < this.#events.length) {
      return Promise.resolve({ done: false, value: this.#events[this.#nextEvent++]! });
    }
    if (this.#finished) return Promise.resolve(DONE);
    return this.#next();
  }

  /** Stops the call: what is still open is cancelled. */
  async return(): Promise<IteratorResult<ProviderEvent>> {
    this.#finish();
    await this.#attempt?.close();
    this.#attempt = null;
    return DONE;
  }

  /** Reads until there are events to hand out, retrying a failed attempt when safe. */
  async #next(): Promise<IteratorResult<ProviderEvent>> {
    while (true) {
      let events: ProviderEvent[] | null;
      const attempt = this.#attempt ??= new StreamAttempt(this.#request);
      try {
        events = await attempt.next();
      } catch (thrown) {
        await attempt.close();
        this.#attempt = null;
        await this.#retryOrThrow(thrown, attempt.progress);
        continue;
      }
      if (events === null) {
        await attempt.close();
        this.#attempt = null;
        this.#finish();
        return DONE;
      }
      if (events.length === 0) continue;
      this.#events = events;
      this.#nextEvent = 1;
      return { done: false, value: events[0]! };
    }
  }

  /** Waits before the next attempt, or throws the failure when it may not be retried. */
  async #retryOrThrow(thrown: unknown, progress: CallProgress): Promise<void> {
    const { config, signal } = this.#request;
    const error = config.redactor.redactError(
      signal.aborted ? cancelledError() : toProviderError(thrown),
    );
    const delayMs = nextRetryDelayMs(error, progress, this.#count, config.retry);
    if (delayMs === null) {
      this.#finish();
      throw error;
    }
    await config.sleep(delayMs, signal);
    if (signal.aborted) {
      this.#finish();
      throw cancelledError();
    }
  }

  #finish(): void {
    this.#finished = true;
    this.#events = [];
    this.#nextEvent = 0;
  }
}

/** One HTTP exchange of a call: its response's events, a chunk's worth at a time. */
class StreamAttempt {
  /** What this attempt reached, for the retry decision. */
  readonly progress: CallProgress = { responded: false, content: false };
  readonly #request: ChatRequest;
  readonly #exchange: Exchange;
  readonly #decoder = new ChatStreamDecoder();
  readonly #parser = new SseParser();
  readonly #text = new TextDecoder();
  #requestId: string | null = null;
  #chunks: BodyChunks | null = null;
  #ended = false;

  constructor(request: ChatRequest) {
    this.#request = request;
    const { config, signal } = request;
    this.#exchange = new Exchange(config.fetch, config.timeouts, signal);
  }

  /**
   * The events of the next part of the response: the first call sends the request, each
   * later one reads one chunk of the body (possibly no events); null after the finish.
   *
   * @throws {ProviderError} (or what fetch threw) when the attempt fails
   */
  async next(): Promise<ProviderEvent[] | null> {
    if (this.#ended) return null;
    if (this.#chunks === null) {
      const opened = await this.#open();
      if (Array.isArray(opened)) return this.#end(opened);
      this.#chunks = opened;
    }
    const bytes = await this.#chunks.next();
    if (bytes === null) {
      this.#parser.push(this.#text.decode());
      this.#parser.end();
      return this.#end(this.#decoder.complete(this.#requestId, false));
    }
    const events: ProviderEvent[] = [];
    for (const data of this.#parser.push(this.#text.decode(bytes, { stream: true }))) {
      if (data.trim() === "[DONE]") {
        events.push(...this.#decoder.complete(this.#requestId, true));
        return this.#end(events);
      }
      for (const event of this.#decoder.accept(data, this.#requestId)) events.push(event);
      this.progress.content ||= this.#decoder.hasContent;
    }
    return events;
  }

  /** Ends the exchange; what is left of the body is cancelled. */
  async close(): Promise<void> {
    this.#ended = true;
    const chunks = this.#chunks;
    this.#chunks = null;
    try {
      await chunks?.close();
    } finally {
      this.#exchange.close();
    }
  }

  /**
   * Sends the request.
   *
   * @returns the body's chunks of a streamed answer; every event of a JSON answer, which
   *   is read whole here
   */
  async #open(): Promise<BodyChunks | ProviderEvent[]> {
    const { config, headers, body } = this.#request;
    const response = await this.#exchange.open(config.url, { method: "POST", headers, body });
    // A response header is the provider's text: a proxy may echo the key in it.
    const requestId = response.headers.get("x-request-id");
    this.#requestId = requestId === null ? null : config.redactor.redact(requestId);
    if (!response.ok) {
      const { text } = await this.#exchange.readText(response, ERROR_BODY_MAX_BYTES);
      throw errorFromResponse(response.status, response.headers, text);
    }
    if (isJson(response)) {
      const completion = await jsonAnswer(this.#exchange, response, this.#requestId);
      this.progress.responded = true;
      const events = this.#decoder.acceptCompletion(completion, this.#requestId);
      this.progress.content ||= this.#decoder.hasContent;
      return events;
    }
    this.progress.responded = true;
    return this.#exchange.body(response);
  }

  #end(events: ProviderEvent[]): ProviderEvent[] {
    this.#ended = true;
    return events;
  }
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
