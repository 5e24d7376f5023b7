/**
 * The `list` tool: one level of a directory, sorted by name, ≤ 1,000 entries.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import { LIST_MAX_ENTRIES } from "../limits.ts";
import { fileSystemError, resolveInWorkspace } from "./paths.ts";
import { type AccessRules, accessRulesOf, checkedRealPath, denied, mayRead } from "./access.ts";
import description from "./list.md" with { type: "text" };

/** Parameters of {@linkcode listTool}. */
export interface ListParams {
  /** The directory (default the workspace). */
  path?: string;
}

/** The schema of {@linkcode ListParams}, validated before the tool runs. */
export const ListParams: ToolParams<ListParams> = z.strictObject({
  path: z.string().optional(),
});

/** One listed entry. */
export interface ListEntry {
  /** Its name. */
  name: string;
  /** What it is (a symlink is reported as such, not as its target). */
  type: "file" | "directory" | "symlink" | "other";
  /** Size in bytes (of the target for a symlink; null when it cannot be read). */
  size: number | null;
  /** Last modification (ISO 8601), null when unknown. */
  mtime: string | null;
}

/** Lists one directory. */
export const listTool: ToolDefinition<ListParams> = defineTool({
  id: "list",
  description,
  params: ListParams,
  mutating: false,
  risk: "read",
  async run(params, context) {
    const target = await resolveInWorkspace(params.path ?? ".", context);
    const rules = await accessRulesOf(context);
    const directory = checkedRealPath(target.path, rules, target.displayPath);
    const info = await Deno.stat(directory).catch((error) => {
      throw fileSystemError(error, target.displayPath);
    });
    if (!info.isDirectory) {
      throw new ToolError("not_a_directory", `${target.displayPath} is a file, not a directory`);
    }
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    } catch (error) {
      throw fileSystemError(error, target.displayPath);
    }
    // A directory swapped for a link while it was read listed somewhere else.
    if (await Deno.realPath(directory).catch(() => null) !== directory) {
      throw denied(
        target.displayPath,
        "changed while it was being listed (a symlink was swapped in)",
      );
    }
    names.sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
    const shown = names.slice(0, LIST_MAX_ENTRIES);
    const entries = await Promise.all(shown.map((name) => describeEntry(directory, name, rules)));
    const lines = entries.map((entry) => {
      const suffix = entry.type === "directory" ? "/" : entry.type === "symlink" ? "@" : "";
      return `${entry.name}${suffix}\t${entry.size ?? "-"}\t${entry.mtime ?? "-"}`;
    });
    const truncated = names.length > shown.length;
    const header = `${target.displayPath}: ${names.length} entries` +
      (truncated ? ` (showing the first ${shown.length})` : "");
    return {
      content: [header, ...lines].join("\n"),
      details: { path: target.displayPath, entries, total: names.length, truncated },
    };
  },
});

/** One entry; a symlink shows its target's size and time only when the call may read it. */
async function describeEntry(
  directory: string,
  name: string,
  rules: AccessRules,
): Promise<ListEntry> {
  const path = join(directory, name);
  const link = await Deno.lstat(path).catch(() => null);
  if (link === null) return { name, type: "other", size: null, mtime: null };
  if (link.isSymlink) {
    const real = await Deno.realPath(path).catch(() => null);
    if (real === null || !mayRead(real, rules)) {
      return { name, type: "symlink", size: null, mtime: null };
    }
  }
  const info = link.isSymlink ? await Deno.stat(path).catch(() => link) : link;
  const type = link.isSymlink
    ? "symlink"
    : info.isDirectory
    ? "directory"
    : info.isFile
    ? "file"
    : "other";
  return {
    name,
    type,
    size: type === "directory" ? null : info.size,
    mtime: info.mtime?.toISOString() ?? null,
  };
}
