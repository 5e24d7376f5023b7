import assert from "node:assert/strict";
import type { CanonicalEvent } from "@daedalus/protocol";
import { FakeClock } from "../_test_clock.ts";
import { DifyEncoder } from "./dify_encoder.ts";
import { DIFY_PING_FRAME, difySseStream } from "./dify_sse.ts";
import { DIFY_PING_INTERVAL_MS } from "./limits.ts";

const IDS = { taskId: "t", messageId: "m", conversationId: "c", createdAt: 1 };

/** An event source the test feeds by hand. */
function channel() {
  const queue: (CanonicalEvent | Error)[] = [];
  let wake: (() => void) | null = null;
  let returned = false;
  const source: AsyncIterable<CanonicalEvent> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        while (queue.length === 0) await new Promise<void>((resolve) => wake = resolve);
        const next = queue.shift()!;
        if (next instanceof Error) throw next;
        return { done: false, value: next };
      },
      return() {
        returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  return {
    source,
    push(item: CanonicalEvent | Error) {
      queue.push(item);
      wake?.();
    },
    get returned() {
      return returned;
    },
  };
}

/** Reads frames as they arrive. */
function frames(body: ReadableStream<Uint8Array>) {
  const got: string[] = [];
  let done = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        got.push(buffer.slice(0, end + 2));
        buffer = buffer.slice(end + 2);
      }
    }
    done = true;
  })();
  return {
    got,
    get done() {
      return done;
    },
    reading,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("Dify SSE: a ping at the start and every 10 s of a long stream, data in order", async () => {
  const clock = new FakeClock();
  const events = channel();
  const body = difySseStream(events.source, new DifyEncoder(IDS, 0), {
    schedule: clock.schedule,
    now: () => clock.now,
  });
  const read = frames(body);
  await settle();
  assert.deepEqual(read.got, [DIFY_PING_FRAME]);
  // Ten quiet minutes: 60 pings, one per 10 s, and nothing else.
  for (let second = 1; second <= 600; second++) {
    clock.advance(1000);
    await settle();
    assert.equal(read.got.length, 1 + Math.floor(second / 10), `after ${second} s`);
  }
  assert.ok(read.got.every((frame) => frame === DIFY_PING_FRAME));
  events.push({ type: "text_delta", messageId: "x", delta: "hi" });
  await settle();
  const data = read.got.at(-1)!;
  assert.match(data, /^data: \{.*"event":"agent_message".*\}\n\n$/);
  assert.equal(JSON.parse(data.slice(6)).answer, "hi");
  clock.advance(DIFY_PING_INTERVAL_MS);
  await settle();
  assert.equal(read.got.at(-1), DIFY_PING_FRAME, "the ping stopped once data flowed");
  events.push({ type: "done", status: "completed", usage: null });
  await read.reading;
  assert.equal(JSON.parse(read.got.at(-1)!.slice(6)).event, "message_end");
  assert.deepEqual(clock.pendingDelays, [], "a ping timer outlived the stream");
});

Deno.test("Dify SSE: a source that fails mid-stream is an error frame, then the end", async () => {
  const clock = new FakeClock();
  const events = channel();
  const read = frames(
    difySseStream(events.source, new DifyEncoder(IDS, 0), { schedule: clock.schedule }),
  );
  events.push({ type: "text_delta", messageId: "x", delta: "partial" });
  events.push(new Error("the agent broke"));
  await read.reading;
  const objects = read.got.filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));
  assert.deepEqual(objects.map((o) => o.event), ["agent_message", "error"]);
  assert.equal(objects[1].code, "internal_server_error");
  assert.equal(objects[1].message, "the agent broke");
  assert.deepEqual(clock.pendingDelays, []);
});

Deno.test("Dify SSE: a source that ends without done still ends with message_end", async () => {
  const body = difySseStream(
    (async function* () {
      yield { type: "text_delta", messageId: "x", delta: "a" } as CanonicalEvent;
    })(),
    new DifyEncoder(IDS, 0),
    { schedule: new FakeClock().schedule },
  );
  const text = await new Response(body).text();
  assert.ok(text.endsWith("\n\n"));
  const last = text.trim().split("\n\n").at(-1)!;
  assert.equal(JSON.parse(last.slice(6)).event, "message_end");
});

Deno.test("Dify SSE: a client that goes away stops the source and the pings", async () => {
  const clock = new FakeClock();
  const events = channel();
  let gone = 0;
  const body = difySseStream(events.source, new DifyEncoder(IDS, 0), {
    schedule: clock.schedule,
    onClientGone: () => gone++,
  });
  const reader = body.getReader();
  await reader.read();
  await reader.cancel();
  await settle();
  assert.equal(gone, 1);
  assert.ok(events.returned, "the source was not told to stop");
  assert.deepEqual(clock.pendingDelays, []);
});
