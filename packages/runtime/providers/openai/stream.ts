/**
 * Chat Completions stream chunks as provider events. Text and reasoning deltas are
 * passed on at once (a `<think>` block at the start of the text becomes reasoning:
 * think_tags.ts); tool-call fragments are accumulated by `index` (id and name on
 * the first fragment, arguments concatenated) and emitted whole when the stream ends,
 * followed by the usage and the finish with its finish reason.
 *
 * Usage arrives where each server puts it: OpenAI and DeepSeek in a last chunk with
 * `choices: []` (OpenAI only with `stream_options.include_usage`), vLLM and llama.cpp
 * in the last chunk, some servers on every chunk; the last one seen wins.
 *
 * @module
 */
import type { TokenUsage } from "@daedalus/protocol";
import type { ProviderEvent } from "../provider.ts";
import { errorFromStreamFrame, protocolError } from "./errors.ts";
import { REASONING_MAX_CHARS, TOOL_ARGUMENTS_MAX_CHARS, TOOL_CALLS_MAX } from "./limits.ts";
import { type SplitContent, ThinkTagSplitter } from "./think_tags.ts";

/** A tool call being assembled from its fragments. */
interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

type Json = Record<string, unknown>;

/** Turns the data of each SSE event of one response into provider events. */
export class ChatStreamDecoder {
  readonly #toolCalls = new Map<number, PendingToolCall>();
  #lastToolIndex = -1;
  #argumentChars = 0;
  #reasoningChars = 0;
  #content = false;
  #finishReason: string | null = null;
  #usage: TokenUsage | null = null;
  #model: string | null = null;
  #chunkId: string | null = null;
  readonly #think = new ThinkTagSplitter();

  /** Whether model content (text, reasoning or a tool-call fragment) has arrived. */
  get hasContent(): boolean {
    return this.#content;
  }

  /** The finish reason, once a chunk carried one. */
  get finishReason(): string | null {
    return this.#finishReason;
  }

  /**
   * Decodes the data of one event (not `[DONE]`).
   *
   * @param data the event's data
   * @param requestId the request id, for an error frame
   * @returns the text and reasoning deltas to pass on now
   * @throws {ProviderError} the classified failure of an error frame; `protocol` when
   *   the chunk is not JSON or reasoning or tool arguments outgrow their limits
   */
  accept(data: string, requestId: string | null = null): ProviderEvent[] {
    if (data.trim() === "") return [];
    const chunk = parseChunk(data);
    if ("error" in chunk && chunk.error !== null && chunk.error !== undefined) {
      throw errorFromStreamFrame(chunk.error, requestId ?? stringOr(chunk.id, null));
    }
    // vLLM's streamed ErrorResponse is the error object itself: {"object":"error","message",…}.
    if (chunk.object === "error") throw errorFromStreamFrame(chunk, requestId);
    this.#model = stringOr(chunk.model, null) || this.#model;
    this.#chunkId ??= stringOr(chunk.id, null) || null;
    if (isRecord(chunk.usage)) this.#usage = toTokenUsage(chunk.usage);
    const choice = firstChoice(chunk.choices);
    if (!choice) return [];
    if (typeof choice.finish_reason === "string") this.#finishReason = choice.finish_reason;
    return isRecord(choice.delta) ? this.#acceptDelta(choice.delta) : [];
  }

  /**
   * Ends the response: the accumulated tool calls, the usage (when reported) and the
   * finish.
   *
   * @param requestId the request id from the response headers, if any (else the chunk id)
   * @param sawDone whether the stream ended with `data: [DONE]`
   * @returns the closing events
   * @throws {ProviderError} `protocol` (retryable) when the stream ended without a
   *   finish reason or `[DONE]`; `protocol` when a tool call has no name
   */
  complete(requestId: string | null, sawDone: boolean): ProviderEvent[] {
    if (!sawDone && this.#finishReason === null) {
      throw protocolError("The stream ended before the response finished", true);
    }
    const events: ProviderEvent[] = this.#split(this.#think.end());
    const indexes = [...this.#toolCalls.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const call = this.#toolCalls.get(index);
      if (!call) continue;
      if (!call.name) throw protocolError(`Tool call ${index} of the stream has no name`);
      events.push({
        type: "tool_call",
        id: call.id || `call_${index}`,
        name: call.name,
        // A tool without parameters may stream no arguments at all.
        arguments: call.arguments === "" ? "{}" : call.arguments,
      });
    }
    if (this.#usage) events.push({ type: "usage", usage: this.#usage });
    events.push({
      type: "finish",
      responseModelId: this.#model,
      requestId: requestId ?? this.#chunkId,
      finishReason: this.#finishReason,
    });
    return events;
  }

  /**
   * Decodes a whole `chat.completion` object: the JSON answer some servers send to a
   * streaming request (a proxy that buffers, a server that ignores `stream`). Its
   * message is taken as one delta, so it is split and limited like a stream.
   *
   * @param completion the parsed body
   * @param requestId the request id from the response headers, if any
   * @returns every event of the answer, the finish last
   * @throws {ProviderError} `protocol` when it has no choice with a message
   */
  acceptCompletion(completion: Json, requestId: string | null): ProviderEvent[] {
    const choice = firstChoice(completion.choices);
    if (!choice || !isRecord(choice.message)) {
      throw protocolError("The provider's JSON answer has no message");
    }
    const message = choice.message;
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    const delta = {
      ...message,
      // A complete message's calls carry no index; their order is their index.
      tool_calls: calls.map((call, index) => isRecord(call) ? { index, ...call } : call),
    };
    const chunk = {
      ...completion,
      choices: [{ index: 0, delta, finish_reason: choice.finish_reason }],
    };
    return [...this.accept(JSON.stringify(chunk), requestId), ...this.complete(requestId, true)];
  }

  #split(split: SplitContent): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    if (split.reasoning) events.push(this.#reasoning(split.reasoning));
    if (split.text) events.push({ type: "text_delta", text: split.text });
    return events;
  }

  #reasoning(text: string): ProviderEvent {
    this.#reasoningChars += text.length;
    if (this.#reasoningChars > REASONING_MAX_CHARS) {
      throw protocolError(`The reasoning is longer than ${REASONING_MAX_CHARS} characters`);
    }
    return { type: "reasoning_delta", text };
  }

  #acceptDelta(delta: Json): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    // DeepSeek names it reasoning_content; OpenRouter and some vLLM builds name it reasoning.
    const reasoning = stringOr(delta.reasoning_content, "") || stringOr(delta.reasoning, "");
    if (reasoning) {
      this.#content = true;
      events.push(this.#reasoning(reasoning));
    }
    const text = stringOr(delta.content, "");
    if (text) {
      this.#content = true;
      events.push(...this.#split(this.#think.push(text)));
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const fragment of delta.tool_calls) {
        if (isRecord(fragment)) this.#acceptToolFragment(fragment);
      }
    }
    return events;
  }

  #acceptToolFragment(fragment: Json): void {
    const index = this.#indexOf(fragment);
    let call = this.#toolCalls.get(index);
    if (!call) {
      if (this.#toolCalls.size >= TOOL_CALLS_MAX) {
        throw protocolError(`The response has more than ${TOOL_CALLS_MAX} tool calls`);
      }
      call = { id: "", name: "", arguments: "" };
      this.#toolCalls.set(index, call);
    }
    this.#lastToolIndex = index;
    this.#content = true;
    const fn = isRecord(fragment.function) ? fragment.function : {};
    call.id ||= stringOr(fragment.id, "");
    call.name ||= stringOr(fn.name, "");
    const piece = stringOr(fn.arguments, "");
    this.#argumentChars += piece.length;
    if (this.#argumentChars > TOOL_ARGUMENTS_MAX_CHARS) {
      throw protocolError(
        `The tool arguments are longer than ${TOOL_ARGUMENTS_MAX_CHARS} characters`,
      );
    }
    call.arguments += piece;
  }

  /** The fragment's index; providers that omit it start a new call with each new id. */
  #indexOf(fragment: Json): number {
    if (Number.isSafeInteger(fragment.index) && (fragment.index as number) >= 0) {
      return fragment.index as number;
    }
    const id = stringOr(fragment.id, "");
    const last = this.#toolCalls.get(this.#lastToolIndex);
    if (last && (!id || id === last.id)) return this.#lastToolIndex;
    return this.#lastToolIndex + 1;
  }
}

/**
 * The usage of a Chat Completions usage object.
 *
 * @param usage the chunk's `usage`
 * @returns the token usage (cached and reasoning counts null when not reported)
 */
export function toTokenUsage(usage: Json): TokenUsage {
  const inputTokens = countOr(usage.prompt_tokens, 0);
  const outputTokens = countOr(usage.completion_tokens, 0);
  const promptDetails = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : {};
  return {
    inputTokens,
    // DeepSeek reports cache hits as prompt_cache_hit_tokens.
    cachedInputTokens: countOr(promptDetails.cached_tokens, null) ??
      countOr(usage.prompt_cache_hit_tokens, null),
    outputTokens,
    reasoningOutputTokens: countOr(completionDetails.reasoning_tokens, null),
    totalTokens: countOr(usage.total_tokens, inputTokens + outputTokens),
  };
}

function parseChunk(data: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw protocolError("A stream event is not valid JSON");
  }
  if (!isRecord(parsed)) throw protocolError("A stream event is not a JSON object");
  return parsed;
}

function firstChoice(choices: unknown): Json | undefined {
  if (!Array.isArray(choices)) return undefined;
  const records = choices.filter(isRecord);
  return records.find((choice) => choice.index === 0) ?? records[0];
}

function countOr<T extends number | null>(value: unknown, fallback: T): number | T {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : fallback;
}

function stringOr<T extends string | null>(value: unknown, fallback: T): string | T {
  return typeof value === "string" ? value : fallback;
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
