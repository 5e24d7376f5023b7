import assert from "node:assert/strict";
import { OutboundQueue, type StallReason, utf8ByteLength } from "./ws_outbound.ts";
import { waitUntil } from "../_test_wait.ts";

class FakeSink {
  readonly sent: string[] = [];
  bufferedAmount = 0;
  /** When false, sends pile up in bufferedAmount as on a peer that stopped reading. */
  draining = true;

  send(text: string): void {
    this.sent.push(text);
    if (!this.draining) this.bufferedAmount += utf8ByteLength(text);
  }
}

function makeQueue(sink: FakeSink, options: { maxEvents?: number; sendTimeoutMs?: number } = {}) {
  const stalls: StallReason[] = [];
  const clock = { now: 0 };
  const queue = new OutboundQueue(sink, {
    maxEvents: options.maxEvents ?? 1024,
    sendTimeoutMs: options.sendTimeoutMs ?? 5_000,
    highWaterBytes: 10,
    drainPollMs: 1,
    onStall: (reason) => stalls.push(reason),
    now: () => clock.now,
  });
  return { queue, stalls, clock };
}

Deno.test("messages leave in order and wait while the socket is above the high-water mark", async () => {
  const sink = new FakeSink();
  sink.draining = false;
  const { queue, stalls } = makeQueue(sink);
  try {
    queue.pushResponse("r1-0123456789");
    queue.pushEvent("e1");
    queue.pushEvent("e2");
    assert.deepEqual(sink.sent, ["r1-0123456789"], "the rest waits above high water");
    assert.equal(queue.waitingEvents, 2);
    sink.bufferedAmount = 0;
    sink.draining = true;
    await waitUntil(
      "the held messages to leave once the socket drained",
      () => sink.sent.length >= 3,
      () => `sent: ${JSON.stringify(sink.sent)}`,
    );
    assert.deepEqual(sink.sent, ["r1-0123456789", "e1", "e2"]);
    assert.equal(queue.waitingEvents, 0);
    assert.deepEqual(stalls, []);
  } finally {
    queue.dispose();
  }
});

Deno.test("held events follow the response queued while they were held", () => {
  const sink = new FakeSink();
  const { queue } = makeQueue(sink);
  try {
    queue.holdEvents();
    queue.pushEvent("event-1");
    queue.pushResponse("initialize-response");
    queue.pushEvent("event-2");
    assert.deepEqual(sink.sent, ["initialize-response"]);
    queue.releaseEvents();
    assert.deepEqual(sink.sent, ["initialize-response", "event-1", "event-2"]);
  } finally {
    queue.dispose();
  }
});

Deno.test("nested holds release the events only when the last hold ends", () => {
  const sink = new FakeSink();
  const { queue } = makeQueue(sink);
  try {
    queue.holdEvents();
    queue.holdEvents();
    queue.pushEvent("event-1");
    queue.pushResponse("first-response");
    queue.releaseEvents();
    assert.deepEqual(sink.sent, ["first-response"], "one hold still stands");
    queue.pushResponse("second-response");
    queue.releaseEvents();
    assert.deepEqual(sink.sent, ["first-response", "second-response", "event-1"]);
    queue.releaseEvents(); // one release too many is harmless
    queue.pushEvent("event-2");
    assert.deepEqual(sink.sent.at(-1), "event-2", "no hold: events pass at once");
  } finally {
    queue.dispose();
  }
});

Deno.test("one event beyond maxEvents is an overflow, reported once; responses do not count", () => {
  const sink = new FakeSink();
  sink.bufferedAmount = 1_000_000;
  const { queue, stalls } = makeQueue(sink, { maxEvents: 3 });
  try {
    for (let i = 0; i < 5; i++) queue.pushResponse(`response-${i}`);
    for (let i = 0; i < 3; i++) queue.pushEvent(`event-${i}`);
    assert.deepEqual(stalls, [], "three waiting events are within the limit");
    queue.pushEvent("event-3");
    queue.pushEvent("event-4");
    assert.deepEqual(stalls, ["overflow"]);
    assert.equal(queue.waitingEvents, 0, "the queue was dropped");
    assert.deepEqual(sink.sent, [], "nothing more is sent");
  } finally {
    queue.dispose();
  }
});

Deno.test("a send still unflushed at the timeout stalls the peer; a flushed one does not", () => {
  const stuck = new FakeSink();
  stuck.draining = false;
  const late = makeQueue(stuck, { sendTimeoutMs: 5_000 });
  const flowing = new FakeSink();
  const fine = makeQueue(flowing, { sendTimeoutMs: 5_000 });
  try {
    late.queue.pushEvent("a");
    fine.queue.pushEvent("a");
    late.clock.now = fine.clock.now = 4_999;
    late.queue.pushResponse("b");
    assert.deepEqual(late.stalls, [], "not yet");
    late.clock.now = fine.clock.now = 5_000;
    late.queue.pushResponse("c");
    fine.queue.pushResponse("c");
    assert.deepEqual(late.stalls, ["send_timeout"]);
    assert.deepEqual(fine.stalls, [], "a peer that flushed is never timed out");
  } finally {
    late.queue.dispose();
    fine.queue.dispose();
  }
});

Deno.test("utf8ByteLength agrees with TextEncoder", () => {
  for (const text of ["", "abc", "é", "日本語", "😀x", "\ud800", "a\udc00b", "\u07ff\u0800"]) {
    assert.equal(utf8ByteLength(text), new TextEncoder().encode(text).byteLength, text);
  }
});
