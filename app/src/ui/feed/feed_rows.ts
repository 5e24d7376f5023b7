/**
 * The conversation as the flat list of rows the virtualized feed windows over: every
 * message of every Run, each step's tool calls as one row (a call with its result, or
 * the step's calls under one header: a group is one row, so the windowing measures it
 * as a whole, open or folded), the line saying a Run moved to its fallback model (when
 * it did, where it did), and after a Run its progress line (while active), its outcome
 * (failed or cancelled) or its usage line (completed). Rows of unchanged items and Runs
 * keep their identity between states, so a streaming delta re-renders only the rows it
 * touches.
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
import { runEntries, type RunEntry, type ToolCallView } from "../tools/tool_activity.ts";

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
  | {
    kind: "tools";
    key: string;
    turnId: string;
    /** One step's calls with their results, in the model's order. */
    calls: readonly ToolCallView[];
    /** Whether their Run is still going (a call it left running was cut off). */
    runActive: boolean;
    estimate: number;
  }
  | { kind: "run-fallback"; key: string; turnId: string; run: RunView; estimate: number }
  | { kind: "run-end"; key: string; turnId: string; run: RunView; estimate: number }
  | { kind: "run-usage"; key: string; turnId: string; run: RunView; estimate: number };

/** A row of a step's tool calls. */
export type ToolsRow = Extract<FeedRow, { kind: "tools" }>;

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
  /** A tool row or a group's header (one line and its margin). */
  toolLine: 38,
  /** A failed call's message under its line. */
  toolError: 40,
  fallback: 64,
  progress: 36,
  outcome: 96,
  usage: 28,
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

function failedResult(view: ToolCallView): boolean {
  return view.result !== null &&
    (view.result.status === "failed" || view.result.data.isError === true);
}

/** A step's height before it is measured: folded once done, open while it runs or failed. */
function guessToolsHeight(calls: readonly ToolCallView[], runActive: boolean): number {
  const errors = calls.filter(failedResult).length * GUESS_PX.toolError;
  if (calls.length === 1) return GUESS_PX.toolLine + errors;
  const opens = errors > 0 || (runActive && calls.some((view) => view.result === null));
  return GUESS_PX.toolLine + (opens ? calls.length * GUESS_PX.toolLine + errors : 0);
}

const toolRows = new WeakMap<Item, ToolsRow>();

function sameCalls(a: readonly ToolCallView[], b: readonly ToolCallView[]): boolean {
  return a.length === b.length &&
    a.every((view, i) => view.call === b[i]!.call && view.result === b[i]!.result);
}

/** A step's row, the same object while its calls, results and Run state are unchanged. */
function toolsRow(calls: ToolCallView[], run: RunView): ToolsRow {
  const first = calls[0]!.call ?? calls[0]!.result!;
  const runActive = isActiveStatus(run.status);
  const known = toolRows.get(first);
  if (known && known.runActive === runActive && sameCalls(known.calls, calls)) return known;
  const row: ToolsRow = {
    kind: "tools",
    key: `tools:${first.id}`,
    turnId: run.turnId,
    calls,
    runActive,
    estimate: guessToolsHeight(calls, runActive),
  };
  toolRows.set(first, row);
  return row;
}

function firstItem(entry: RunEntry): Item {
  return entry.kind === "item" ? entry.item : entry.calls[0]!.call ?? entry.calls[0]!.result!;
}

/**
 * Where a Run's fallback line goes among its entries: before the first one made after
 * the move (the fallback never follows streamed content of the same step), or, when only
 * the run record told of it (no time), before the Run's first answer or tool call (a
 * move mostly happens on the first call).
 */
function fallbackIndex(entries: readonly RunEntry[], fallback: RunFallback): number {
  const at = fallback.at;
  const index = entries.findIndex((entry) => {
    const item = firstItem(entry);
    return item.role !== "user" && (!at || item.createdAt >= at);
  });
  return index === -1 ? entries.length : index;
}

function rowsOfRun(run: RunView): FeedRow[] {
  const cached = runRows.get(run);
  if (cached) return cached;
  const entries = runEntries(run.items);
  const rows = entries.map((entry) =>
    entry.kind === "item" ? itemRow(entry.item) : toolsRow(entry.calls, run)
  );
  if (run.fallback) {
    rows.splice(fallbackIndex(entries, run.fallback), 0, {
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
  } else if (run.status === "completed") {
    rows.push({
      kind: "run-usage",
      key: `run-usage:${run.id}`,
      turnId: run.turnId,
      run,
      estimate: GUESS_PX.usage,
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
