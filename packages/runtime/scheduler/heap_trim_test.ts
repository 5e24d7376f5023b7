import assert from "node:assert/strict";
import { waitUntil } from "../_test_wait.ts";
import { exposedGc, HeapTrimmer } from "./heap_trim.ts";

const MiB = 1024 * 1024;

/** A trimmer over a fake heap: `grow` adds garbage, a collection leaves `live` MiB. */
function fakeHeap(options: { live?: number; growthBytes?: number } = {}) {
  const state = { used: (options.live ?? 20) * MiB, idle: true, collections: 0 };
  const trimmer = new HeapTrimmer({
    idle: () => state.idle,
    collect: () => {
      state.collections++;
      state.used = (options.live ?? 20) * MiB;
    },
    heapUsed: () => state.used,
    growthBytes: options.growthBytes ?? 8 * MiB,
  });
  return { state, trimmer, grow: (mib: number) => state.used += mib * MiB };
}

/** Lets the trimmer's zero-delay timer run. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

Deno.test("the heap is collected once it has grown by the threshold, after the event loop turns", async () => {
  const { state, trimmer, grow } = fakeHeap();
  try {
    grow(7);
    trimmer.runsFinished();
    await nextTurn();
    assert.equal(state.collections, 0, "7 MiB of growth is under the 8 MiB threshold");
    grow(1);
    trimmer.runsFinished();
    assert.equal(state.collections, 0, "not synchronously: the Run's last events go first");
    await waitUntil("the collection", () => state.collections === 1);
    trimmer.runsFinished();
    await nextTurn();
    assert.equal(state.collections, 1, "the heap is back at its live size: nothing to do");
    assert.equal(trimmer.collections, 1);
  } finally {
    trimmer.close();
  }
});

Deno.test("a large live heap waits for a quarter of itself of growth", async () => {
  const { state, trimmer, grow } = fakeHeap({ live: 200 });
  try {
    grow(40);
    trimmer.runsFinished();
    await nextTurn();
    assert.equal(state.collections, 0, "40 MiB is under a quarter of 200 MiB");
    grow(10);
    trimmer.runsFinished();
    await waitUntil("the collection", () => state.collections === 1);
  } finally {
    trimmer.close();
  }
});

Deno.test("a Run that started before the collection ran puts it off to the next idle moment", async () => {
  const { state, trimmer, grow } = fakeHeap();
  try {
    grow(10);
    trimmer.runsFinished();
    state.idle = false; // a turn.start arrived in between
    await nextTurn();
    assert.equal(state.collections, 0);
    state.idle = true;
    trimmer.runsFinished();
    await waitUntil("the collection", () => state.collections === 1);
  } finally {
    trimmer.close();
  }
});

Deno.test("close cancels a pending collection, and nothing is collected after it", async () => {
  const { state, trimmer, grow } = fakeHeap();
  grow(10);
  trimmer.runsFinished();
  trimmer.close();
  trimmer.runsFinished();
  await nextTurn();
  assert.equal(state.collections, 0);
});

Deno.test("without an exposed gc the trimmer does nothing", async () => {
  let read = 0;
  const trimmer = new HeapTrimmer({
    idle: () => true,
    collect: null,
    heapUsed: () => (read++, 100 * MiB),
  });
  trimmer.runsFinished();
  await nextTurn();
  assert.equal(trimmer.collections, 0);
  assert.equal(read, 0, "not even the heap is read");
  trimmer.close();
  // The test runner exposes no gc: the default finds none.
  assert.equal(exposedGc(), null);
});
