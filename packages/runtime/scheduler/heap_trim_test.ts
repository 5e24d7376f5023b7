import assert from "node:assert/strict";
import { exposedGc, HeapTrimmer } from "./heap_trim.ts";

const MiB = 1024 * 1024;

/** A trimmer over a fake heap: `grow` adds garbage, a collection leaves `live` MiB. */
function fakeHeap(live = 20) {
  const state = { used: live * MiB, collections: 0 };
  const trimmer = new HeapTrimmer({
    collect: () => {
      state.collections++;
      state.used = live * MiB;
    },
    heapUsed: () => state.used,
    growthBytes: 8 * MiB,
  });
  return { state, trimmer, grow: (mib: number) => state.used += mib * MiB };
}

Deno.test("the heap is collected once it has grown by the threshold, then not until it grows again", () => {
  const { state, trimmer, grow } = fakeHeap();
  grow(7);
  trimmer.collectIfGrown();
  assert.equal(state.collections, 0, "7 MiB of growth is under the 8 MiB threshold");
  grow(1);
  trimmer.collectIfGrown();
  assert.equal(state.collections, 1);
  trimmer.collectIfGrown();
  assert.equal(state.collections, 1, "the heap is back at its live size: nothing to do");
  assert.equal(trimmer.collections, 1);
});

Deno.test("a large live heap waits for a quarter of itself of growth", () => {
  const { state, trimmer, grow } = fakeHeap(200);
  grow(40);
  trimmer.collectIfGrown();
  assert.equal(state.collections, 0, "40 MiB is under a quarter of 200 MiB");
  grow(10);
  trimmer.collectIfGrown();
  assert.equal(state.collections, 1);
});

Deno.test("without an exposed gc the trimmer does nothing, not even read the heap", () => {
  let read = 0;
  const trimmer = new HeapTrimmer({ collect: null, heapUsed: () => (read++, 100 * MiB) });
  trimmer.collectIfGrown();
  assert.equal(trimmer.collections, 0);
  assert.equal(read, 0);
  // The test runner exposes no gc: the default finds none.
  assert.equal(exposedGc(), null);
});
