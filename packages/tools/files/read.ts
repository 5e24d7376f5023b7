/**
 * The `read` tool: one page of a text file with line numbers (≤ 2,000 lines / 50 KiB, lines
 * cut at 2,000 characters). The file is streamed, so reading the head of a huge file stays
 * cheap; files up to {@linkcode FILE_EDIT_MAX_BYTES} are read to the end for their line count
 * and revision.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import {
  FILE_EDIT_MAX_BYTES,
  FILE_SYNC_READ_MAX_BYTES,
  LINE_MAX_CHARS,
  READ_MAX_BYTES,
  READ_MAX_LINES,
} from "../limits.ts";
import { assertTextFile, fileSystemError, resolveInWorkspace } from "./paths.ts";
import { accessRulesOf, type CheckedFile, openChecked } from "./access.ts";
import description from "./read.md" with { type: "text" };

/** Parameters of {@linkcode readTool}. */
export interface ReadParams {
  /** The file, relative to the workspace or absolute. */
  path: string;
  /** 1-based first line (default 1). */
  offset?: number;
  /** Lines to read (default and most {@linkcode READ_MAX_LINES}). */
  limit?: number;
}

/** The schema of {@linkcode ReadParams}, validated before the tool runs. */
export const ReadParams: ToolParams<ReadParams> = z.strictObject({
  path: z.string(),
  offset: z.int().min(1).optional().describe("1-based first line"),
  limit: z.int().min(1).max(READ_MAX_LINES).optional(),
});

/** One page of a file, as {@linkcode readPage} collects it. */
interface Page {
  lines: string[];
  nextOffset: number | null;
  totalLines: number | null;
  revision: string | null;
  cutLines: number;
}

/** Reads a page of a text file. */
export const readTool: ToolDefinition<ReadParams> = defineTool({
  id: "read",
  description,
  params: ReadParams,
  mutating: false,
  risk: "read",
  async run(params, context) {
    const [target, rules] = await Promise.all([
      resolveInWorkspace(params.path, context),
      accessRulesOf(context),
    ]);
    // One handle, checked after opening, serves the sniff and the page: nothing is
    // opened again by path, so a link swapped in later cannot redirect the read.
    using checked = await openChecked(target.path, rules, target.displayPath);
    const info = checked.info;
    const offset = params.offset ?? 1;
    const limit = params.limit ?? READ_MAX_LINES;
    let page: Page;
    try {
      await assertTextFile(checked.file, checked.realPath, target.displayPath);
      page = await readPage(checked, offset, limit, info.size <= FILE_EDIT_MAX_BYTES);
    } catch (error) {
      if (error instanceof TypeError) {
        throw new ToolError("binary_file", `${target.displayPath} is not valid UTF-8 text`);
      }
      throw fileSystemError(error, target.displayPath);
    }
    if (page.lines.length === 0 && page.totalLines !== null && offset > 1) {
      throw new ToolError(
        "offset_out_of_range",
        `offset ${offset} is past the end of ${target.displayPath} (${page.totalLines} lines)`,
      );
    }
    const lineEnd = offset + page.lines.length - 1;
    const footer = page.lines.length === 0
      ? `[empty file; revision ${page.revision}]`
      : `[lines ${offset}-${lineEnd} of ${page.totalLines ?? "more than " + lineEnd}` +
        (page.nextOffset === null ? " (end of file)" : "") +
        (page.revision === null ? "" : `; revision ${page.revision}`) +
        (page.nextOffset === null ? "" : `; continue with offset=${page.nextOffset}`) + "]";
    return {
      content: [...page.lines, "", footer].join("\n"),
      details: {
        path: target.displayPath,
        lineStart: offset,
        lineEnd,
        nextOffset: page.nextOffset,
        totalBytes: info.size,
        totalLines: page.totalLines,
        revision: page.revision,
        truncated: page.nextOffset !== null || page.cutLines > 0,
      },
    };
  },
});

/**
 * Reads a file in chunks, collecting lines `offset…` up to `limit` lines and the byte budget.
 * Throws a TypeError (from the fatal decoder) when the text is not UTF-8.
 */
async function readPage(
  checked: CheckedFile,
  offset: number,
  limit: number,
  toTheEnd: boolean,
): Promise<Page> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const encoder = new TextEncoder();
  const hash = createHash("sha256");
  const page: Page = { lines: [], nextOffset: null, totalLines: null, revision: null, cutLines: 0 };
  let lineNumber = 0;
  let pageBytes = 0;
  let head = "";
  let length = 0;
  let collecting = true;

  const append = (text: string) => {
    length += text.length;
    if (head.length <= LINE_MAX_CHARS) head += text.slice(0, LINE_MAX_CHARS + 1 - head.length);
  };
  const endLine = () => {
    lineNumber++;
    const line = head.endsWith("\r") && length === head.length ? head.slice(0, -1) : head;
    head = "";
    const fullLength = length;
    length = 0;
    if (!collecting || lineNumber < offset) return;
    const cut = line.length > LINE_MAX_CHARS;
    const shown = cut
      ? `${
        line.slice(0, LINE_MAX_CHARS)
      } … [line cut at ${LINE_MAX_CHARS} of ${fullLength} characters]`
      : line;
    const numbered = `${lineNumber}\t${shown}`;
    const size = encoder.encode(numbered).length + 1;
    if (page.lines.length >= limit || pageBytes + size > READ_MAX_BYTES) {
      collecting = false;
      page.nextOffset = lineNumber;
      return;
    }
    if (cut) page.cutLines++;
    page.lines.push(numbered);
    pageBytes += size;
  };
  const consume = (text: string) => {
    if (text.includes("\0")) throw new TypeError("NUL character in text");
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      append(text.slice(start, end));
      endLine();
      start = end + 1;
    }
    append(text.slice(start));
  };

  const file = checked.file;
  // The first FILE_SYNC_READ_MAX_BYTES of a checked regular file are read synchronously (a
  // few microseconds per 64 KiB from the page cache, where each asynchronous read is a
  // thread-pool round trip); the rest asynchronously, so a page far into a large file
  // does not hold the runtime's thread while it is reached.
  file.seekSync(0, Deno.SeekMode.Start);
  // About the file's size (one byte more sees its end in one read), within 4–64 KiB: a
  // 64 KiB buffer for every read of a small file was native memory churned per call.
  const chunk = new Uint8Array(Math.min(64 * 1024, Math.max(4 * 1024, checked.info.size + 1)));
  let readSoFar = 0;
  const next = () => readSoFar < FILE_SYNC_READ_MAX_BYTES ? file.readSync(chunk) : file.read(chunk);
  for (let read = await next(); read !== null; read = await next()) {
    readSoFar += read;
    const bytes = chunk.subarray(0, read);
    hash.update(bytes);
    consume(decoder.decode(bytes, { stream: true }));
    if (!collecting && !toTheEnd) return page;
  }
  consume(decoder.decode());
  if (length > 0) endLine();
  page.totalLines = lineNumber;
  page.revision = `sha256:${hash.digest("hex")}`;
  return page;
}
