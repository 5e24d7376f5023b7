/**
 * What an approval card previews of the call it asks about, from the call's own arguments
 * (the call has not run, so there is no recorded change yet): for `write` the new content,
 * for `edit` the text replaced and its replacement, for `process_start` the command line
 * and where it runs. Pure and bounded, so a huge write cannot stall the feed.
 *
 * @module
 */
import type { DiffLine } from "./diff_lines.ts";

/** Lines of a write or edit shown in the card; the rest is counted, not shown. */
export const PREVIEW_MAX_LINES = 40;
/** Characters of one previewed line (a minified file is one very long line). */
export const PREVIEW_LINE_MAX_CHARS = 300;
/** Characters of a previewed command line. */
export const PREVIEW_COMMAND_MAX_CHARS = 2000;

/** A card's preview of the waiting call. */
export type ApprovalPreview =
  | {
    kind: "diff";
    path: string;
    /** `write` replaces the whole file; `edit` replaces one string (or each, `replaceAll`). */
    mode: "write" | "edit" | "edit_all";
    lines: DiffLine[];
    /** Lines left out past {@linkcode PREVIEW_MAX_LINES}. */
    hiddenLines: number;
  }
  | { kind: "command"; command: string; cwd: string | null; background: boolean }
  | { kind: "none" };

type Args = Readonly<Record<string, unknown>>;

/**
 * Builds the preview of a waiting call.
 *
 * @param tool the tool id
 * @param args the call's parsed arguments (a tool call item's `data.arguments`)
 * @returns the diff for writes and edits, the command for `process_start`, else none
 */
export function approvalPreview(tool: string, args: unknown): ApprovalPreview {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return { kind: "none" };
  const data = args as Args;
  if (tool === "write") return writePreview(data);
  if (tool === "edit") return editPreview(data);
  if (tool === "process_start") return commandPreview(data);
  return { kind: "none" };
}

function writePreview(data: Args): ApprovalPreview {
  const { path, content } = data;
  if (typeof path !== "string" || typeof content !== "string") return { kind: "none" };
  return bounded(path, "write", textLines(content).map((text) => line("add", text)));
}

function editPreview(data: Args): ApprovalPreview {
  const { path, oldString, newString } = data;
  if (typeof path !== "string" || typeof oldString !== "string") return { kind: "none" };
  if (typeof newString !== "string") return { kind: "none" };
  const lines = [
    ...textLines(oldString).map((text) => line("remove", text)),
    ...textLines(newString).map((text) => line("add", text)),
  ];
  return bounded(path, data.replaceAll === true ? "edit_all" : "edit", lines);
}

function commandPreview(data: Args): ApprovalPreview {
  const { command, cwd } = data;
  if (typeof command !== "string" || command === "") return { kind: "none" };
  return {
    kind: "command",
    command: clip(command, PREVIEW_COMMAND_MAX_CHARS),
    cwd: typeof cwd === "string" && cwd !== "" ? cwd : null,
    background: data.background === true,
  };
}

function bounded(
  path: string,
  mode: "write" | "edit" | "edit_all",
  lines: DiffLine[],
): ApprovalPreview {
  return {
    kind: "diff",
    path,
    mode,
    lines: lines.slice(0, PREVIEW_MAX_LINES),
    hiddenLines: Math.max(0, lines.length - PREVIEW_MAX_LINES),
  };
}

/** The text's lines; a final newline does not start an extra empty line. */
function textLines(text: string): string[] {
  if (text === "") return [];
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((text) => clip(text.replace(/\r$/, ""), PREVIEW_LINE_MAX_CHARS));
}

/** Numbers are left out: the call has not run, so where the lines land is not known. */
function line(kind: "add" | "remove", text: string): DiffLine {
  return { kind, text, oldLine: null, newLine: null };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
