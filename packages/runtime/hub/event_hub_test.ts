import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { EventHub } from "./event_hub.ts";

/** A journal event the hub only orders by seq; the rest is never read. */
function event(seq: number): JournalEvent {
  return {
    seq,
    schemaVersion: 1,
    threadId: null,
    branchId: null,
    turnId: null,
    runId: null,
    itemId: null,
    timestamp: "2026-01-01T00:00:00.000Z",
    type: "item.delta",
    payload: { seq },
  } as unknown as JournalEvent;
}

const events = (...seqs: number[]) => seqs.map(event);

/** A hub with one subscriber recording seqs, and the listener errors it reported. */
function hubOver(latestSeq = 0) {
  const listenerErrors: unknown[] = [];
  const hub = new EventHub({
    latestSeq,
    onListenerError: (error) => listenerErrors.push(error),
  });
  const seen: number[] = [];
  hub.subscribe((e) => seen.push(e.seq));
  return { hub, seen, listenerErrors };
}

Deno.test("events published in order reach subscribers at once, in order", () => {
  const { hub, seen } = hubOver();
  hub.publish(events(1, 2));
  hub.publish(events(3));
  assert.deepEqual(seen, [1, 2, 3]);
  assert.equal(hub.latestSeq(), 3);
});

Deno.test("an event published before an earlier one is held until the gap closes", () => {
  const { hub, seen } = hubOver();
  hub.publish(events(3, 2));
  assert.deepEqual(seen, [], "2 and 3 wait for 1");
  hub.publish(events(1));
  assert.deepEqual(seen, [1, 2, 3], "then all three leave in seq order");
});

Deno.test("publishers racing in any order still give one gap-free stream", () => {
  const { hub, seen } = hubOver();
  const batches = [[5, 6], [2], [7], [1, 3], [4]];
  for (const batch of batches) hub.publish(events(...batch));
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7]);
});

Deno.test("an event published twice, or one already delivered, is delivered once", () => {
  const { hub, seen } = hubOver();
  hub.publish(events(1, 2));
  hub.publish(events(2, 1));
  hub.publish(events(4, 4));
  hub.publish(events(3));
  assert.deepEqual(seen, [1, 2, 3, 4]);
});

Deno.test("a hub opened on an existing journal starts after its latest seq", () => {
  const { hub, seen } = hubOver(41);
  hub.publish(events(40, 41));
  assert.deepEqual(seen, [], "events clients replay anyway are not published again");
  hub.publish(events(42));
  assert.deepEqual(seen, [42]);
  assert.equal(hub.latestSeq(), 42);
});

Deno.test("latestSeq reports what is committed, even before it is published", () => {
  const { hub, seen } = hubOver();
  hub.noteCommitted(events(1, 2));
  assert.equal(hub.latestSeq(), 2, "a client replaying now gets 1 and 2 from the journal");
  hub.noteCommitted(events(1));
  assert.equal(hub.latestSeq(), 2, "an older commit does not move it back");
  assert.deepEqual(seen, [], "noting a commit publishes nothing");
});

Deno.test("a closed hub delivers to nobody", () => {
  const { hub, seen } = hubOver();
  hub.publish(events(2));
  hub.close();
  hub.publish(events(1));
  assert.deepEqual(seen, []);
});

Deno.test("a listener that throws is reported and the others still get every event", () => {
  const { hub, seen, listenerErrors } = hubOver();
  let calls = 0;
  hub.subscribe(() => {
    calls += 1;
    throw new Error("listener broke");
  });
  const after: number[] = [];
  hub.subscribe((e) => after.push(e.seq));
  hub.publish(events(1, 2));
  assert.deepEqual(seen, [1, 2]);
  assert.deepEqual(after, [1, 2], "a later listener is not skipped");
  assert.equal(calls, 2, "the throwing listener stays subscribed");
  assert.deepEqual(listenerErrors.map((e) => (e as Error).message), [
    "listener broke",
    "listener broke",
  ]);
});

Deno.test("an unsubscribed listener gets nothing more", () => {
  const { hub } = hubOver();
  const got: number[] = [];
  const stop = hub.subscribe((e) => got.push(e.seq));
  hub.publish(events(1));
  stop();
  hub.publish(events(2));
  assert.deepEqual(got, [1]);
});
