/**
 * The `grep` tool: regex search over text files, `file:line:content`, ≤ 1,000 matches.
 *
 * @module
 */
import { basename } from "node:path";
import { z } from "zod";
import { defineTool } from "../tool.ts";
import {
  GREP_FILE_MAX_BYTES,
  GREP_MAX_MATCHES,
  GREP_PATTERN_MAX_CHARS,
  LINE_MAX_CHARS,
} from "../limits.ts";
import { decodeText } from "./capture.ts";
import { displayPathOf, hasBinaryExtension, resolveToolPath, statOrThrow } from "./paths.ts";
import { compileGlob, type WalkedFile, walkFiles } from "./traversal.ts";
import { openLineSearch } from "./line_search.ts";
import description from "./grep.md" with { type: "text" };

/** Parameters of {@linkcode grepTool}. */
export const GrepParams = z.strictObject({
  pattern: z.string().min(1).max(GREP_PATTERN_MAX_CHARS).describe(
    "The regular expression (RE2 syntax)",
  ),
  path: z.string().optional().describe("A folder or file to search (default: the workspace)"),
  include: z.string().min(1).optional().describe("A glob the file paths must match"),
  ignoreCase: z.boolean().optional().describe("Case-insensitive matching"),
  limit: z.int().min(1).max(GREP_MAX_MATCHES).optional().describe(
    `Most matching lines (default and at most ${GREP_MAX_MATCHES})`,
  ),
});

/** Searches file contents. */
export const grepTool = defineTool({
  id: "grep",
  description,
  params: GrepParams,
  mutating: false,
  risk: "read",
  async run(params, context) {
    using matcher = await openLineSearch(params.pattern, {
      ignoreCase: params.ignoreCase === true,
      signal: context.signal,
    });
    const included = params.include === undefined ? () => true : compileGlob(params.include);
    const target = await resolveToolPath(params.path ?? ".", context.workspaceRoot);
    const info = await statOrThrow(target);
    const files: AsyncIterable<WalkedFile> | WalkedFile[] = info.isDirectory
      ? walkFiles(target.path, context.signal)
      : [{ path: target.path, relative: basename(target.path) }];
    const limit = params.limit ?? GREP_MAX_MATCHES;
    const matches: string[] = [];
    let truncated = false;
    let skipped = 0;
    search: for await (const file of files) {
      if (!included(file.relative) || hasBinaryExtension(file.path)) continue;
      const text = await readSearchable(file.path);
      if (text === null) {
        skipped++;
        continue;
      }
      const shown = displayPathOf(file.path, context.workspaceRoot);
      const lines = text.split("\n");
      for (const index of await matcher.matchingLines(text, limit - matches.length + 1)) {
        const line = (lines[index] ?? "").replace(/\r$/, "");
        if (matches.length === limit) {
          truncated = true;
          break search;
        }
        const cut = line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)} …` : line;
        matches.push(`${shown}:${index + 1}:${cut}`);
      }
    }
    const summary = matches.length === 0
      ? `No matches for /${params.pattern}/ in ${target.displayPath}`
      : truncated
      ? `[first ${matches.length} matches; narrow the pattern, path or include for the rest]`
      : `[${matches.length} match${matches.length === 1 ? "" : "es"}]`;
    return {
      content: matches.length === 0 ? summary : [...matches, "", summary].join("\n"),
      details: {
        path: target.displayPath,
        pattern: params.pattern,
        count: matches.length,
        truncated,
        skippedFiles: skipped,
      },
    };
  },
});

/** The file's text, or null when it is too large, binary or unreadable. */
async function readSearchable(path: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    if (info.size > GREP_FILE_MAX_BYTES) return null;
    return decodeText(await Deno.readFile(path));
  } catch {
    return null;
  }
}
