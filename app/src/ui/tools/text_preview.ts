/**
 * The folded view of a long tool text (an output, the arguments): the first lines, and
 * how many more there are behind "Show more". Pure.
 *
 * @module
 */
import { TOOL_PREVIEW_CHARS, TOOL_PREVIEW_LINES, TOOL_SHOWN_MAX_CHARS } from "./limits.ts";

/** A text as shown folded and unfolded. */
export interface TextPreview {
  /** What shows before "Show more". */
  head: string;
  /** What shows after it (the text up to {@linkcode TOOL_SHOWN_MAX_CHARS}). */
  whole: string;
  /** Lines hidden while folded (0: nothing to unfold). */
  hiddenLines: number;
  /** Whether the text was cut even unfolded. */
  cut: boolean;
}

/**
 * Folds a text to {@linkcode TOOL_PREVIEW_LINES} lines / {@linkcode TOOL_PREVIEW_CHARS}
 * characters.
 *
 * @param text the whole text
 * @returns its folded and unfolded forms
 */
export function textPreview(text: string): TextPreview {
  const cut = text.length > TOOL_SHOWN_MAX_CHARS;
  const whole = cut ? `${text.slice(0, TOOL_SHOWN_MAX_CHARS)}…` : text;
  const lines = whole.split("\n");
  let head = lines.slice(0, TOOL_PREVIEW_LINES).join("\n");
  if (head.length > TOOL_PREVIEW_CHARS) head = head.slice(0, TOOL_PREVIEW_CHARS);
  const shownLines = head.split("\n").length;
  const folded = head.length < whole.length;
  // a cut inside a line still hides the rest of that line: count it
  const hiddenLines = folded ? Math.max(1, lines.length - shownLines) : 0;
  return { head: folded ? `${head}…` : head, whole, hiddenLines, cut };
}

/**
 * A tool call's arguments as text: JSON, two-space indented; a string as is.
 *
 * @param args the parsed arguments
 * @returns the text ("" for none)
 */
export function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return "";
  if (typeof args === "string") return args;
  if (typeof args === "object" && Object.keys(args).length === 0) return "";
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}
