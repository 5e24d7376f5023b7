import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { encodeEventNotification } from "./event_notification.ts";
import { utf8ByteLength } from "./ws_outbound.ts";

/** An event whose payload counts how often an encoder reads it. */
function countedEvent(seq: number): { event: JournalEvent; reads: () => number } {
  let reads = 0;
  const payload = {
    get delta() {
      reads += 1;
      return "héllo";
    },
  };
  const event = {
    seq,
    type: "item.delta",
    threadId: "thread_1",
    payload,
  } as unknown as JournalEvent;
  return { event, reads: () => reads };
}

Deno.test("an event is encoded once however many connections push it", () => {
  const { event, reads } = countedEvent(1);
  const first = encodeEventNotification(event);
  const readsForOne = reads();
  const others = [encodeEventNotification(event), encodeEventNotification(event)];
  assert.equal(reads(), readsForOne, "the second and third connection reuse the text");
  for (const other of others) assert.deepEqual(other, first);
  assert.deepEqual(JSON.parse(first.text), {
    jsonrpc: "2.0",
    method: "event",
    params: { seq: 1, type: "item.delta", threadId: "thread_1", payload: { delta: "héllo" } },
  });
  assert.equal(first.bytes, utf8ByteLength(first.text));
  assert.equal(first.bytes, new TextEncoder().encode(first.text).byteLength);
});

Deno.test("an event that breaks the JSON rules fails for every connection", () => {
  const event = { seq: 2, type: "x", payload: { n: Number.NaN } } as unknown as JournalEvent;
  assert.throws(() => encodeEventNotification(event), /not finite/);
  assert.throws(() => encodeEventNotification(event), /not finite/);
});
