import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import {
  callDurationMs,
  groupDurationMs,
  groupNoun,
  groupOpensByDefault,
  groupState,
  runEntries,
  type ToolCallView,
  toolIdOf,
  type ToolState,
  toolState,
} from "./tool_activity.ts";

const T0 = Date.parse("2026-12-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

function make(
  id: string,
  kind: Item["kind"],
  ordinal: number,
  data: Record<string, unknown> = {},
  more: Partial<Item> = {},
): Item {
  return {
    id,
    turnId: "turn",
    runId: "run",
    ordinal,
    kind,
    role: kind === "tool_result" ? "tool" : "assistant",
    status: "completed",
    content: kind === "message" ? `text of ${id}` : "",
    data,
    createdAt: at(0),
    updatedAt: at(0),
    ...more,
  };
}

/** The entries as short strings: `m:<id>` for a message, `[call>result, …]` for a step. */
function shape(items: Item[]): string[] {
  return runEntries(items).map((entry) =>
    entry.kind === "item"
      ? `m:${entry.item.id}`
      : `[${entry.calls.map((v) => `${v.call?.id ?? "-"}>${v.result?.id ?? "-"}`).join(",")}]`
  );
}

Deno.test("tool activity: calls group by step and pair with their results", () => {
  const call = (id: string, ordinal: number, data: Record<string, unknown>) =>
    make(id, "tool_call", ordinal, data);
  const result = (id: string, ordinal: number, data: Record<string, unknown>) =>
    make(id, "tool_result", ordinal, data);
  const cases: [string, Item[], string[]][] = [
    ["no tools", [make("u", "message", 1), make("a", "message", 2)], ["m:u", "m:a"]],
    ["one step of four calls, results after them", [
      make("u", "message", 1),
      make("t", "message", 2),
      ...[1, 2, 3, 4].map((n) => call(`c${n}`, 2 + n, { toolId: "echo", callId: `k${n}` })),
      ...[4, 2, 3, 1].map((n, i) => result(`r${n}`, 7 + i, { toolId: "echo", callId: `k${n}` })),
      make("a", "message", 11),
    ], ["m:u", "m:t", "[c1>r1,c2>r2,c3>r3,c4>r4]", "m:a"]],
    ["one call per step: results end a step; a reused call id pairs with the nearest", [
      call("c1", 1, { toolId: "read", callId: "call_1" }),
      result("r1", 2, { toolId: "read", callId: "call_1" }),
      call("c2", 3, { toolId: "read", callId: "call_1" }),
      result("r2", 4, { toolId: "read", callId: "call_1" }),
    ], ["[c1>r1]", "[c2>r2]"]],
    ["a message between steps", [
      call("c1", 1, { toolId: "read", callId: "a" }),
      result("r1", 2, { toolId: "read", callId: "a" }),
      make("m", "message", 3),
      call("c2", 4, { toolId: "grep", callId: "b" }),
    ], ["[c1>r1]", "m:m", "[c2>-]"]],
    ["results without ids pair by tool, in the calls' order", [
      call("c1", 1, { toolId: "read" }),
      call("c2", 2, { toolId: "grep" }),
      call("c3", 3, { toolId: "read" }),
      result("r2", 4, { toolId: "grep" }),
      result("r1", 5, { toolId: "read" }),
      result("r3", 6, { toolId: "read" }),
    ], ["[c1>r1,c2>r2,c3>r3]"]],
    ["an interrupted result names its call's item", [
      call("c1", 1, { toolId: "read", callId: "x" }),
      call("c2", 2, { toolId: "read", callId: "x" }),
      result("r", 3, { toolCallItemId: "c1", isError: true }),
    ], ["[c1>r,c2>-]"]],
    ["a result whose call is not loaded stands alone", [
      result("r", 1, { toolId: "read", callId: "gone" }),
      make("a", "message", 2),
    ], ["[->r]", "m:a"]],
    ["an answer without text (only thinking before its calls) is no entry", [
      make("u", "message", 1, {}, { role: "user" }),
      make("think", "message", 2, {}, { content: "" }),
      call("c1", 3, { toolId: "list", callId: "a" }),
      make("blank", "message", 4, {}, { content: "  \n" }),
      call("c2", 5, { toolId: "read", callId: "b" }),
      make("live", "message", 6, {}, { content: "", status: "streaming" }),
    ], ["m:u", "[c1>-,c2>-]", "m:live"]],
    ["a result never pairs with a call after it", [
      result("r", 1, { toolId: "read" }),
      call("c", 2, { toolId: "read" }),
    ], ["[->r]", "[c>-]"]],
  ];
  for (const [name, items, expected] of cases) assert.deepEqual(shape(items), expected, name);
});

Deno.test("tool activity: a call's state from its items, its approval and its Run", () => {
  const call = (status: Item["status"]) => make("c", "tool_call", 1, { toolId: "x" }, { status });
  const result = (status: Item["status"], data: Record<string, unknown> = {}) =>
    make("r", "tool_result", 2, { toolId: "x", ...data }, { status });
  const cases: [string, ToolCallView, boolean, boolean, ToolState][] = [
    ["running", { call: call("running"), result: null }, false, true, "running"],
    ["waiting", { call: call("running"), result: null }, true, true, "waiting-approval"],
    ["cut off by its Run", { call: call("running"), result: null }, false, false, "cancelled"],
    ["done", { call: call("completed"), result: result("completed") }, false, true, "completed"],
    ["failed result", { call: call("failed"), result: result("failed") }, false, false, "failed"],
    [
      "isError result",
      {
        call: call("completed"),
        result: result("completed", { isError: true }),
      },
      false,
      false,
      "failed",
    ],
    [
      "cancelled result",
      {
        call: call("cancelled"),
        result: result("cancelled"),
      },
      false,
      false,
      "cancelled",
    ],
    ["failed without result", { call: call("failed"), result: null }, false, false, "failed"],
    ["answered approval", { call: call("completed"), result: null }, true, true, "completed"],
    ["lone result", { call: null, result: result("completed") }, false, true, "completed"],
  ];
  for (const [name, view, pending, active, expected] of cases) {
    assert.equal(toolState(view, pending, active), expected, name);
  }
});

Deno.test("tool activity: a group's state, whether it opens, its noun", () => {
  const states: [ToolState[], ToolState][] = [
    [[], "completed"],
    [["completed", "completed"], "completed"],
    [["completed", "cancelled"], "cancelled"],
    [["completed", "failed", "cancelled"], "failed"],
    [["failed", "running"], "running"],
    [["running", "waiting-approval", "failed"], "waiting-approval"],
  ];
  for (const [all, expected] of states) assert.equal(groupState(all), expected, all.join());
  assert.equal(groupOpensByDefault(["completed", "completed"], false), false, "done: folded");
  assert.equal(groupOpensByDefault(["completed", "cancelled"], false), false, "cut off: folded");
  assert.equal(groupOpensByDefault(["completed", "running"], false), true, "running: open");
  assert.equal(groupOpensByDefault(["waiting-approval"], false), true, "waiting: open");
  assert.equal(groupOpensByDefault(["completed", "failed"], false), true, "failed: open");
  assert.equal(groupOpensByDefault(["completed"], true), true, "asked about: open");
  const nouns: [string[], string][] = [
    [["read", "read", "read"], "files"],
    [["write", "edit"], "changes"],
    [["grep", "glob"], "searches"],
    [["process_start", "process_start"], "commands"],
    [["read", "grep"], "tools"],
    [["process_start", "process_wait"], "tools"],
    [["echo", "echo"], "tools"],
  ];
  for (const [ids, noun] of nouns) assert.equal(groupNoun(ids), noun, ids.join());
  assert.equal(toolIdOf({ call: null, result: make("r", "tool_result", 1, {}) }), "?");
  assert.equal(toolIdOf({ call: null, result: make("r", "tool_result", 1, { toolId: "a" }) }), "a");
});

Deno.test("tool activity: durations from the call's start to its result", () => {
  const call = (start: number, status: Item["status"], updated = start) =>
    make("c", "tool_call", 1, {}, { createdAt: at(start), updatedAt: at(updated), status });
  const result = (when: number) => make("r", "tool_result", 2, {}, { createdAt: at(when) });
  assert.equal(callDurationMs({ call: call(0, "completed"), result: result(1500) }), 1500);
  assert.equal(callDurationMs({ call: call(0, "running"), result: null }), null, "running");
  assert.equal(callDurationMs({ call: call(0, "failed", 800), result: null }), 800, "settled");
  assert.equal(callDurationMs({ call: null, result: result(5) }), null, "no call");
  assert.equal(
    callDurationMs({
      call: { ...call(0, "completed"), createdAt: "not a time" },
      result: result(1),
    }),
    null,
  );
  assert.equal(
    callDurationMs({ call: call(2000, "completed"), result: result(1000) }),
    0,
    "a clock step back is never negative",
  );
  const views: ToolCallView[] = [
    { call: call(0, "completed"), result: result(300) },
    { call: call(100, "completed"), result: result(2100) },
  ];
  assert.equal(groupDurationMs(views), 2100, "first start to last result");
  assert.equal(groupDurationMs([...views, { call: call(0, "running"), result: null }]), null);
  assert.equal(groupDurationMs([]), null);
});
