/**
 * A Run's tool activity as the feed shows it: each `tool_call` Item joined with its
 * `tool_result`, and the calls of one step kept together. The runtime records a step's
 * calls in one transaction when the model finished the step, before any of them runs, so
 * a step's calls are consecutive `tool_call` Items and its results follow them; a message
 * or the next step's results end the group. Pure.
 *
 * @module
 */
import type { Item } from "@daedalus/client";

/** One call and its result (null while it runs, or when it never got one). */
export interface ToolCallView {
  /** The `tool_call` Item; null for a result whose call is not among the Run's items. */
  call: Item | null;
  result: Item | null;
}

/** A Run's items in feed order: messages as they are, tool calls grouped by step. */
export type RunEntry =
  | { kind: "item"; item: Item }
  | { kind: "tools"; calls: ToolCallView[] };

/** Where a call stands, as its row shows it. */
export type ToolState = "waiting-approval" | "running" | "failed" | "cancelled" | "completed";

/**
 * Splits a Run's items into messages and step groups of tool calls.
 *
 * @param items the Run's items in ordinal order
 * @returns the entries in order; every item appears once (a result with its call)
 */
export function runEntries(items: readonly Item[]): RunEntry[] {
  const resultOf = pairResults(items);
  const paired = new Set([...resultOf.values()].map((result) => result.id));
  const entries: RunEntry[] = [];
  let open: ToolCallView[] | null = null;
  for (const item of items) {
    if (item.kind === "tool_call") {
      const view = { call: item, result: resultOf.get(item.id) ?? null };
      if (open) open.push(view);
      else {
        open = [view];
        entries.push({ kind: "tools", calls: open });
      }
      continue;
    }
    // A finished answer with no text (a model that only thought before calling tools)
    // shows nothing: no empty "Assistant" header, and its step's calls stay together.
    if (isBlankAnswer(item)) continue;
    open = null;
    if (item.kind === "tool_result") {
      if (!paired.has(item.id)) {
        entries.push({ kind: "tools", calls: [{ call: null, result: item }] });
      }
      continue;
    }
    entries.push({ kind: "item", item });
  }
  return entries;
}

function isBlankAnswer(item: Item): boolean {
  return item.kind === "message" && item.role === "assistant" && item.status !== "streaming" &&
    item.content.trim() === "";
}

/**
 * Each call's result. A result names its call by item id (`toolCallItemId`) or by the
 * model's call id; it belongs to the nearest call before it with that id that has no
 * result yet (a model may reuse a call id in a later step). A result recorded with
 * neither belongs to the first call of its tool before it that has none (a step's
 * results come in its calls' order).
 */
function pairResults(items: readonly Item[]): Map<string, Item> {
  const resultOf = new Map<string, Item>();
  for (let i = 0; i < items.length; i++) {
    const result = items[i]!;
    if (result.kind !== "tool_result") continue;
    const free = (call: Item) => call.kind === "tool_call" && !resultOf.has(call.id);
    let call: Item | undefined;
    for (let j = i - 1; j >= 0 && !call; j--) {
      if (free(items[j]!) && names(result, items[j]!)) call = items[j];
    }
    for (let j = 0; j < i && !call; j++) {
      const candidate = items[j]!;
      if (free(candidate) && !hasIds(result, candidate)) {
        if (result.data.toolId === candidate.data.toolId) call = candidate;
      }
    }
    if (call) resultOf.set(call.id, result);
  }
  return resultOf;
}

function hasIds(result: Item, call: Item): boolean {
  return typeof result.data.toolCallItemId === "string" ||
    (typeof result.data.callId === "string" && typeof call.data.callId === "string");
}

function names(result: Item, call: Item): boolean {
  const itemId = result.data.toolCallItemId;
  if (typeof itemId === "string") return itemId === call.id;
  const callId = result.data.callId;
  return typeof callId === "string" && callId === call.data.callId;
}

/**
 * Where a call stands.
 *
 * @param view the call and its result
 * @param approvalPending whether the call's approval waits for the user
 * @param runActive whether its Run can still settle it (a call left running by a Run that
 *   ended was cut off)
 * @returns its state
 */
export function toolState(
  view: ToolCallView,
  approvalPending: boolean,
  runActive: boolean,
): ToolState {
  const { call, result } = view;
  if (result) {
    if (result.status === "failed" || result.data.isError === true) return "failed";
    return result.status === "cancelled" ? "cancelled" : "completed";
  }
  const status = call?.status ?? "completed";
  if (status === "running" || status === "streaming") {
    if (!runActive) return "cancelled";
    return approvalPending ? "waiting-approval" : "running";
  }
  if (status === "failed") return "failed";
  return status === "cancelled" ? "cancelled" : "completed";
}

/** How much each state weighs in a group's combined state: the highest wins. */
const STATE_WEIGHT: Readonly<Record<ToolState, number>> = {
  "completed": 0,
  "cancelled": 1,
  "failed": 2,
  "running": 3,
  "waiting-approval": 4,
};

/**
 * A group's combined state: waiting for the user over running over failed over cut off
 * over done.
 *
 * @param states its calls' states
 * @returns the state its header shows
 */
export function groupState(states: readonly ToolState[]): ToolState {
  let worst: ToolState = "completed";
  for (const state of states) if (STATE_WEIGHT[state] > STATE_WEIGHT[worst]) worst = state;
  return worst;
}

/**
 * Whether a group opens by itself: while a call runs or waits for the user, when one
 * failed, and when one was asked about (its approval card stays in sight). Otherwise a
 * finished step folds into its header.
 *
 * @param states its calls' states
 * @param asked whether any of its calls has an approval
 */
export function groupOpensByDefault(states: readonly ToolState[], asked: boolean): boolean {
  return asked || states.some((state) => state !== "completed" && state !== "cancelled");
}

/**
 * A call's duration: from its Item (recorded as it started) to its result, or to when it
 * settled; null while it runs or when a time is not readable.
 *
 * @param view the call and its result
 * @returns milliseconds, or null
 */
export function callDurationMs(view: ToolCallView): number | null {
  const { call, result } = view;
  if (!call) return null;
  const start = Date.parse(call.createdAt);
  const settled = call.status === "completed" || call.status === "failed" ||
    call.status === "cancelled";
  const endAt = result?.createdAt ?? (settled ? call.updatedAt : null);
  const end = endAt === null ? NaN : Date.parse(endAt);
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/**
 * A group's duration: its first call's start to its last result; null until all ended.
 *
 * @param calls the group's calls
 * @returns milliseconds, or null
 */
export function groupDurationMs(calls: readonly ToolCallView[]): number | null {
  let start = Infinity;
  let end = -Infinity;
  for (const view of calls) {
    const duration = callDurationMs(view);
    if (duration === null || !view.call) return null;
    const from = Date.parse(view.call.createdAt);
    start = Math.min(start, from);
    end = Math.max(end, from + duration);
  }
  return calls.length === 0 ? null : end - start;
}

/** What a group's header calls its calls: one kind of work, or tools in general. */
export type GroupNoun = "files" | "changes" | "searches" | "commands" | "tools";

const NOUN_OF_TOOL: Readonly<Record<string, GroupNoun>> = {
  read: "files",
  write: "changes",
  edit: "changes",
  grep: "searches",
  glob: "searches",
  process_start: "commands",
};

/**
 * The header's noun: "files" when every call reads a file, and so on; "tools" for a mix.
 *
 * @param toolIds the group's tool ids
 * @returns the noun
 */
export function groupNoun(toolIds: readonly string[]): GroupNoun {
  const nouns = new Set(toolIds.map((id) => NOUN_OF_TOOL[id] ?? "tools"));
  return nouns.size === 1 ? [...nouns][0]! : "tools";
}

/**
 * A tool's id as the call or result records it ("?" when neither does).
 *
 * @param view the call and its result
 */
export function toolIdOf(view: ToolCallView): string {
  const id = view.call?.data.toolId ?? view.result?.data.toolId;
  return typeof id === "string" && id !== "" ? id : "?";
}
