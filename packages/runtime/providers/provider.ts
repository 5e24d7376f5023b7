/**
 * The contract between the agent loop and a model: one streaming request in, a
 * stream of provider events out. The OpenAI-compatible adapter and the scripted
 * test provider both implement it.
 *
 * @module
 */
import type { ProviderFailureCategory, TokenUsage } from "@daedalus/protocol";

/** One message of the model input. */
export type ProviderMessage =
  | { role: "system" | "user"; content: string }
  | {
    role: "assistant";
    content: string;
    toolCalls?: { id: string; name: string; arguments: string }[];
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
  | { type: "finish"; responseModelId: string | null; requestId: string | null };

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

/** A classified provider failure; the Run settles as `provider_<category>`. */
export class ProviderError extends Error {
  /** The failure category. */
  readonly category: ProviderFailureCategory;
  /** Whether retrying may help. */
  readonly retryable: boolean;

  /**
   * @param category the failure category
   * @param message what happened (never a credential)
   * @param options retryable flag and the original error
   */
  constructor(
    category: ProviderFailureCategory,
    message: string,
    options: ErrorOptions & { retryable?: boolean } = {},
  ) {
    super(message, options);
    this.name = "ProviderError";
    this.category = category;
    this.retryable = options.retryable ?? false;
  }
}
