/**
 * `plan` through the one wrapper: the whole plan in, a checklist and `details.plan` (with
 * progress) out; bad plans are `invalid_arguments` naming what is wrong.
 */
import assert from "node:assert/strict";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { createRunGate } from "../gate.ts";
import { PLAN_ITEM_TEXT_MAX_CHARS, PLAN_ITEMS_MAX_COUNT } from "../limits.ts";
import { type PlanItem, planProgress, planTool } from "./plan.ts";

const ITEMS: PlanItem[] = [
  { text: "Read the config loader", status: "done" },
  { text: "Add the flag", status: "in_progress" },
  { text: "Write tests", status: "pending" },
];

Deno.test("plan returns the checklist and the plan with its progress, in every preset", async () => {
  await using ws = await createTestWorkspace();
  for (const policy of ["read_only", "ask", "workspace_write", "full_access"] as const) {
    const gate = createRunGate({ executionPolicy: policy, homeDir: ws.base, askUser: true });
    const result = await executeTool(planTool, { items: ITEMS }, {
      ...ws.context,
      executionPolicy: policy,
      gate,
    });
    assert.equal(result.isError, undefined, `${policy}: ${result.content}`);
    assert.equal(
      result.content,
      "Plan updated (1 of 3 done):\n[x] Read the config loader\n[>] Add the flag\n[ ] Write tests",
      policy,
    );
    assert.deepEqual(result.details?.plan, { items: ITEMS, done: 1, total: 3 }, policy);
  }
});

Deno.test("planProgress counts the done items", () => {
  const cases: [PlanItem["status"][], { done: number; total: number }][] = [
    [["pending"], { done: 0, total: 1 }],
    [["done", "done"], { done: 2, total: 2 }],
    [["done", "in_progress", "pending", "done"], { done: 2, total: 4 }],
  ];
  for (const [statuses, expected] of cases) {
    const items = statuses.map((status, i) => ({ text: `s${i}`, status }));
    assert.deepEqual(planProgress(items), expected, statuses.join(","));
  }
});

Deno.test("plan refuses bad plans with invalid_arguments naming what is wrong", async () => {
  await using ws = await createTestWorkspace();
  const step = (status: string) => ({ text: "step", status });
  const cases: [string, unknown, RegExp][] = [
    ["no items", {}, /items/],
    ["empty plan", { items: [] }, /items/],
    [
      "too many items",
      { items: Array.from({ length: PLAN_ITEMS_MAX_COUNT + 1 }, () => step("pending")) },
      /items/,
    ],
    ["blank text", { items: [{ text: " ", status: "pending" }] }, /items\.0\.text/],
    [
      "text too long",
      { items: [{ text: "x".repeat(PLAN_ITEM_TEXT_MAX_CHARS + 1), status: "done" }] },
      /items\.0\.text/,
    ],
    ["unknown status", { items: [step("blocked")] }, /items\.0\.status/],
    [
      "two in progress",
      { items: [step("in_progress"), step("in_progress")] },
      /at most one item may be in_progress \(2 are\)/,
    ],
    ["unknown field", { items: [{ ...step("done"), owner: "me" }] }, /owner/],
  ];
  for (const [name, args, message] of cases) {
    const result = await executeTool(planTool, args, ws.context);
    assert.equal(result.errorCode, "invalid_arguments", `${name}: ${result.content}`);
    assert.match(result.content, message, name);
  }
});
