/**
 * The conversation as the flat list of rows the virtualized feed windows over: every
 * item of every Run, among them the line saying it moved to its fallback model (when it
 * did, where it did), and after a Run its progress line (while active) or its outcome
 * (failed or cancelled). Rows of unchanged items and Runs keep their identity between
 * states, so a streaming delta re-renders only the rows it touches.
 *
 * @module
 */
import type { Item, TurnSiblings } from "@daedalus/client";
import {
  isActiveStatus,
  type RunFallback,
  type RunView,
  type TurnView,
} from "../../state/projection.ts";

/** One row of the feed. */
export type FeedRow =
  | {
    kind: "item";
    key: string;
    turnId: string;
    item: Item;
    estimate: number;
    /** On a turn's own message (not a steer): where Edit goes. */
    turnMessage?: boolean;
    /** On a turn's own message when the turn has siblings: the branch switcher's. */
    siblings?: TurnSiblings;
    /** On a turn's last answer: where Regenerate goes. */
    lastAnswer?: boolean;
  }
  | { kind: "run-fallback"; key: string; turnId: string; run: RunView; estimate: number }
  | { kind: "run-end"; key: string; turnId: string; run: RunView; estimate: number };

/** One entry of the turn navigator: the turn's first row and the user's words. */
export interface TurnEntry {
  turnId: string;
  ordinal: number;
  /** The key of the turn's first row, which a jump scrolls to. */
  rowKey: string;
  /** The first line of the turn's user message (empty when it has none). */
  label: string;
}

/** Characters of a user message shown in the navigator. */
const TURN_LABEL_MAX_CHARS = 80;
/** Characters per rendered line in the height guess (a medium-width column). */
const GUESS_CHARS_PER_LINE = 90;
/**
 * Characters of a message the height guess reads (64 KiB): an answer shows no more
 * before "Show all", and reading a 5 MB one on every streamed delta would block the page.
 */
const GUESS_CHARS_MAX = 65_536;
/** Height guesses in px, close to the rendered sizes so that first scrolls barely jump. */
const GUESS_PX = {
  header: 40,
  line: 22,
  tool: 84,
  fallback: 64,
  progress: 36,
  outcome: 96,
} as const;

const itemRows = new WeakMap<Item, FeedRow>();
// Siblings come only with `turn.list` pages, which bring new items (so new base rows):
// a base row's marked row never goes stale.
const turnMessageRows = new WeakMap<FeedRow, FeedRow>();

const lastAnswerRows = new WeakMap<FeedRow, FeedRow>();

function asTurnMessage(row: FeedRow, siblings: TurnSiblings | null): FeedRow {
  const known = turnMessageRows.get(row);
  if (known || row.kind !== "item") return known ?? row;
  const marked: FeedRow = { ...row, turnMessage: true, ...(siblings ? { siblings } : {}) };
  turnMessageRows.set(row, marked);
  return marked;
}

function asLastAnswer(row: FeedRow): FeedRow {
  const known = lastAnswerRows.get(row);
  if (known || row.kind !== "item") return known ?? row;
  const marked: FeedRow = { ...row, lastAnswer: true };
  lastAnswerRows.set(row, marked);
  return marked;
}

function isMessageRow(row: FeedRow, role: "user" | "assistant"): boolean {
  return row.kind === "item" && row.item.kind === "message" && row.item.role === role;
}
const runRows = new WeakMap<RunView, FeedRow[]>();

function guessItemHeight(item: Item): number {
  if (item.kind === "tool_call" || item.kind === "tool_result") return GUESS_PX.tool;
  const lines = item.content.slice(0, GUESS_CHARS_MAX).split("\n").reduce(
    (sum, line) => sum + Math.max(1, Math.ceil(line.length / GUESS_CHARS_PER_LINE)),
    0,
  );
  return GUESS_PX.header + lines * GUESS_PX.line;
}

function itemRow(item: Item): FeedRow {
  let row = itemRows.get(item);
  if (!row) {
    row = {
      kind: "item",
      key: item.id,
      turnId: item.turnId,
      item,
      estimate: guessItemHeight(item),
    };
    itemRows.set(item, row);
  }
  return row;
}

/**
 * Where a Run's fallback line goes among its items: before the first item made after the
 * move (the fallback never follows streamed content of the same step), or, when only the
 * run record told of it (no time), before the Run's first answer or tool item (a move
 * mostly happens on the first call).
 */
function fallbackIndex(items: readonly Item[], fallback: RunFallback): number {
  const at = fallback.at;
  const index = at
    ? items.findIndex((item) => item.role !== "user" && item.createdAt >= at)
    : items.findIndex((item) => item.role !== "user");
  return index === -1 ? items.length : index;
}

function rowsOfRun(run: RunView): FeedRow[] {
  const cached = runRows.get(run);
  if (cached) return cached;
  const rows = run.items.map(itemRow);
  if (run.fallback) {
    rows.splice(fallbackIndex(run.items, run.fallback), 0, {
      kind: "run-fallback",
      key: `run-fallback:${run.id}`,
      turnId: run.turnId,
      run,
      estimate: GUESS_PX.fallback,
    });
  }
  const active = isActiveStatus(run.status);
  if (active || run.status === "failed" || run.status === "cancelled") {
    rows.push({
      kind: "run-end",
      key: `run-end:${run.id}`,
      turnId: run.turnId,
      run,
      estimate: active ? GUESS_PX.progress : GUESS_PX.outcome,
    });
  }
  runRows.set(run, rows);
  return rows;
}

/**
 * Flattens the turns into feed rows.
 *
 * @param turns the conversation's turns in ordinal order
 * @returns the rows in display order
 */
export function feedRows(turns: readonly TurnView[]): FeedRow[] {
  const rows: FeedRow[] = [];
  for (const turn of turns) {
    const siblings = turn.siblings && turn.siblings.count > 1 ? turn.siblings : null;
    let marked = false;
    const start = rows.length;
    for (const run of turn.runs) {
      for (const row of rowsOfRun(run)) {
        // The turn's first user message is its own; later ones are steers.
        if (!marked && isMessageRow(row, "user")) {
          rows.push(asTurnMessage(row, siblings));
          marked = true;
        } else rows.push(row);
      }
    }
    for (let i = rows.length - 1; i >= start; i--) {
      if (!isMessageRow(rows[i]!, "assistant")) continue;
      rows[i] = asLastAnswer(rows[i]!);
      break;
    }
  }
  return rows;
}

/**
 * The navigator's entries: one per turn that has rows.
 *
 * @param turns the conversation's turns in ordinal order
 * @returns the entries in order
 */
export function turnEntries(turns: readonly TurnView[]): TurnEntry[] {
  const entries: TurnEntry[] = [];
  for (const turn of turns) {
    const first = turn.runs.flatMap(rowsOfRun)[0];
    if (!first) continue;
    const user = turn.runs.flatMap((run) => run.items).find((item) =>
      item.kind === "message" && item.role === "user"
    );
    const line = user?.content.trim().split("\n")[0] ?? "";
    const label = line.length > TURN_LABEL_MAX_CHARS
      ? `${line.slice(0, TURN_LABEL_MAX_CHARS - 1)}…`
      : line;
    entries.push({ turnId: turn.id, ordinal: turn.ordinal, rowKey: first.key, label });
  }
  return entries;
}

/**
 * Whether two navigator lists show the same thing, so a streaming delta (which changes
 * the turns but not their entries) does not re-render the navigator.
 */
export function sameEntries(a: readonly TurnEntry[], b: readonly TurnEntry[]): boolean {
  return a.length === b.length && a.every((entry, i) => {
    const other = b[i]!;
    return entry.turnId === other.turnId && entry.rowKey === other.rowKey &&
      entry.label === other.label;
  });
}
