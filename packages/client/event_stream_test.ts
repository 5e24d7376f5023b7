import assert from "node:assert/strict";
import { EventSequencer } from "./event_stream.ts";
import { makeEvent } from "./_test_server.ts";
import { range, seqs } from "./_test_helpers.ts";

Deno.test("events in order are delivered at once", () => {
  const sequencer = new EventSequencer(0);
  assert.deepEqual(seqs(sequencer.accept(makeEvent(1))), [1]);
  assert.deepEqual(seqs(sequencer.accept(makeEvent(2))), [2]);
  assert.equal(sequencer.lastSeq, 2);
  assert.equal(sequencer.hasGap, false);
});

Deno.test("an event ahead of a gap is held until the gap is filled, then both come out in order", () => {
  const sequencer = new EventSequencer(3);
  assert.deepEqual(sequencer.accept(makeEvent(6)), [], "seq 6 must wait for 4 and 5");
  assert.equal(sequencer.hasGap, true);
  assert.equal(sequencer.firstHeldSeq, 6);
  assert.deepEqual(seqs(sequencer.accept(makeEvent(4))), [4]);
  assert.deepEqual(seqs(sequencer.accept(makeEvent(5))), [5, 6]);
  assert.equal(sequencer.hasGap, false);
  assert.equal(sequencer.lastSeq, 6);
});

Deno.test("duplicates are dropped, delivered or held", () => {
  const sequencer = new EventSequencer(0);
  sequencer.accept(makeEvent(1));
  sequencer.accept(makeEvent(3));
  assert.deepEqual(sequencer.accept(makeEvent(1)), [], "already delivered");
  assert.deepEqual(sequencer.accept(makeEvent(3)), [], "already held");
  assert.deepEqual(seqs(sequencer.accept(makeEvent(2))), [2, 3]);
  assert.equal(sequencer.heldCount, 0);
});

Deno.test("replay and live interleaved in any order yield every seq exactly once", () => {
  const sequencer = new EventSequencer(0);
  const out: number[] = [];
  const live = [1, 2, 5, 6, 9, 10];
  const replayed = range(1, 10);
  for (const seq of live) out.push(...seqs(sequencer.accept(makeEvent(seq))));
  for (const seq of replayed) out.push(...seqs(sequencer.accept(makeEvent(seq))));
  for (const seq of live) out.push(...seqs(sequencer.accept(makeEvent(seq))));
  assert.deepEqual(out, range(1, 10));
});

Deno.test("an unknown start holds everything until start(), which drops what it already covers", () => {
  const sequencer = new EventSequencer();
  assert.equal(sequencer.lastSeq, null);
  assert.deepEqual(sequencer.accept(makeEvent(4)), []);
  assert.deepEqual(sequencer.accept(makeEvent(6)), []);
  assert.equal(sequencer.hasGap, false, "no gap can be known before the start");
  assert.deepEqual(seqs(sequencer.start(4)), [], "seq 4 is covered by the start");
  assert.equal(sequencer.hasGap, true, "seq 5 is missing before 6");
  assert.deepEqual(seqs(sequencer.accept(makeEvent(5))), [5, 6]);
  assert.deepEqual(sequencer.start(0), [], "the start is fixed once");
  assert.equal(sequencer.lastSeq, 6);
});

Deno.test("a skipped (invalid) seq advances the stream without delivering anything", () => {
  const sequencer = new EventSequencer(0);
  assert.deepEqual(sequencer.accept(makeEvent(2)), []);
  assert.deepEqual(seqs(sequencer.skip(1)), [2]);
  assert.equal(sequencer.lastSeq, 2);
});
