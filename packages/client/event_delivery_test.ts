import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { connect } from "./connect.ts";
import type { DaedalusClient } from "./daedalus_client.ts";
import type { ClientError } from "./errors.ts";
import { makeEvent, replayPage, startFakeRuntime, TEST_TOKEN } from "./_test_server.ts";
import { range, seqs, take, within } from "./_test_helpers.ts";

function replaysSent(server: ReturnType<typeof startFakeRuntime>) {
  return server.connections.flatMap((c) => c.received)
    .filter((r) => r.method === "event.replay")
    .map((r) => (r.params as { afterSeq: number }).afterSeq);
}

Deno.test("three simultaneous clients receive identical, ordered, gap-free event streams", async () => {
  const server = startFakeRuntime();
  server.append(5);
  const clients: DaedalusClient[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      clients.push(await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 }));
    }
    const iterators = clients.map((c) => c.events[Symbol.asyncIterator]());
    // The second client misses some live pushes and must fill them by replay.
    for (const seq of [7, 8, 20]) server.connections[1].withhold.add(seq);
    server.publish(25);
    const streams = await Promise.all(iterators.map((it, i) => take(it, 30, `client ${i}`)));
    for (const [i, stream] of streams.entries()) {
      assert.deepEqual(seqs(stream), range(1, 30), `client ${i} saw every seq once, in order`);
      assert.deepEqual(stream, streams[0], `client ${i} saw the same events as client 0`);
    }
    assert.deepEqual(stream0Types(streams[0]), new Set(["thread.renamed"]));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.shutdown();
  }
});

function stream0Types(events: JournalEvent[]): Set<string> {
  return new Set(events.map((e) => e.type));
}

Deno.test("a live event that arrives ahead of the replay is held until the replay fills the gap", async () => {
  const server = startFakeRuntime();
  server.append(3);
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  server.handlers.set("event.replay", async (params) => {
    await gate;
    return replayPage(server.journal, params);
  });
  const client = await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 });
  try {
    const heard: number[] = [];
    client.onEvent((event) => heard.push(event.seq));
    const iterator = client.events[Symbol.asyncIterator]();
    const connection = server.connections[0];
    await server.until(() => connection.received.some((r) => r.method === "event.replay"));
    // Seq 4 is pushed live before the replay answers: the socket delivers it first.
    server.publish(1);
    release();
    const events = await take(iterator, 4);
    assert.deepEqual(seqs(events), [1, 2, 3, 4]);
    assert.deepEqual(heard, [1, 2, 3, 4], "seq 4 was not delivered before 1–3");
    assert.equal(client.lastSeq, 4);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a gap in the live stream is filled by event.replay from the last contiguous seq", async () => {
  const server = startFakeRuntime();
  server.append(3);
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    const iterator = client.events[Symbol.asyncIterator]();
    server.connections[0].withhold.add(5);
    server.publish(3);
    assert.deepEqual(seqs(await take(iterator, 3)), [4, 5, 6]);
    assert.deepEqual(replaysSent(server), [4], "one replay, after the last contiguous seq");
    server.publish(1);
    assert.deepEqual(seqs(await take(iterator, 1)), [7], "the live seq 6 was not delivered twice");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("resuming from lastSeq replays page by page while hasMore, then goes live", async () => {
  const server = startFakeRuntime();
  server.append(2500);
  const client = await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 });
  try {
    const iterator = client.events[Symbol.asyncIterator]();
    const replayed = await take(iterator, 2500);
    assert.deepEqual(seqs(replayed), range(1, 2500));
    assert.deepEqual(replaysSent(server), [0, 1000, 2000]);
    server.publish(2);
    assert.deepEqual(seqs(await take(iterator, 2)), [2501, 2502]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("an invalid event is reported, not delivered, and does not stall the stream", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    const problems: ClientError[] = [];
    client.onError((error) => problems.push(error as ClientError));
    const iterator = client.events[Symbol.asyncIterator]();
    server.append(1); // seq 1 is committed, but this client receives a mangled copy
    const mangled = { ...makeEvent(1), payload: { thread: { id: 42 } } };
    const connection = server.connections[0];
    connection.sendRaw(JSON.stringify({ jsonrpc: "2.0", method: "event", params: mangled }));
    connection.sendRaw(JSON.stringify({ jsonrpc: "2.0", method: "event", params: { nope: 1 } }));
    connection.sendRaw("{not json");
    server.publish(1);
    assert.deepEqual(seqs(await take(iterator, 1)), [2]);
    assert.deepEqual(
      problems.map((p) => [p.code, p.seq]),
      [["invalid_event", 1], ["invalid_event", undefined], ["invalid_message", undefined]],
    );
    assert.match(problems[0].message, /Event 1 is invalid at payload/);
    assert.deepEqual(replaysSent(server), [], "the invalid seq was skipped, not replayed");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("events delivered before any consumer attached are held for the first one", async () => {
  const server = startFakeRuntime();
  server.append(4);
  const client = await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 });
  try {
    await within(
      new Promise<void>((resolve) => {
        const check = () => client.lastSeq === 4 ? resolve() : setTimeout(check, 5);
        check();
      }),
      "the replay to finish",
    );
    assert.deepEqual(seqs(await take(client.events[Symbol.asyncIterator](), 4)), [1, 2, 3, 4]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("seqs a thread deletion erased are counted as seen: no gap, no stall", async () => {
  const server = startFakeRuntime();
  server.append(10);
  const erased = new Set([3, 4, 5, 9]);
  server.handlers.set("event.replay", (params) => {
    const page = replayPage(server.journal, params);
    // The runtime leaves erased rows out of `events` and names them instead.
    const events = page.events.filter((e) => !erased.has(e.seq));
    const erasedSeqs = page.events.filter((e) => erased.has(e.seq)).map((e) => e.seq);
    return { ...page, events, ...(erasedSeqs.length > 0 ? { erasedSeqs } : {}) };
  });
  const client = await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 });
  try {
    const problems: unknown[] = [];
    client.onError((error) => problems.push(error));
    const iterator = client.events[Symbol.asyncIterator]();
    assert.deepEqual(seqs(await take(iterator, 6)), [1, 2, 6, 7, 8, 10]);
    server.publish(1);
    assert.deepEqual(seqs(await take(iterator, 1)), [11], "the live stream goes on after them");
    assert.equal(client.lastSeq, 11);
    assert.deepEqual(problems, [], "an erased seq is not a gap");
  } finally {
    await client.close();
    await server.shutdown();
  }
});
