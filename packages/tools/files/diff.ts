/**
 * A bounded line diff (Myers' O((N+M)·D) algorithm after trimming the common head and tail)
 * rendered as a unified diff. When the middle differs by more than
 * {@linkcode DIFF_MAX_EDIT_DISTANCE} lines it is shown as replaced whole: still a correct
 * diff, only not a minimal one, and bounded in time and memory.
 *
 * @module
 */
import { DIFF_CONTEXT_LINES, DIFF_MAX_EDIT_DISTANCE } from "../limits.ts";

/** One line of an edit script. */
export interface DiffOp {
  /** Kept, removed from the old text, or added by the new one. */
  kind: "equal" | "delete" | "insert";
  /** The line, with its terminator. */
  line: string;
}

/** A unified diff and its counts. */
export interface LineDiff {
  /** The unified diff text (empty when nothing changed). */
  unified: string;
  /** Lines added. */
  additions: number;
  /** Lines removed. */
  deletions: number;
}

/** Options of {@linkcode diffLines}. */
export interface DiffOptions {
  /** The path shown in the `---`/`+++` header. */
  path: string;
  /** Whether the old file existed (else the header says `/dev/null`). */
  beforeExists?: boolean;
  /** Whether the new file exists. */
  afterExists?: boolean;
  /** Largest edit distance searched; defaults to {@linkcode DIFF_MAX_EDIT_DISTANCE}. */
  maxEditDistance?: number;
}

/**
 * Splits text into lines that keep their `\n` terminator (the last may have none).
 *
 * @param text the text
 * @returns the lines; `[]` for an empty text
 */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n").map((line) => `${line}\n`);
  const last = lines.length - 1;
  lines[last] = (lines[last] ?? "").slice(0, -1);
  if (lines[last] === "") lines.pop();
  return lines;
}

/**
 * The edit script turning `before` into `after`, line by line.
 *
 * @param before old lines
 * @param after new lines
 * @param maxEditDistance largest edit distance searched before replacing the middle whole
 * @returns the script, in order
 */
export function diffOps(
  before: readonly string[],
  after: readonly string[],
  maxEditDistance: number = DIFF_MAX_EDIT_DISTANCE,
): DiffOp[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head && tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const middle = myers(a, b, maxEditDistance) ?? [
    ...a.map((line): DiffOp => ({ kind: "delete", line })),
    ...b.map((line): DiffOp => ({ kind: "insert", line })),
  ];
  const equal = (line: string): DiffOp => ({ kind: "equal", line });
  return [
    ...before.slice(0, head).map(equal),
    ...middle,
    ...before.slice(before.length - tail).map(equal),
  ];
}

/** Myers' shortest edit script, or null when it is longer than `maxD`. */
function myers(a: readonly string[], b: readonly string[], maxD: number): DiffOp[] | null {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxD); d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
    }
    trace.push(v.slice(offset - d, offset + d + 1));
    const k = n - m;
    if (Math.abs(k) <= d && (d - Math.abs(k)) % 2 === 0 && v[offset + k]! >= n) {
      return backtrack(a, b, trace);
    }
  }
  return null;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[]): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1]!;
    const at = (k: number) => previous[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      ops.push({ kind: "equal", line: a[--x]! });
      y--;
    }
    if (down) ops.push({ kind: "insert", line: b[--y]! });
    else ops.push({ kind: "delete", line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: "equal", line: a[--x]! });
    y--;
  }
  return ops.reverse();
}

/**
 * The unified diff between two texts.
 *
 * @param before the old text
 * @param after the new text
 * @param options header path, existence of both sides, search bound
 * @returns the diff text and the counts of added and removed lines
 * @example
 * ```ts
 * const { unified, additions } = diffLines("a\nb\n", "a\nc\n", { path: "x.txt" });
 * // additions === 1; unified contains "-b" and "+c"
 * ```
 */
export function diffLines(before: string, after: string, options: DiffOptions): LineDiff {
  const ops = diffOps(splitLines(before), splitLines(after), options.maxEditDistance);
  const additions = ops.filter((op) => op.kind === "insert").length;
  const deletions = ops.filter((op) => op.kind === "delete").length;
  if (additions === 0 && deletions === 0) return { unified: "", additions, deletions };
  const header = [
    options.beforeExists === false ? "--- /dev/null" : `--- a/${options.path}`,
    options.afterExists === false ? "+++ /dev/null" : `+++ b/${options.path}`,
  ];
  return { unified: [...header, ...hunks(ops)].join("\n") + "\n", additions, deletions };
}

function hunks(ops: readonly DiffOp[]): string[] {
  const changed = ops.flatMap((op, index) => op.kind === "equal" ? [] : [index]);
  const out: string[] = [];
  let group = 0;
  while (group < changed.length) {
    let last = group;
    while (
      last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * DIFF_CONTEXT_LINES + 1
    ) last++;
    const start = Math.max(0, changed[group]! - DIFF_CONTEXT_LINES);
    const end = Math.min(ops.length, changed[last]! + DIFF_CONTEXT_LINES + 1);
    out.push(...hunk(ops, start, end));
    group = last + 1;
  }
  return out;
}

function hunk(ops: readonly DiffOp[], start: number, end: number): string[] {
  const before = ops.slice(0, start);
  const oldBefore = before.filter((op) => op.kind !== "insert").length;
  const newBefore = before.filter((op) => op.kind !== "delete").length;
  const body = ops.slice(start, end);
  const oldCount = body.filter((op) => op.kind !== "insert").length;
  const newCount = body.filter((op) => op.kind !== "delete").length;
  const range = (first: number, count: number) =>
    `${count === 0 ? first : first + 1}${count === 1 ? "" : `,${count}`}`;
  const lines = [`@@ -${range(oldBefore, oldCount)} +${range(newBefore, newCount)} @@`];
  for (const op of body) {
    const mark = op.kind === "equal" ? " " : op.kind === "delete" ? "-" : "+";
    const terminated = op.line.endsWith("\n");
    lines.push(mark + op.line.replace(/\r?\n$/, ""));
    if (!terminated) lines.push("\\ No newline at end of file");
  }
  return lines;
}
