/**
 * A unified diff (as `file.change.get` returns it) split into typed lines for the diff
 * view, with old and new line numbers. Pure, so the view stays a plain list.
 *
 * @module
 */

/** One line of the diff view. */
export interface DiffLine {
  /** `hunk` is an `@@` header; `meta` a file header or "\ No newline" note. */
  kind: "add" | "remove" | "context" | "hunk" | "meta";
  /** The line without its +/-/space marker. */
  text: string;
  /** Line number before the change, for removed and context lines. */
  oldLine: number | null;
  /** Line number after the change, for added and context lines. */
  newLine: number | null;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Splits a unified diff into lines.
 *
 * @param diff the diff text
 * @returns its lines in order
 */
export function diffLines(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  const source = diff.endsWith("\n") ? diff.slice(0, -1) : diff;
  if (source === "") return lines;
  for (const raw of source.split("\n")) {
    const header = HUNK_HEADER.exec(raw);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      inHunk = true;
      lines.push({ kind: "hunk", text: raw, oldLine: null, newLine: null });
    } else if (!inHunk || raw.startsWith("\\")) {
      lines.push({ kind: "meta", text: raw, oldLine: null, newLine: null });
    } else if (raw.startsWith("+")) {
      lines.push({ kind: "add", text: raw.slice(1), oldLine: null, newLine: newLine++ });
    } else if (raw.startsWith("-")) {
      lines.push({ kind: "remove", text: raw.slice(1), oldLine: oldLine++, newLine: null });
    } else {
      lines.push({ kind: "context", text: raw.slice(1), oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return lines;
}
