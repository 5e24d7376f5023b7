/**
 * What a command-line word names as a path, when that is known before the shell runs:
 * `~` and `$HOME` are the home directory, `$PWD` the current folder, a last segment that is
 * only wildcards (`*`, `.*`, `*.*`) stands for the folder it lists, and relative paths are
 * resolved against the current folder. Anything else the shell would expand is unknown.
 *
 * @module
 */
import type { Word } from "./shell_words.ts";

/** Where a command runs and whose home it is; `cwd` is `null` once a `cd` went somewhere unknown. */
export interface PathScope {
  /** The current folder (absolute, normalised), or `null` when unknown. */
  cwd: string | null;
  /** The home directory (absolute, normalised). */
  home: string;
}

/** Absolute path without `.`/`..`, doubled or trailing slashes (`/` stays `/`). */
export function normalizePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** Whether `outer` is `inner` or one of its ancestors (both normalised). */
export function containsPath(outer: string, inner: string): boolean {
  return outer === "/" || inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * The absolute, normalised path a word names, or `null` when it depends on something only
 * the running shell knows (another variable, a command's output, `~user`, an unknown `cd`).
 */
export function wordPath(word: Word, scope: PathScope): string | null {
  // Each character with whether it may glob (unquoted); the segments are judged below.
  const chars: { ch: string; glob: boolean }[] = [];
  for (const [index, part] of word.parts.entries()) {
    if (part.kind === "command") return null;
    if (part.kind === "param") {
      // `${HOME:-…}` and `${HOME:?}` are $HOME whenever it is set, as it is for the runtime.
      const name = /^(HOME|PWD)(:?[-?].*)?$/.exec(part.name)?.[1];
      const value = name === "HOME" ? scope.home : name === "PWD" ? scope.cwd : null;
      if (value === null) return null;
      for (const ch of value) chars.push({ ch, glob: false });
      continue;
    }
    let text = part.text;
    if (index === 0 && !part.quoted && text.startsWith("~")) {
      const slash = text.indexOf("/");
      const user = slash === -1 ? text.slice(1) : text.slice(1, slash);
      if (user !== "" && user !== "+") return null;
      const base = user === "+" ? scope.cwd : scope.home;
      if (base === null) return null;
      for (const ch of base) chars.push({ ch, glob: false });
      text = slash === -1 ? "" : text.slice(slash);
    }
    for (const ch of text) chars.push({ ch, glob: !part.quoted && "*?[".includes(ch) });
  }
  const raw = chars.map((c) => c.ch).join("");
  if (raw === "") return null;
  const absolute = raw.startsWith("/");
  if (!absolute && scope.cwd === null) return null;
  const kept: string[] = [];
  let offset = 0;
  for (const segment of raw.split("/")) {
    const marks = chars.slice(offset, offset + segment.length);
    offset += segment.length + 1;
    // `*`, `.*`, `*.*`: every entry of the folder, so the folder itself for a recursive delete.
    const listsFolder = marks.some((c) => c.ch === "*" && c.glob) &&
      marks.every((c) => c.ch === "." || ((c.ch === "*" || c.ch === "?") && c.glob));
    if (listsFolder) break;
    kept.push(segment);
  }
  const path = kept.join("/");
  return normalizePath(absolute ? path : `${scope.cwd}/${path}`);
}
