import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import { queuedRun, type RunView, type TurnView } from "../../state/projection.ts";
import { feedRows, sameEntries, turnEntries } from "./feed_rows.ts";

function item(id: string, turnId: string, role: "user" | "assistant", content: string): Item {
  return {
    id,
    turnId,
    runId: `run_${turnId}`,
    ordinal: 1,
    kind: "message",
    role,
    status: "completed",
    content,
    data: {},
    createdAt: "2026-11-30T00:00:00.000Z",
    updatedAt: "2026-11-30T00:00:00.000Z",
  };
}

function run(turnId: string, status: RunView["status"], items: Item[]): RunView {
  return { ...queuedRun(`run_${turnId}`, turnId), status, items };
}

function turn(id: string, ordinal: number, runs: RunView[]): TurnView {
  return { id, ordinal, runs };
}

Deno.test("feed rows: items in order, then the Run's end: progress, outcome or usage", () => {
  const turns = [
    turn("t1", 1, [
      run("t1", "completed", [item("a", "t1", "user", "hi"), item("b", "t1", "assistant", "yo")]),
    ]),
    turn("t2", 2, [run("t2", "failed", [item("c", "t2", "user", "again")])]),
    turn("t3", 3, [run("t3", "running", [item("d", "t3", "user", "more")])]),
  ];
  assert.deepEqual(feedRows(turns).map((row) => row.key), [
    "a",
    "b",
    "run-usage:run_t1",
    "c",
    "run-end:run_t2",
    "d",
    "run-end:run_t3",
  ]);
});

Deno.test("feed rows: unchanged items keep their row objects across states", () => {
  const first = item("a", "t1", "user", "hi");
  const before = feedRows([turn("t1", 1, [run("t1", "running", [first])])]);
  const streamed = item("b", "t1", "assistant", "partial");
  const after = feedRows([turn("t1", 1, [run("t1", "running", [first, streamed])])]);
  assert.equal(after[0], before[0], "the user's row is reused, so it does not re-render");
  assert.notEqual(after.at(-1), before.at(-1), "the progress row follows the new Run state");
});

Deno.test("feed rows: taller guesses for longer text", () => {
  const [short, long] = feedRows([
    turn("t1", 1, [run("t1", "completed", [
      item("a", "t1", "assistant", "one line"),
      item("b", "t1", "assistant", "x".repeat(900)),
    ])]),
  ]);
  assert.ok(short && long && long.estimate > short.estimate);
});

Deno.test("feed rows: navigator entries label each turn with its user message", () => {
  const turns = [
    turn("t1", 1, [run("t1", "completed", [item("a", "t1", "user", "first line\nsecond")])]),
    turn("t2", 2, []),
    turn("t3", 3, [run("t3", "completed", [item("c", "t3", "user", "y".repeat(200))])]),
  ];
  const entries = turnEntries(turns);
  assert.deepEqual(entries.map((e) => [e.turnId, e.rowKey, e.ordinal]), [
    ["t1", "a", 1],
    ["t3", "c", 3],
  ]);
  assert.equal(entries[0]!.label, "first line");
  assert.equal(entries[1]!.label.length, 80);
  assert.ok(entries[1]!.label.endsWith("…"));
  assert.equal(sameEntries(entries, turnEntries(turns)), true);
  assert.equal(sameEntries(entries, entries.slice(1)), false);
});

Deno.test("feed rows: a Run's fallback line sits where the move happened", () => {
  const fallback = {
    from: { providerId: "p", modelId: "one" },
    to: { providerId: "p", modelId: "two" },
    reasonCode: "provider_server" as const,
  };
  const at = (it: Item, createdAt: string): Item => ({ ...it, createdAt });
  const items = [
    at(item("u", "t1", "user", "hi"), "2026-11-30T00:00:00.000Z"),
    at(item("early", "t1", "assistant", "step 1"), "2026-11-30T00:00:01.000Z"),
    at(item("late", "t1", "assistant", "step 2"), "2026-11-30T00:00:03.000Z"),
  ];
  const keys = (fb: RunView["fallback"], status: RunView["status"] = "running") =>
    feedRows([turn("t1", 1, [{ ...run("t1", status, items), fallback: fb }])]).map((row) =>
      row.key
    );
  assert.deepEqual(
    keys({ ...fallback, at: "2026-11-30T00:00:02.000Z" }),
    ["u", "early", "run-fallback:run_t1", "late", "run-end:run_t1"],
    "live: before the first item made after the move",
  );
  assert.deepEqual(
    keys({ ...fallback, at: "2026-11-30T00:00:05.000Z" }, "completed"),
    ["u", "early", "late", "run-fallback:run_t1", "run-usage:run_t1"],
    "live, nothing made since: after the items",
  );
  assert.deepEqual(
    keys({ ...fallback, at: null }),
    ["u", "run-fallback:run_t1", "early", "late", "run-end:run_t1"],
    "from the run record only: before the first answer",
  );
  assert.deepEqual(
    keys(null, "completed"),
    ["u", "early", "late", "run-usage:run_t1"],
    "no move, no line",
  );
});

function tool(
  id: string,
  kind: "tool_call" | "tool_result",
  ordinal: number,
  data: Record<string, unknown>,
  status: Item["status"] = "completed",
): Item {
  return {
    ...item(id, "t1", "assistant", ""),
    kind,
    role: kind === "tool_call" ? "assistant" : "tool",
    ordinal,
    status,
    data,
  };
}

Deno.test("feed rows: a step's tool calls are one row, its results joined to them", () => {
  const step = [
    tool("c1", "tool_call", 2, { toolId: "read", callId: "call_1" }),
    tool("c2", "tool_call", 3, { toolId: "grep", callId: "call_2" }),
    tool("r1", "tool_result", 4, { toolId: "read", callId: "call_1" }),
    tool("r2", "tool_result", 5, { toolId: "grep", callId: "call_2" }),
    tool("c3", "tool_call", 6, { toolId: "read", callId: "call_1" }),
    tool("r3", "tool_result", 7, { toolId: "read", callId: "call_1" }),
  ];
  const items = [item("u", "t1", "user", "hi"), ...step, {
    ...item("a", "t1", "assistant", "done"),
    ordinal: 8,
  }];
  const rows = feedRows([turn("t1", 1, [run("t1", "completed", items)])]);
  assert.deepEqual(rows.map((row) => row.key), [
    "u",
    "tools:c1",
    "tools:c3",
    "a",
    "run-usage:run_t1",
  ], "two steps, two rows; the results are not rows of their own");
  const first = rows[1]!;
  assert.ok(first.kind === "tools");
  assert.deepEqual(first.calls.map((view) => [view.call?.id, view.result?.id]), [
    ["c1", "r1"],
    ["c2", "r2"],
  ]);
  const again = feedRows([turn("t1", 1, [run("t1", "completed", [...items])])]);
  assert.equal(again[1], first, "an unchanged step keeps its row object");
  const failed = feedRows([turn("t1", 1, [run("t1", "failed", items)])]);
  assert.equal(failed[1], first, "another settled state changes nothing a row shows");
  const active = feedRows([turn("t1", 1, [run("t1", "running", items)])]);
  assert.notEqual(active[1], first, "whether the Run is going is the row's: a new row");
});

Deno.test("feed rows: a running step is guessed open, a finished one folded", () => {
  const calls = [1, 2, 3, 4].map((n) =>
    tool(`c${n}`, "tool_call", n + 1, { toolId: "echo", callId: `call_${n}` }, "running")
  );
  const running = feedRows([turn("t1", 1, [run("t1", "running", calls)])])[0]!;
  const results = [1, 2, 3, 4].map((n) =>
    tool(`r${n}`, "tool_result", n + 5, { toolId: "echo", callId: `call_${n}` })
  );
  const done = feedRows([turn("t1", 1, [run("t1", "completed", [...calls, ...results])])])[0]!;
  assert.ok(running.kind === "tools" && done.kind === "tools");
  assert.ok(
    running.estimate > 3 * done.estimate,
    `open ${running.estimate} px vs folded ${done.estimate} px`,
  );
});
