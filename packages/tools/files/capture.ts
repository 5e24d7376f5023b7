/**
 * Before/after captures of a file that write or edit changed, and the
 * {@linkcode FileChangeFact} built from them (seed 000 `file.change.get`: each side ≤ 256 KiB
 * and 5,000 lines of text, larger sides keep only their metadata).
 *
 * @module
 */
import type { FileChangeFact, ToolContext } from "../tool.ts";
import {
  CAPTURE_MAX_BYTES,
  CAPTURE_MAX_LINES,
  CHANGE_EVENT_MAX_BYTES,
  DIFF_MAX_BYTES,
} from "../limits.ts";
import { revisionOf } from "./atomic_write.ts";
import { diffLines } from "./diff.ts";

/** Line-ending style of a text. */
export type NewlineStyle = "lf" | "crlf" | "cr" | "mixed" | "none";

/** One side of a file change. */
export interface FileCapture {
  /** Whether the file existed. */
  exists: boolean;
  /** Its size in bytes (0 when missing). */
  byteCount: number;
  /** `sha256:<hex>` of its bytes, null when missing. */
  revision: string | null;
  /** `utf-8` text, `binary`, or null when missing. */
  encoding: "utf-8" | "binary" | null;
  /** Whether the text starts with a UTF-8 byte order mark. */
  bom: boolean;
  /** Its line endings. */
  newline: NewlineStyle;
  /** Its number of lines. */
  lineCount: number;
  /** The text, when within the capture limits. */
  text?: string;
  /** Set when the text was left out for size. */
  textOmitted?: true;
}

const UTF8_BOM = "\uFEFF";

/**
 * The line-ending style of a text.
 *
 * @param text the text
 * @returns `lf`, `crlf`, `cr`, `mixed` or `none`
 */
export function newlineStyle(text: string): NewlineStyle {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  const cr = (text.match(/\r/g)?.length ?? 0) - crlf;
  const kinds = [lf > 0, crlf > 0, cr > 0].filter(Boolean).length;
  if (kinds === 0) return "none";
  if (kinds > 1) return "mixed";
  return lf > 0 ? "lf" : crlf > 0 ? "crlf" : "cr";
}

/**
 * The number of lines of a text (a last line without a terminator counts).
 *
 * @param text the text
 * @returns the line count
 */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return /[\r\n]$/.test(text) ? breaks : breaks + 1;
}

/**
 * Decodes UTF-8 strictly.
 *
 * @param bytes the bytes
 * @returns the text, or null when the bytes are not valid UTF-8 or hold a NUL
 */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Captures one side of a change.
 *
 * @param bytes the file's bytes, or null when it did not exist
 * @returns the capture (text only within {@linkcode CAPTURE_MAX_BYTES} / {@linkcode CAPTURE_MAX_LINES})
 */
export async function captureFile(bytes: Uint8Array | null): Promise<FileCapture> {
  if (bytes === null) {
    return {
      exists: false,
      byteCount: 0,
      revision: null,
      encoding: null,
      bom: false,
      newline: "none",
      lineCount: 0,
    };
  }
  const revision = await revisionOf(bytes);
  const text = decodeText(bytes);
  if (text === null) {
    const base = { exists: true, byteCount: bytes.length, revision, bom: false };
    return { ...base, encoding: "binary", newline: "none", lineCount: 0, textOmitted: true };
  }
  const lineCount = countLines(text);
  const capture: FileCapture = {
    exists: true,
    byteCount: bytes.length,
    revision,
    encoding: "utf-8",
    bom: text.startsWith(UTF8_BOM),
    newline: newlineStyle(text),
    lineCount,
  };
  if (bytes.length <= CAPTURE_MAX_BYTES && lineCount <= CAPTURE_MAX_LINES) capture.text = text;
  else capture.textOmitted = true;
  return capture;
}

/** A recorded file change with its captures typed. */
export type FileChange = FileChangeFact & {
  /** The file before the change. */
  before: FileCapture;
  /** The file after it. */
  after: FileCapture;
  /** The unified diff, null when a side is binary or the diff is over {@linkcode DIFF_MAX_BYTES}. */
  diff: string | null;
};

/** What {@linkcode recordFileChange} needs. */
export interface FileChangeInput {
  /** The path as shown to the model. */
  path: string;
  /** write or edit. */
  operation: "write" | "edit";
  /** The bytes before, or null when the file did not exist. */
  before: Uint8Array | null;
  /** The bytes written. */
  after: Uint8Array;
}

/**
 * Builds the fact of a change and records it on the context.
 *
 * @param context the tool context (its `facts.fileChanges` gains the fact)
 * @param input path, operation and both sides
 * @returns the recorded fact
 */
export async function recordFileChange(
  context: ToolContext,
  input: FileChangeInput,
): Promise<FileChange> {
  const [before, after] = await Promise.all([
    captureFile(input.before),
    captureFile(input.after),
  ]);
  const beforeText = input.before === null ? "" : decodeText(input.before);
  const afterText = decodeText(input.after);
  let diff: string | null = null;
  let additions = 0;
  let deletions = 0;
  let diffOmitted = false;
  if (beforeText !== null && afterText !== null) {
    const lineDiff = diffLines(beforeText, afterText, {
      path: input.path,
      beforeExists: before.exists,
    });
    ({ additions, deletions } = lineDiff);
    if (new TextEncoder().encode(lineDiff.unified).length <= DIFF_MAX_BYTES) {
      diff = lineDiff.unified;
    } else diffOmitted = true;
  }
  const fact = fitEvent({
    toolCallItemId: context.itemId,
    path: input.path,
    operation: input.operation,
    additions,
    deletions,
    before,
    after,
    diff,
    ...(diffOmitted ? { diffOmitted: true } : {}),
  });
  context.facts.fileChanges.push(fact);
  return fact;
}

/**
 * Keeps the serialized change within {@linkcode CHANGE_EVENT_MAX_BYTES}: texts go first,
 * then the diff, so an oversized capture keeps its metadata (sizes, revisions, counts).
 */
function fitEvent(fact: FileChange): FileChange {
  const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
  if (size(fact) <= CHANGE_EVENT_MAX_BYTES) return fact;
  const { text: _before, ...before } = fact.before as FileCapture & { text?: string };
  const { text: _after, ...after } = fact.after as FileCapture & { text?: string };
  const withoutTexts: FileChange = { ...fact, before, after, capturesOmitted: true };
  if (size(withoutTexts) <= CHANGE_EVENT_MAX_BYTES) return withoutTexts;
  return { ...withoutTexts, diff: null, diffOmitted: true };
}
