/**
 * The contract between the agent loop and a model: one streaming request in, a
 * stream of provider events out. The OpenAI-compatible adapter and the scripted
 * test provider both implement it.
 *
 * @module
 */
import type { ProviderFailureCategory, TokenUsage } from "@daedalus/protocol";

/** A part of a user message: text, or an image inlined as a data URL (never a link). */
export type ProviderContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; url: string };

/** One message of the model input. */
export type ProviderMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ProviderContentPart[] }
  | {
    role: "assistant";
    content: string;
    toolCalls?: { id: string; name: string; arguments: string }[];
    /**
     * The reasoning the model streamed for this step ("" when it streamed none). History
     * sets it on the assistant messages between two user messages where the model called
     * tools: DeepSeek's thinking mode refuses a later request where they lack it (see
     * openai/request.ts); elsewhere it is left out.
     */
    reasoning?: string;
  }
  | { role: "tool"; toolCallId: string; content: string };

/** A tool the model may call. */
export interface ProviderTool {
  /** Tool id. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of its arguments. */
  parameters: Record<string, unknown>;
}

/** One model request. */
export interface ProviderRequest {
  /** The model id. */
  modelId: string;
  /** The input, oldest first. */
  messages: ProviderMessage[];
  /** Tools offered; empty for tool-less calls. */
  tools: ProviderTool[];
  /** Reasoning effort, or null for "auto". */
  reasoningEffort: string | null;
}

/** What a provider streams back. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call"; id: string; name: string; arguments: string }
  | { type: "usage"; usage: TokenUsage }
  | {
    type: "finish";
    responseModelId: string | null;
    requestId: string | null;
    /**
     * The provider's finish reason (`stop`, `tool_calls`, `length`, `content_filter`…),
     * null or absent when it sent none. `length` means the output was cut at the
     * model's output limit: text and tool arguments are incomplete.
     */
    finishReason?: string | null;
  };

/** A model endpoint. */
export interface Provider {
  /** The provider id that `turn.start` names. */
  readonly id: string;
  /** The models it serves. */
  readonly models: readonly string[];
  /**
   * Streams one response. Ends after a `finish` event; throws {@linkcode ProviderError}
   * on failure and stops promptly when `signal` aborts.
   *
   * @param request the model input
   * @param signal cancellation
   * @returns the stream of events
   */
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

/** Details of a {@linkcode ProviderError}, when known. */
export interface ProviderErrorDetails extends ErrorOptions {
  /** Whether retrying may help. */
  retryable?: boolean;
  /** HTTP status. */
  status?: number;
  /** The provider's request id. */
  requestId?: string;
  /** Seconds the provider asked to wait (`retry-after`). */
  retryAfterSec?: number;
  /** What the provider itself said (its error body's message), clipped. */
  providerMessage?: string;
}

/** A classified provider failure; the Run settles as `provider_<category>`. */
export class ProviderError extends Error {
  /** The failure category. */
  readonly category: ProviderFailureCategory;
  /** Whether retrying may help. */
  readonly retryable: boolean;
  /** HTTP status, when there was a response. */
  readonly status: number | undefined;
  /** The provider's request id, when it sent one. */
  readonly requestId: string | undefined;
  /** Seconds the provider asked to wait, when it said. */
  readonly retryAfterSec: number | undefined;
  /** The provider's own words (e.g. "Incorrect API key provided"), when it sent any. */
  readonly providerMessage: string | undefined;

  /**
   * Makes the error.
   *
   * @param category the failure category
   * @param message what happened (never a credential)
   * @param details retryable, status, request id, retry-after and the original error
   */
  constructor(
    category: ProviderFailureCategory,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    super(message, { cause: details.cause });
    this.name = "ProviderError";
    this.category = category;
    this.retryable = details.retryable ?? false;
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryAfterSec = details.retryAfterSec;
    this.providerMessage = details.providerMessage;
  }
}

/**
 * The text of a message's content (image parts left out).
 *
 * @param content a message's content
 * @returns its text
 */
export function messageText(content: string | ProviderContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => part.type === "text" ? part.text : "").join("");
}
