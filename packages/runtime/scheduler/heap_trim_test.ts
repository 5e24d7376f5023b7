import assert from "node:assert/strict";
import { RUNTIME_RUN_FLAGS } from "../../../scripts/runtime_flags.ts";
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

Deno.test("under the shipped V8 flags the collection gives emptied heap pages back", async () => {
  // A child with the shipped flags (the test runner has no gc): it fills the heap with
  // small garbage between survivors, then collects once through exposedGc.
  const script = `
    import { exposedGc } from ${JSON.stringify(new URL("./heap_trim.ts", import.meta.url).href)};
    // Small objects that live long enough to reach the old generation, one in 16 kept:
    // the survivors are spread over the pages, so only a compaction can empty them.
    let all = [];
    for (let i = 0; i < 1_000_000; i++) all.push({ i, text: "x" + i });
    const kept = all.filter((_, i) => i % 16 === 0);
    all = null;
    const before = Deno.memoryUsage().heapTotal;
    exposedGc()();
    console.log(JSON.stringify({ before, after: Deno.memoryUsage().heapTotal, kept: kept.length }));
  `;
  const v8Flags = RUNTIME_RUN_FLAGS.filter((flag) => flag.startsWith("--v8-flags="));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", ...v8Flags, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const { before, after } = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.ok(
    after < before / 2,
    `heap total ${(before / MiB).toFixed(1)} → ${
      (after / MiB).toFixed(1)
    } MiB: the emptied pages were kept (a plain collection keeps about three quarters)`,
  );
});
