import assert from "node:assert/strict";
import { waitUntil } from "../_test_wait.ts";
import { BetweenRuns } from "./between_runs.ts";

/** Lets a zero-delay timer run. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Upkeep with one task that counts its runs, over a settable idle state. */
function upkeep(tasks: (() => void)[] = [], report?: (error: unknown) => void) {
  const state = { idle: true, runs: 0 };
  const between = new BetweenRuns(
    () => state.idle,
    [...tasks, () => void state.runs++],
    report,
  );
  return { state, between };
}

Deno.test("the tasks run once on the next event-loop turn, not synchronously", async () => {
  const { state, between } = upkeep();
  try {
    between.runsFinished();
    between.runsFinished(); // a second call while one is pending adds none
    assert.equal(state.runs, 0, "not inside the settling Run's turn");
    await waitUntil("the tasks", () => state.runs === 1);
    await nextTurn();
    assert.equal(state.runs, 1);
  } finally {
    between.close();
  }
});

Deno.test("a Run that started before the tasks ran puts them off to the next idle moment", async () => {
  const { state, between } = upkeep();
  try {
    between.runsFinished();
    state.idle = false; // a turn.start arrived in between
    await nextTurn();
    assert.equal(state.runs, 0);
    state.idle = true;
    between.runsFinished();
    await waitUntil("the tasks", () => state.runs === 1);
  } finally {
    between.close();
  }
});

Deno.test("close cancels pending tasks, and none run after it", async () => {
  const { state, between } = upkeep();
  between.runsFinished();
  between.close();
  between.runsFinished();
  await nextTurn();
  assert.equal(state.runs, 0);
});

Deno.test("a failing task is reported and the others still run", async () => {
  const reported: unknown[] = [];
  const { state, between } = upkeep([() => {
    throw new Error("disk I/O error");
  }], (error) => reported.push(error));
  try {
    between.runsFinished();
    await waitUntil("the tasks", () => state.runs === 1);
    assert.match(String(reported[0]), /disk I\/O error/);
  } finally {
    between.close();
  }
});
