/**
 * The directory walk glob and grep share: breadth-first, entries sorted by name (so results
 * come in the same order every time), no depth limit, `.git` and `node_modules` skipped,
 * symlinks to directories never followed (no cycles, no escaping the searched tree),
 * symlinks to files yielded with `escapes` set when their real target lies outside both the
 * walked tree and the workspace or is not readable under the call's rules (callers refuse
 * those instead of reading them), each directory's real path re-checked before it is read
 * (one swapped for a link since it was listed is skipped), cancellation checked before each
 * directory. Also the glob pattern compiler.
 *
 * @module
 */
import { join } from "node:path";
import { RE2JS, RE2JSException } from "re2js";
import { ToolError } from "../tool.ts";
import { type AccessRules, mayRead } from "./access.ts";
import { isWithin } from "./paths.ts";
import { GLOB_PATTERN_MAX_PROGRAM_SIZE, SEARCH_SKIPPED_DIRECTORIES } from "../limits.ts";

/** A file found by {@linkcode walkFiles}. */
export interface WalkedFile {
  /** Absolute path, below the walked folder as the caller named it. */
  path: string;
  /** Path relative to the walk's root, `/`-separated. */
  relative: string;
  /** A symlink whose target lies outside the tree and the workspace, or is not readable. */
  escapes?: true;
}

/**
 * Walks the files below a directory.
 *
 * @param root the directory (its real path)
 * @param signal checked before each directory is read
 * @param rules the call's access rules
 * @param workspaceRoot the workspace (links into it are followed from anywhere in the walk)
 * @param shownRoot the walked folder as the caller named it (yielded paths start with it,
 *   so they display as the model wrote them; default `root`)
 * @returns the files, breadth-first, sorted by name within a directory
 * @throws {ToolError} `cancelled` when the signal fires
 */
export async function* walkFiles(
  root: string,
  signal: AbortSignal,
  rules: AccessRules,
  workspaceRoot: string,
  shownRoot: string = root,
): AsyncGenerator<WalkedFile> {
  const inTree = (real: string) =>
    mayRead(real, rules) &&
    (isWithin(root, real) || rules.readRoots.concat(workspaceRoot).some((r) => isWithin(r, real)));
  const queue: string[] = [""];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (signal.aborted) throw new ToolError("cancelled", "The search was cancelled");
    const directory = join(root, next);
    // Listed as a real directory; if it became a link since, its real path moved.
    if (next !== "" && await Deno.realPath(directory).catch(() => null) !== directory) continue;
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(directory)) entries.push(entry);
    } catch {
      continue; // Unreadable or vanished directory: the rest of the tree is still searched.
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      const relative = next === "" ? entry.name : `${next}/${entry.name}`;
      const path = join(root, relative);
      const shown = join(shownRoot, relative);
      if (entry.isDirectory) {
        if (!SEARCH_SKIPPED_DIRECTORIES.has(entry.name)) queue.push(relative);
      } else if (entry.isFile) {
        yield { path: shown, relative };
      } else if (entry.isSymlink) {
        const real = await Deno.realPath(path).catch(() => null);
        if (real === null) continue; // dangling
        const target = await Deno.stat(real).catch(() => null);
        // Not stat'able here (the sandbox cannot see outside): an escape, whatever it is.
        if (target === null && !inTree(real)) yield { path: shown, relative, escapes: true };
        else if (target?.isFile) {
          yield inTree(real) ? { path: shown, relative } : { path: shown, relative, escapes: true };
        }
      }
    }
  }
}

/**
 * Compiles a glob: `*` (within a segment), `**` (any depth), `?`, `[abc]`/`[!abc]`, `{a,b}`.
 * A pattern without `/` matches file names at any depth (`*.ts` finds `src/a/b.ts`).
 *
 * @param pattern the glob
 * @returns a test on `/`-separated relative paths
 * @throws {ToolError} `invalid_arguments` for an unbalanced `[` or `{`, a bad `[…]` range or
 *   a glob too complex to match every path against
 * @example
 * ```ts
 * compileGlob("src/**\/*.ts")("src/a/b.ts"); // true
 * ```
 */
export function compileGlob(pattern: string): (relative: string) => boolean {
  const byName = !pattern.includes("/");
  const regex = compileGlobSource(globSource(pattern.replace(/^\.\//, "")), pattern);
  return byName
    ? (relative) => regex.test(relative.slice(relative.lastIndexOf("/") + 1))
    : (relative) => regex.test(relative);
}

/** RE2, not RegExp: `{*,*}{*,*}…` would backtrack exponentially in a JavaScript regex. */
function compileGlobSource(source: string, pattern: string): RE2JS {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(`^${source}$`);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw new ToolError("invalid_arguments", `pattern: not a valid glob ${pattern}`, {
      cause: error,
    });
  }
  if (compiled.programSize() > GLOB_PATTERN_MAX_PROGRAM_SIZE) {
    throw new ToolError("invalid_arguments", "pattern: too complex a glob; use fewer alternatives");
  }
  return compiled;
}

function globSource(pattern: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? "";
    if (char === "*") {
      if (pattern[i + 1] === "*") {
        const slash = pattern[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (char === "?") out += "[^/]";
    else if (char === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) {
        throw new ToolError("invalid_arguments", `pattern: unclosed "[" in ${pattern}`);
      }
      const body = pattern.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
      out += `[${body}]`;
      i = close;
    } else if (char === "{") {
      braces++;
      out += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (char === "," && braces > 0) out += "|";
    else out += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  if (braces > 0) throw new ToolError("invalid_arguments", `pattern: unclosed "{" in ${pattern}`);
  return out;
}
