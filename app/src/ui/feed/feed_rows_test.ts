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

Deno.test("feed rows: items in order, a row after active or failed Runs only", () => {
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

Deno.test("feed rows: a Run that moved to its fallback gets its line after its items", () => {
  const moved = {
    ...run("t1", "running", [item("a", "t1", "user", "hi"), item("b", "t1", "assistant", "yo")]),
    fallback: {
      from: { providerId: "p", modelId: "one" },
      to: { providerId: "p", modelId: "two" },
      reasonCode: "provider_server" as const,
    },
  };
  const rows = feedRows([turn("t1", 1, [moved])]);
  assert.deepEqual(rows.map((row) => `${row.kind}:${row.key}`), [
    "item:a",
    "item:b",
    "run-fallback:run-fallback:run_t1",
    "run-end:run-end:run_t1",
  ]);
  const stayed = feedRows([
    turn("t1", 1, [run("t1", "completed", [item("a", "t1", "user", "hi")])]),
  ]);
  assert.equal(stayed.some((row) => row.kind === "run-fallback"), false, "no move, no line");
});
