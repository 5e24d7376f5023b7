/**
 * The `plan` tool: the model shows the user its plan as a checklist (each item pending,
 * in progress or done), replaced as a whole by every call. It keeps no state of its own:
 * the plan is the call's arguments and its result's `details.plan`, journaled like every
 * tool call, so a client derives a thread's latest plan from the thread's items (the PWA
 * pins it above the composer) and it survives restarts and reloads with them.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { PLAN_ITEM_TEXT_MAX_CHARS, PLAN_ITEMS_MAX_COUNT } from "../limits.ts";
import description from "./plan.md" with { type: "text" };

/** Where a plan item is. */
export type PlanItemStatus = "pending" | "in_progress" | "done";

/** One item of a plan. */
export interface PlanItem {
  /** What the step is. */
  text: string;
  /** Where it is. */
  status: PlanItemStatus;
}

/** Parameters of {@linkcode planTool}: the whole plan. */
export interface PlanParams {
  /** The items, in order. */
  items: PlanItem[];
}

/** The schema of {@linkcode PlanParams}. */
export const PlanParams: ToolParams<PlanParams> = z.strictObject({
  items: z.array(z.strictObject({
    text: z.string().trim().min(1).max(PLAN_ITEM_TEXT_MAX_CHARS),
    status: z.enum(["pending", "in_progress", "done"]),
  })).min(1).max(PLAN_ITEMS_MAX_COUNT),
}).superRefine((params, context) => {
  // One step is worked on at a time: two in progress means the plan is out of date.
  const working = params.items.filter((item) => item.status === "in_progress").length;
  if (working > 1) {
    context.addIssue({
      code: "custom",
      path: ["items"],
      message: `at most one item may be in_progress (${working} are)`,
    });
  }
});

/**
 * How far a plan got.
 *
 * @param items the plan's items
 * @returns the number done and the number of items
 */
export function planProgress(items: readonly PlanItem[]): { done: number; total: number } {
  return { done: items.filter((item) => item.status === "done").length, total: items.length };
}

const MARKS: Record<PlanItemStatus, string> = {
  pending: "[ ]",
  in_progress: "[>]",
  done: "[x]",
};

/** Shows the user the plan (replacing the previous one). */
export const planTool: ToolDefinition<PlanParams> = defineTool({
  id: "plan",
  // deno fmt ends the file with a newline; the model is shown the text without it.
  description: description.trimEnd(),
  params: PlanParams,
  // It touches nothing of the workspace; the plan is this call's own record.
  mutating: false,
  risk: "read",
  run: (params) => {
    const { done, total } = planProgress(params.items);
    const lines = params.items.map((item) => `${MARKS[item.status]} ${item.text}`);
    return Promise.resolve({
      content: `Plan updated (${done} of ${total} done):\n${lines.join("\n")}`,
      details: { plan: { items: params.items, done, total } },
    });
  },
});
