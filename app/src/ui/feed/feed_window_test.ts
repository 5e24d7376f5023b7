import assert from "node:assert/strict";
import {
  adjacentTurn,
  anchorAt,
  covers,
  indexAt,
  isAtBottom,
  rangeAround,
  rowOffsets,
  unseenCount,
} from "./feed_window.ts";

const rows = (count: number, estimate = 100) =>
  Array.from({ length: count }, (_, i) => ({ key: `r${i}`, estimate }));

Deno.test("feed window: offsets use measured heights and estimates for the rest", () => {
  const offsets = rowOffsets(rows(4), new Map([["r1", 40], ["r3", 10]]));
  assert.deepEqual([...offsets], [0, 100, 140, 240, 250]);
  assert.deepEqual([...rowOffsets([], new Map())], [0]);
});

Deno.test("feed window: indexAt finds the row under a position, clamped to the rows", () => {
  const offsets = rowOffsets(rows(5), new Map());
  assert.equal(indexAt(offsets, -50), 0);
  assert.equal(indexAt(offsets, 0), 0);
  assert.equal(indexAt(offsets, 99.5), 0);
  assert.equal(indexAt(offsets, 100), 1);
  assert.equal(indexAt(offsets, 450), 4);
  assert.equal(indexAt(offsets, 10_000), 4);
  assert.equal(indexAt(rowOffsets([], new Map()), 10), 0);
});

Deno.test("feed window: 10,000 rows render only the viewport plus overscan", () => {
  const offsets = rowOffsets(rows(10_000), new Map());
  const range = rangeAround(offsets, 500_000, 800, 400);
  // rows 4996..5012 cover 499,600..501,200 px
  assert.deepEqual(range, { start: 4996, end: 5013 });
  assert.ok(range.end - range.start < 20, `rendered ${range.end - range.start} rows`);
  assert.deepEqual(rangeAround(offsets, 0, 800, 400), { start: 0, end: 13 });
  assert.deepEqual(rangeAround(offsets, 999_200, 800, 400), { start: 9988, end: 10_000 });
  assert.deepEqual(rangeAround(rowOffsets([], new Map()), 0, 800, 400), { start: 0, end: 0 });
});

Deno.test("feed window: covers tells when a scroll left the rendered rows", () => {
  const offsets = rowOffsets(rows(100), new Map());
  const range = { start: 10, end: 30 }; // 1,000..3,000 px
  assert.equal(covers(offsets, range, 1_000, 800), true);
  assert.equal(covers(offsets, range, 2_200, 800), true);
  assert.equal(covers(offsets, range, 900, 800), false, "rows above are missing");
  assert.equal(covers(offsets, range, 2_300, 800), false, "rows below are missing");
  assert.equal(covers(offsets, { start: 0, end: 100 }, -20, 20_000), true);
});

Deno.test("feed window: the anchor row keeps its place when rows are prepended", () => {
  const before = rows(10);
  const anchor = anchorAt(rowOffsets(before, new Map()), before, 530);
  assert.deepEqual(anchor, { key: "r5", delta: 30 });
  const older = Array.from({ length: 3 }, (_, i) => ({ key: `old${i}`, estimate: 70 }));
  const after = [...older, ...before];
  const offsets = rowOffsets(after, new Map([["r0", 250]]));
  const at = after.findIndex((row) => row.key === anchor!.key);
  // 3 × 70 for the new rows, 250 for r0 (measured bigger), 4 × 100 before r5
  assert.equal(offsets[at]! + anchor!.delta, 210 + 250 + 400 + 30);
  assert.equal(anchorAt(new Float64Array([0]), [], 0), null);
});

Deno.test("feed window: at the bottom within the slack", () => {
  assert.equal(isAtBottom(1_200, 800, 2_000, 24), true);
  assert.equal(isAtBottom(1_180, 800, 2_000, 24), true);
  assert.equal(isAtBottom(1_100, 800, 2_000, 24), false);
  assert.equal(isAtBottom(0, 800, 300, 24), true, "content shorter than the viewport");
});

Deno.test("feed window: unseen rows are those after the last one seen", () => {
  assert.equal(unseenCount(["a", "b", "c", "d"], "b"), 2);
  assert.equal(unseenCount(["a", "b"], "b"), 0);
  assert.equal(unseenCount(["a", "b"], null), 2);
  assert.equal(unseenCount(["a", "b"], "gone"), 0);
});

Deno.test("feed window: adjacentTurn steps from the viewport's top", () => {
  const tops = [0, 500, 1_200, 3_000];
  assert.equal(adjacentTurn(tops, 500, 1), 2, "the turn at the top is the current one");
  assert.equal(adjacentTurn(tops, 500, -1), 0);
  assert.equal(adjacentTurn(tops, 700, -1), 1, "back to the start of the turn in view");
  assert.equal(adjacentTurn(tops, 499.6, 1), 2, "a fraction above still counts as at it");
  assert.equal(adjacentTurn(tops, 3_000, 1), null);
  assert.equal(adjacentTurn(tops, 0, -1), null);
  assert.equal(adjacentTurn([], 0, 1), null);
});
