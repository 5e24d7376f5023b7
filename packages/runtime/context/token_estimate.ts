/**
 * A conservative token estimate (`conservative-utf8-upper-bound-v2`): no tokenizer
 * emits more tokens than the text has UTF-8 bytes, so the byte count bounds the
 * token count from above; images count a fixed 2,048. It only keeps inputs safely
 * inside the window — billing uses what the provider reports.
 *
 * @module
 */
import type { ProviderMessage, ProviderTool } from "../providers/provider.ts";
import { IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from "./limits.ts";

const encoder = new TextEncoder();

/** The estimator's name, recorded in each StepInput. */
export const TOKEN_ESTIMATOR = "conservative-utf8-upper-bound-v2";

/**
 * Upper bound of the tokens of a text.
 *
 * @param text any text
 * @returns its UTF-8 byte length
 */
export function estimateTextTokens(text: string): number {
  // ASCII-only text: one byte per code unit, no encoding needed.
  // deno-lint-ignore no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

/**
 * Upper bound of the tokens of one message.
 *
 * @param message a model message
 * @returns its estimate
 */
export function estimateMessageTokens(message: ProviderMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === "string") tokens += estimateTextTokens(message.content);
  else {
    for (const part of message.content) {
      tokens += part.type === "text" ? estimateTextTokens(part.text) : IMAGE_TOKENS;
    }
  }
  if (message.role === "assistant") {
    // History keeps reasoning only where it is sent back (history.ts, openai/request.ts).
    tokens += estimateTextTokens(message.reasoning ?? "");
    for (const call of message.toolCalls ?? []) {
      tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(call.name) +
        estimateTextTokens(call.arguments);
    }
  }
  return tokens;
}

/**
 * Upper bound of the tokens of several messages.
 *
 * @param messages model messages
 * @returns the sum of their estimates
 */
export function estimateMessagesTokens(messages: readonly ProviderMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** Estimates of tool lists already measured, by list (a frozen list never changes). */
const toolsEstimates = new WeakMap<readonly ProviderTool[], number>();

/**
 * Upper bound of the tokens the offered tools take: every request carries each tool's
 * name, description and JSON Schema (the 21 built-in tools are ~8.9 KB), as the
 * Chat Completions body serializes them.
 *
 * @param tools the tools offered with the request
 * @returns the sum of their serialized sizes and framing
 */
export function estimateToolsTokens(tools: readonly ProviderTool[]): number {
  // A Run offers the same (frozen) tool list on every call: it is measured once.
  const known = toolsEstimates.get(tools);
  if (known !== undefined) return known;
  let total = 0;
  for (const { name, description, parameters } of tools) {
    const wire = { type: "function", function: { name, description, parameters } };
    total += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(JSON.stringify(wire));
  }
  toolsEstimates.set(tools, total);
  return total;
}
