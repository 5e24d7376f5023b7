/**
 * The `grep` tool: regex search over text files, `file:line:content`, ≤ 1,000 matches.
 *
 * @module
 */
import { basename } from "node:path";
import { z } from "zod";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import {
  GREP_FILE_MAX_BYTES,
  GREP_MAX_MATCHES,
  GREP_PATTERN_MAX_CHARS,
  LINE_MAX_CHARS,
} from "../limits.ts";
import { decodeText } from "./capture.ts";
import { displayPathOf, hasBinaryExtension, resolveInWorkspace } from "./paths.ts";
import { compileGlob, type WalkedFile, walkFiles } from "./traversal.ts";
import { openLineSearch } from "./line_search.ts";
import {
  type AccessRules,
  accessRulesOf,
  checkedRealPath,
  openChecked,
  readChecked,
} from "./access.ts";
import description from "./grep.md" with { type: "text" };

/** Parameters of {@linkcode grepTool}. */
export interface GrepParams {
  /** The regular expression. */
  pattern: string;
  /** Folder or file to search (default the workspace). */
  path?: string;
  /** Glob on file paths. */
  include?: string;
  /** Match case-insensitively. */
  ignoreCase?: boolean;
  /** Most matches (default and at most {@linkcode GREP_MAX_MATCHES}). */
  limit?: number;
}

/** The schema of {@linkcode GrepParams}, validated before the tool runs. */
export const GrepParams: ToolParams<GrepParams> = z.strictObject({
  pattern: z.string().min(1).max(GREP_PATTERN_MAX_CHARS),
  path: z.string().optional().describe("Folder or file"),
  include: z.string().min(1).optional().describe("Glob on file paths"),
  ignoreCase: z.boolean().optional(),
  limit: z.int().min(1).max(GREP_MAX_MATCHES).optional(),
});

/** Searches file contents. */
export const grepTool: ToolDefinition<GrepParams> = defineTool({
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
    const target = await resolveInWorkspace(params.path ?? ".", context);
    const rules = await accessRulesOf(context);
    const root = checkedRealPath(target.path, rules, target.displayPath);
    const isDirectory = (await Deno.stat(root).catch(() => null))?.isDirectory === true;
    if (!isDirectory) {
      // A single file: opened and checked like read; a refusal is the call's error.
      (await openChecked(target.path, rules, target.displayPath))[Symbol.dispose]();
    }
    const files: AsyncIterable<WalkedFile> | WalkedFile[] = isDirectory
      ? walkFiles(root, context.signal, rules, context.workspaceRoot, target.path)
      : [{ path: target.path, relative: basename(target.path) }];
    const refused: string[] = [];
    const limit = params.limit ?? GREP_MAX_MATCHES;
    const matches: string[] = [];
    let truncated = false;
    let skipped = 0;
    search: for await (const file of files) {
      if (!included(file.relative) || hasBinaryExtension(file.path)) continue;
      if (file.escapes) {
        refused.push(displayPathOf(file.path, context.workspaceRoot));
        continue;
      }
      const shownFile = displayPathOf(file.path, context.workspaceRoot);
      const text = await readSearchable(file.path, rules, shownFile, refused);
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
    const found = matches.length === 0
      ? `No matches for /${params.pattern}/ in ${target.displayPath}`
      : truncated
      ? `[first ${matches.length} matches; narrow the pattern, path or include for the rest]`
      : `[${matches.length} match${matches.length === 1 ? "" : "es"}]`;
    const summary = refused.length === 0 ? found : `${found}\n[not searched, permission_denied ` +
      `(outside the workspace or a protected file): ${refused.join(", ")}]`;
    return {
      content: matches.length === 0 ? summary : [...matches, "", summary].join("\n"),
      details: {
        path: target.displayPath,
        pattern: params.pattern,
        count: matches.length,
        truncated,
        skippedFiles: skipped,
        refusedFiles: refused,
      },
    };
  },
});

/**
 * The file's text, or null when it is too large, binary, unreadable or refused (refused
 * paths are collected: a link out of the workspace, a protected file, a swapped link).
 */
async function readSearchable(
  path: string,
  rules: AccessRules,
  shown: string,
  refused: string[],
): Promise<string | null> {
  try {
    using checked = await openChecked(path, rules, shown);
    const bytes = await readChecked(checked, GREP_FILE_MAX_BYTES);
    return bytes === null ? null : decodeText(bytes);
  } catch (error) {
    if (error instanceof ToolError && error.code === "permission_denied") refused.push(shown);
    return null;
  }
}
