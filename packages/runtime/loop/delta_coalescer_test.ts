import assert from "node:assert/strict";
import { FakeClock } from "../_test_clock.ts";
import { DELTA_COALESCE_MAX_CHARS, DELTA_COALESCE_MAX_MS } from "../limits.ts";
import { DeltaCoalescer } from "./delta_coalescer.ts";

function coalescer() {
  const clock = new FakeClock();
  const written: string[] = [];
  const stream = new DeltaCoalescer((text) => written.push(text), clock.schedule);
  return { clock, written, stream };
}

Deno.test("the limits are the spec's: 256 characters or 50 ms", () => {
  assert.equal(DELTA_COALESCE_MAX_CHARS, 256);
  assert.equal(DELTA_COALESCE_MAX_MS, 50);
});

Deno.test("the first delta is written at once, so the user sees the answer start", () => {
  const { clock, written, stream } = coalescer();
  stream.push("Hel");
  assert.deepEqual(written, ["Hel"], "written synchronously, before any timer");
  assert.deepEqual(clock.pendingDelays, [], "the first delta arms no timer");
});

Deno.test("an empty delta is not the first one", () => {
  const { written, stream } = coalescer();
  stream.push("");
  assert.deepEqual(written, []);
  stream.push("a");
  assert.deepEqual(written, ["a"], "the first non-empty delta is still written at once");
});

Deno.test("later deltas wait and leave as one piece after 50 ms", () => {
  const { clock, written, stream } = coalescer();
  stream.push("first");
  stream.push(" second");
  stream.push(" third");
  assert.deepEqual(written, ["first"], "later deltas are held");
  assert.deepEqual(clock.pendingDelays, [DELTA_COALESCE_MAX_MS], "one timer for the batch");
  clock.advance(DELTA_COALESCE_MAX_MS - 1);
  assert.deepEqual(written, ["first"], "nothing leaves before 50 ms");
  clock.advance(1);
  assert.deepEqual(written, ["first", " second third"]);
  assert.deepEqual(clock.pendingDelays, []);
});

Deno.test("the 50 ms count from the batch's first delta: a steady stream does not postpone it", () => {
  const { clock, written, stream } = coalescer();
  stream.push("a");
  stream.push("b");
  clock.advance(30);
  stream.push("c");
  clock.advance(20);
  assert.deepEqual(written, ["a", "bc"], "flushed 50 ms after b, not 50 ms after c");
});

Deno.test("a batch that reaches 256 characters leaves at once and cancels its timer", () => {
  const { clock, written, stream } = coalescer();
  stream.push("x");
  stream.push("y".repeat(DELTA_COALESCE_MAX_CHARS - 1));
  assert.deepEqual(written, ["x"], "255 characters still wait");
  stream.push("z");
  assert.deepEqual(written, ["x", `${"y".repeat(DELTA_COALESCE_MAX_CHARS - 1)}z`]);
  assert.deepEqual(clock.pendingDelays, [], "the timer went with the batch");
  clock.advance(DELTA_COALESCE_MAX_MS);
  assert.equal(written.length, 2, "the cancelled timer writes nothing");
});

Deno.test("one long delta after the first leaves whole, not split", () => {
  const { written, stream } = coalescer();
  stream.push("x");
  const long = "L".repeat(DELTA_COALESCE_MAX_CHARS * 3);
  stream.push(long);
  assert.deepEqual(written, ["x", long]);
});

Deno.test("flush at a boundary writes what waits now and nothing twice", () => {
  const { clock, written, stream } = coalescer();
  stream.push("a");
  stream.push("b");
  stream.flush();
  assert.deepEqual(written, ["a", "b"], "a tool call or finish does not wait for the timer");
  assert.deepEqual(clock.pendingDelays, []);
  stream.flush();
  clock.advance(DELTA_COALESCE_MAX_MS);
  assert.deepEqual(written, ["a", "b"], "an empty flush and the old timer write nothing");
});

Deno.test("after a flush the stream keeps coalescing: only the very first delta is immediate", () => {
  const { clock, written, stream } = coalescer();
  stream.push("a");
  stream.push("b");
  clock.advance(DELTA_COALESCE_MAX_MS);
  stream.push("c");
  assert.deepEqual(written, ["a", "b"], "c waits for its own batch");
  clock.advance(DELTA_COALESCE_MAX_MS);
  assert.deepEqual(written, ["a", "b", "c"]);
});

Deno.test("whatever the split, the pieces join to the streamed text in order", () => {
  const { clock, written, stream } = coalescer();
  const deltas: string[] = [];
  for (let index = 0; index < 400; index++) {
    const delta = `${index}:${"w".repeat(index % 37)} `;
    deltas.push(delta);
    stream.push(delta);
    if (index % 7 === 0) clock.advance(index % 3 === 0 ? DELTA_COALESCE_MAX_MS : 10);
  }
  stream.flush();
  assert.equal(written.join(""), deltas.join(""));
  assert.ok(written.length < deltas.length, `coalesced ${deltas.length} deltas into fewer pieces`);
  for (const piece of written.slice(1, -1)) {
    assert.ok(piece.length > 0, "no empty piece is written");
  }
});
