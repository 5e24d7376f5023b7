/**
 * What a failed tool result tells the user on its card: the tool's own message (the same
 * words the model read), cut to a few lines, and the stable code for "Details".
 *
 * @module
 */
import type { Item } from "@daedalus/client";

/** Lines of the tool's message shown on the card; the rest is in the result's text. */
export const TOOL_ERROR_MAX_LINES = 4;
/** Characters of the tool's message shown on the card. */
export const TOOL_ERROR_MAX_CHARS = 600;

/** A failed result's message and code. */
export interface ToolError {
  /** The tool's message, cut to {@linkcode TOOL_ERROR_MAX_LINES} lines / chars. */
  message: string;
  /** The stable error code (`data.errorCode`), or null when the tool gave none. */
  code: string | null;
}

/**
 * The error of a failed tool result.
 *
 * @param item a tool_result item
 * @returns its message and code, or null when the item is not a failed result
 */
export function toolErrorOf(item: Item): ToolError | null {
  if (item.kind !== "tool_result") return null;
  if (item.data.isError !== true && item.status !== "failed") return null;
  const code = typeof item.data.errorCode === "string" && item.data.errorCode !== ""
    ? item.data.errorCode
    : null;
  const lines = item.content.trim().split("\n");
  let message = lines.slice(0, TOOL_ERROR_MAX_LINES).join("\n");
  let cut = lines.length > TOOL_ERROR_MAX_LINES;
  if (message.length > TOOL_ERROR_MAX_CHARS) {
    message = message.slice(0, TOOL_ERROR_MAX_CHARS);
    cut = true;
  }
  return { message: cut ? `${message.trimEnd()}…` : message, code };
}
