/**
 * The directory walk glob and grep share: breadth-first, entries sorted by name (so results
 * come in the same order every time), no depth limit, `.git` and `node_modules` skipped,
 * symlinks to files included but symlinks to directories never followed (no cycles, no
 * escaping the searched tree), cancellation checked before each directory. Also the glob
 * pattern compiler.
 *
 * @module
 */
import { join } from "node:path";
import { RE2JS, RE2JSException } from "re2js";
import { ToolError } from "../tool.ts";
import { GLOB_PATTERN_MAX_PROGRAM_SIZE, SEARCH_SKIPPED_DIRECTORIES } from "../limits.ts";

/** A file found by {@linkcode walkFiles}. */
export interface WalkedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk's root, `/`-separated. */
  relative: string;
}

/**
 * Walks the files below a directory.
 *
 * @param root the directory (absolute)
 * @param signal checked before each directory is read
 * @returns the files, breadth-first, sorted by name within a directory
 * @throws {ToolError} `cancelled` when the signal fires
 */
export async function* walkFiles(root: string, signal: AbortSignal): AsyncGenerator<WalkedFile> {
  const queue: string[] = [""];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (signal.aborted) throw new ToolError("cancelled", "The search was cancelled");
    const directory = join(root, next);
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
      if (entry.isDirectory) {
        if (!SEARCH_SKIPPED_DIRECTORIES.has(entry.name)) queue.push(relative);
      } else if (entry.isFile) {
        yield { path, relative };
      } else if (entry.isSymlink) {
        const target = await Deno.stat(path).catch(() => null);
        if (target?.isFile) yield { path, relative };
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
