/**
 * A {@linkcode ProviderRequest} as a Chat Completions request body. The body always
 * streams with usage, offers tools only when there are some, asks for a reasoning
 * effort only when one is set, and never limits the output (`max_tokens`): the model's
 * own limit applies.
 *
 * @module
 */
import type { ProviderContentPart, ProviderMessage, ProviderRequest } from "../provider.ts";
import { protocolError } from "./errors.ts";

/** A content part of a Chat Completions user message. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** A tool call of an assistant message, as Chat Completions spells it. */
export interface ChatToolCall {
  /** The call id the tool result refers to. */
  id: string;
  /** Always "function". */
  type: "function";
  /** The tool and its JSON arguments. */
  function: { name: string; arguments: string };
}

/** One Chat Completions message. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** The body of `POST /chat/completions`. */
export interface ChatCompletionsBody {
  /** The model id. */
  model: string;
  /** The input. */
  messages: ChatMessage[];
  /** Always true: the adapter only streams. */
  stream: true;
  /** Asks for the final usage chunk. */
  stream_options: { include_usage: true };
  /** Offered tools, absent when there are none. */
  tools?: {
    type: "function";
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }[];
  /** Present only when the request sets an effort. */
  reasoning_effort?: string;
}

/**
 * Builds the request body.
 *
 * @param request the model request
 * @returns the Chat Completions body
 * @throws {ProviderError} `protocol` when an image is not inlined as a `data:` URL
 */
export function buildChatCompletionsBody(request: ProviderRequest): ChatCompletionsBody {
  const body: ChatCompletionsBody = {
    model: request.modelId,
    messages: request.messages.map(toChatMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.reasoningEffort !== null) body.reasoning_effort = request.reasoningEffort;
  return body;
}

function toChatMessage(message: ProviderMessage): ChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string"
          ? message.content
          : message.content.map(toChatContentPart),
      };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // With tool calls, an empty answer is sent as null, as the API documents it.
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function toChatContentPart(part: ProviderContentPart): ChatContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  // Images are inlined, never linked: a link would make the provider fetch a URL.
  if (!part.url.startsWith("data:")) {
    throw protocolError("An image part must be inlined as a data: URL");
  }
  return { type: "image_url", image_url: { url: part.url } };
}
