/**
 * The `glob` tool: files matching a pattern, breadth-first, ≤ 1,000 results.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import { GLOB_MAX_RESULTS } from "../limits.ts";
import { displayPathOf, isBinaryHandle, resolveInWorkspace } from "./paths.ts";
import { compileGlob, walkFiles } from "./traversal.ts";
import { type AccessRules, accessRulesOf, checkedRealPath, openChecked } from "./access.ts";
import description from "./glob.md" with { type: "text" };

/** Parameters of {@linkcode globTool}. */
export interface GlobParams {
  /** The glob, matched against paths relative to `path`. */
  pattern: string;
  /** The folder to search (default the workspace). */
  path?: string;
  /** Most results (default and at most {@linkcode GLOB_MAX_RESULTS}). */
  limit?: number;
}

/** The schema of {@linkcode GlobParams}, validated before the tool runs. */
export const GlobParams: ToolParams<GlobParams> = z.strictObject({
  pattern: z.string().min(1),
  path: z.string().optional(),
  limit: z.int().min(1).max(GLOB_MAX_RESULTS).optional(),
});

/** Finds files by pattern. */
export const globTool: ToolDefinition<GlobParams> = defineTool({
  id: "glob",
  description,
  params: GlobParams,
  mutating: false,
  risk: "read",
  async run(params, context) {
    const matches = compileGlob(params.pattern);
    const target = await resolveInWorkspace(params.path ?? ".", context);
    const rules = await accessRulesOf(context);
    const root = checkedRealPath(target.path, rules, target.displayPath);
    if (!(await Deno.stat(root).catch(() => null))?.isDirectory) {
      throw new ToolError("not_a_directory", `${target.displayPath} is not a directory`);
    }
    const limit = params.limit ?? GLOB_MAX_RESULTS;
    const files: string[] = [];
    let truncated = false;
    const walk = walkFiles(root, context.signal, rules, context.workspaceRoot, target.path);
    for await (const file of walk) {
      if (file.escapes || !matches(file.relative)) continue;
      if (await isBinaryChecked(file.path, rules)) continue;
      if (files.length === limit) {
        truncated = true;
        break;
      }
      files.push(displayPathOf(file.path, context.workspaceRoot));
    }
    const summary = files.length === 0
      ? `No files match ${params.pattern} in ${target.displayPath}`
      : truncated
      ? `[first ${files.length} matches; narrow the pattern or path for the rest]`
      : `[${files.length} match${files.length === 1 ? "" : "es"}]`;
    return {
      content: files.length === 0 ? summary : [...files, "", summary].join("\n"),
      details: {
        path: target.displayPath,
        pattern: params.pattern,
        count: files.length,
        truncated,
      },
    };
  },
});

/** Whether a found file is binary, sniffed through a checked handle (refused counts as binary). */
async function isBinaryChecked(path: string, rules: AccessRules): Promise<boolean> {
  try {
    using checked = await openChecked(path, rules, path);
    return await isBinaryHandle(checked.file, path);
  } catch {
    return true;
  }
}
