/**
 * Reading an AG-UI RunAgentInput (already checked with the official schema): what a
 * request asks Daedalus to do — answer a waiting Run's client-side calls (trailing `tool`
 * messages), answer its approval (`resume` entries), or start a turn with the last user
 * message — and the small conversions each needs. Pure.
 *
 * @module
 */
import type { ApprovalDecision } from "@daedalus/protocol";

/** A `tool` message's result for a client-side call. */
export interface ToolResultMessage {
  /** The call it answers (the `tool_call` item id the run streamed). */
  toolCallId: string;
  /** The result as text (parts are sent as their JSON). */
  content: string;
  /** Set when the tool failed. */
  error?: string;
}

/**
 * The `tool` messages at the end of the conversation (after the last message of any other
 * role): the results of the calls the last run left to the client.
 *
 * @param messages the input's messages
 * @returns the results, in order
 */
export function trailingToolResults(messages: readonly { role: string }[]): ToolResultMessage[] {
  const out: ToolResultMessage[] = [];
  for (let at = messages.length - 1; at >= 0 && messages[at]!.role === "tool"; at--) {
    const message = messages[at] as unknown as ToolResultMessage & { content: unknown };
    out.unshift({
      toolCallId: message.toolCallId,
      content: typeof message.content === "string"
        ? message.content
        : JSON.stringify(message.content),
      ...(message.error ? { error: message.error } : {}),
    });
  }
  return out;
}

/**
 * A client tool's JSON Schema: AG-UI allows any value; the model needs an object.
 *
 * @param parameters the tool's `parameters`
 * @returns an object schema
 */
export function toolParameters(parameters: unknown): Record<string, unknown> {
  return typeof parameters === "object" && parameters !== null && !Array.isArray(parameters)
    ? parameters as Record<string, unknown>
    : { type: "object", properties: {} };
}

/**
 * A user message's text: the string, or its text parts joined.
 *
 * @param content the message's content
 * @returns the text
 */
export function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((part) => part?.type === "text").map((part) => String(part.text))
    .join("\n");
}

/** An answer to an approval, from a `resume` entry. */
export interface ApprovalAnswer {
  /** The decision. */
  decision: ApprovalDecision;
  /** The person's words, if any. */
  message?: string;
  /** The answer to an `ask_user` question (text, or the picked choices). */
  answer?: string | string[];
}

/**
 * What a `resume` entry answers an approval with: `cancelled` denies; `resolved` takes
 * the payload's `decision` when the approval offers it, else allows once; a payload's
 * `message` goes with it, and its `answer` (an `ask_user` question's: text or the picked
 * choices) too.
 *
 * @param entry the resume entry
 * @param offered the decisions the approval offers
 * @returns the answer, or null when the payload names a decision it does not offer
 */
export function approvalAnswer(
  entry: { status: "resolved" | "cancelled"; payload?: unknown },
  offered: readonly ApprovalDecision[],
): ApprovalAnswer | null {
  const payload = typeof entry.payload === "object" && entry.payload !== null
    ? entry.payload as { decision?: unknown; message?: unknown; answer?: unknown }
    : {};
  const said = payload.answer;
  const answer = typeof said === "string" ||
      (Array.isArray(said) && said.every((choice) => typeof choice === "string"))
    ? { answer: said as string | string[] }
    : {};
  const message = {
    ...(typeof payload.message === "string" && payload.message !== ""
      ? { message: payload.message }
      : {}),
    ...answer,
  };
  if (entry.status === "cancelled") return { decision: "deny", ...message };
  if (payload.decision === undefined) {
    return offered.includes("allow_once") ? { decision: "allow_once", ...message } : null;
  }
  const named = offered.find((decision) => decision === payload.decision);
  return named === undefined ? null : { decision: named, ...message };
}
