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
  | {
    role: "assistant";
    content: string | null;
    tool_calls?: ChatToolCall[];
    reasoning_content?: string;
  }
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

/** How the body is built for one endpoint. */
export interface ChatBodyOptions {
  /**
   * Sends `reasoning_content` on every assistant message with tool calls even when no
   * message of the request carries reasoning (the DeepSeek endpoint, where thinking
   * mode is the default).
   */
  alwaysSendReasoning?: boolean;
}

/**
 * Builds the request body.
 *
 * `reasoning_content` goes back on the assistant messages that carry `reasoning` (history
 * keeps it, "" included, on every assistant message between two user messages where the
 * model called tools, and nowhere else: context/history.ts), and on every message with
 * tool calls ("" when it has none) for DeepSeek's endpoint; but only when the endpoint is
 * DeepSeek's or some message of the request carries non-empty reasoning, never
 * otherwise. Verified (2026-12): DeepSeek's thinking mode
 * (api-docs.deepseek.com/guides/thinking_mode) requires it, in all later requests, for
 * the assistant messages of a stretch with tool calls and answers 400 "The
 * reasoning_content in the thinking mode must be passed back to the API" without it;
 * elsewhere it "is ignored". llama.cpp reads `reasoning_content` of input messages
 * (common/chat.cpp `common_chat_msgs_parse_oaicompat`), and vLLM's message param allows
 * it (`CustomChatCompletionMessageParam`, `extra="allow"`, "assistant messages with
 * `reasoning` / `reasoning_content`"; its ConversationMessage carries it). But strict
 * servers refuse the unknown key (Cerebras: 400 "property
 * 'messages.2.assistant.reasoning_content' is unsupported"; StepFun "Unrecognized chat
 * message"), and OpenAI documents no such input field, so a conversation that never had
 * reasoning never sends it. A thread that switches from a reasoning model to a strict
 * server keeps the earlier reasoning in its history and may be refused there; starting
 * a new thread avoids it.
 *
 * @param request the model request
 * @param options per-endpoint choices
 * @returns the Chat Completions body
 * @throws {ProviderError} `protocol` when an image is not inlined as a `data:` URL
 */
export function buildChatCompletionsBody(
  request: ProviderRequest,
  options: ChatBodyOptions = {},
): ChatCompletionsBody {
  const sendReasoning = options.alwaysSendReasoning === true ||
    request.messages.some((message) => message.role === "assistant" && !!message.reasoning);
  const body: ChatCompletionsBody = {
    model: request.modelId,
    messages: request.messages.map((message) => toChatMessage(message, sendReasoning)),
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

function toChatMessage(message: ProviderMessage, sendReasoning: boolean): ChatMessage {
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
      const reasoning = sendReasoning && (message.reasoning !== undefined || calls.length > 0)
        ? { reasoning_content: message.reasoning ?? "" }
        : {};
      if (calls.length === 0) return { role: "assistant", content: message.content, ...reasoning };
      return {
        role: "assistant",
        // With tool calls, an empty answer is sent as null, as the API documents it.
        content: message.content === "" ? null : message.content,
        ...reasoning,
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
