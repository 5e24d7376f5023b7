import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import type { ConversationState, RunView } from "./conversation_projection.ts";
import { latestPlan, planOfItem } from "./thread_plan.ts";

let ordinal = 0;
function item(kind: Item["kind"], data: Record<string, unknown>, status = "completed"): Item {
  ordinal++;
  return {
    id: `item_${ordinal}`,
    turnId: "turn_1",
    runId: "run_1",
    ordinal,
    kind,
    role: kind === "tool_result" ? "tool" : "assistant",
    status: status as Item["status"],
    content: "",
    data,
    createdAt: "2026-12-01T10:00:00.000Z",
    updatedAt: "2026-12-01T10:00:00.000Z",
  };
}

function planResult(statuses: string[], over: Record<string, unknown> = {}): Item {
  return item("tool_result", {
    toolId: "plan",
    isError: false,
    plan: { items: statuses.map((status, i) => ({ text: `step ${i + 1}`, status })) },
    ...over,
  });
}

function conversationOf(...runs: Item[][]): ConversationState {
  return {
    threadId: "thread_1",
    snapshotSeq: 1,
    appliedSeq: 1,
    pending: [],
    turns: runs.map((items, i) => ({
      id: `turn_${i}`,
      ordinal: i + 1,
      runs: [{ id: `run_${i}`, items } as unknown as RunView],
    })),
  };
}

Deno.test("latestPlan: the newest successful plan result of the shown branch", () => {
  const first = planResult(["done", "pending"]);
  const second = planResult(["done", "done", "in_progress"]);
  const state = conversationOf([first, item("message", {})], [second, item("message", {})]);
  const plan = latestPlan(state);
  assert.equal(plan?.itemId, second.id, "the later turn's plan wins");
  assert.deepEqual([plan?.done, plan?.total], [2, 3]);
  assert.deepEqual(plan?.items.map((i) => i.status), ["done", "done", "in_progress"]);
  assert.equal(latestPlan(conversationOf([item("message", {})])), null, "no plan made");
  assert.equal(latestPlan(null), null, "no thread open");
});

Deno.test("planOfItem skips what is not a good plan result", () => {
  const cases: [string, Item][] = [
    ["a tool call", item("tool_call", { toolId: "plan", arguments: {} })],
    ["another tool's result", planResult(["done"], { toolId: "read" })],
    ["a failed call", planResult(["done"], { isError: true })],
    ["a failed item", item("tool_result", { toolId: "plan", plan: { items: [] } }, "failed")],
    ["no items", planResult([])],
    ["an unknown status", planResult(["blocked"])],
    ["no plan", item("tool_result", { toolId: "plan" })],
    [
      "an item without text",
      item("tool_result", { toolId: "plan", plan: { items: [{ status: "done" }] } }),
    ],
  ];
  for (const [name, candidate] of cases) assert.equal(planOfItem(candidate), null, name);
  // An older good plan shows through a later broken one.
  const good = planResult(["pending"]);
  assert.equal(latestPlan(conversationOf([good, planResult(["blocked"])]))?.itemId, good.id);
});
