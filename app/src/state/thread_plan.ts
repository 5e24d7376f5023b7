/**
 * The open thread's plan: the latest successful `plan` call's result on the shown branch
 * (its `details.plan`, journaled in the tool_result item's data like every tool's details),
 * derived from the conversation's items, so it is there again after a reload
 * (`turn.list`) and follows live events without a store of its own.
 *
 * @module
 */
import type { Item } from "@daedalus/client";
import type { ConversationState } from "./conversation_projection.ts";

/** Where a plan item is. */
export type PlanItemStatus = "pending" | "in_progress" | "done";

/** One item of a thread's plan. */
export interface ThreadPlanItem {
  /** What the step is. */
  text: string;
  /** Where it is. */
  status: PlanItemStatus;
}

/** A thread's latest plan and its progress. */
export interface ThreadPlan {
  /** The items, in order. */
  items: readonly ThreadPlanItem[];
  /** How many are done. */
  done: number;
  /** How many there are. */
  total: number;
  /** The tool_result item it came from. */
  itemId: string;
}

const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "done"]);

/**
 * The latest plan of the shown branch, or null when the agent never made one.
 *
 * @param state the open thread's conversation (null: none open)
 * @returns the plan
 */
export function latestPlan(state: ConversationState | null): ThreadPlan | null {
  if (state === null) return null;
  for (let t = state.turns.length - 1; t >= 0; t--) {
    const runs = state.turns[t]!.runs;
    for (let r = runs.length - 1; r >= 0; r--) {
      const items = runs[r]!.items;
      for (let i = items.length - 1; i >= 0; i--) {
        const plan = planOfItem(items[i]!);
        if (plan !== null) return plan;
      }
    }
  }
  return null;
}

/**
 * The plan a `plan` call's result carries; null for any other item, a failed call, or data
 * that is not a plan (the wire is loose: a malformed record is skipped, not trusted).
 *
 * @param item an item
 * @returns the plan
 */
export function planOfItem(item: Item): ThreadPlan | null {
  if (item.kind !== "tool_result" || item.status !== "completed") return null;
  const data = item.data as { toolId?: unknown; isError?: unknown; plan?: unknown };
  if (data.toolId !== "plan" || data.isError === true) return null;
  const raw = (data.plan as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const items: ThreadPlanItem[] = [];
  for (const entry of raw) {
    const { text, status } = (entry ?? {}) as { text?: unknown; status?: unknown };
    if (typeof text !== "string" || typeof status !== "string" || !STATUSES.has(status)) {
      return null;
    }
    items.push({ text, status: status as PlanItemStatus });
  }
  const done = items.filter((entry) => entry.status === "done").length;
  return { items, done, total: items.length, itemId: item.id };
}
