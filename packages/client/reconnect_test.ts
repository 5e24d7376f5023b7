import assert from "node:assert/strict";
import { connect } from "./connect.ts";
import { ClientError } from "./errors.ts";
import type { WebSocketConstructor, WebSocketOptions } from "./handshake.ts";
import { startFakeRuntime, TEST_TOKEN } from "./_test_server.ts";
import {
  range,
  recordingWebSocket,
  recordStates,
  seqs,
  stateReached,
  take,
} from "./_test_helpers.ts";

/** Polls a condition every 5 ms until it holds; fails with `what` after 10 s. */
async function pollUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function isOffline(error: unknown): boolean {
  assert.ok(error instanceof ClientError, `expected ClientError offline, got ${error}`);
  assert.equal(error.code, "offline", error.message);
  return true;
}

Deno.test("the server closes the socket mid-stream: the client reconnects, replays, and the consumer sees every seq exactly once", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN, lastSeq: 0 });
  try {
    const states = recordStates(client);
    const iterator = client.events[Symbol.asyncIterator]();
    // Seqs 1–7 are pushed, then the server drops the slow client (4008); 8–20 are
    // committed while it is away.
    server.publish(20, { closeAfter: 7, closeCode: 4008 });
    const second = await server.until(
      () => server.connections[1]?.initialized && server.connections[1],
      "the client to reconnect",
    );
    server.publish(5); // live on the new socket, perhaps while the replay is still running
    const events = await take(iterator, 25);
    assert.deepEqual(seqs(events), range(1, 25), "no gap, no duplicate, in order");
    assert.deepEqual(states, ["connected", "reconnecting", "connected"]);
    assert.deepEqual(second.received.slice(0, 2).map((r) => r.method), [
      "initialize",
      "event.replay",
    ]);
    assert.deepEqual(second.received[1].params, { afterSeq: 7, limit: 1000 });
    assert.equal(client.lastSeq, 25);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a call made while reconnecting waits for the connection", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    server.closeAll(4008, "slow client");
    await stateReached(client, "reconnecting");
    const list = await client.call("thread.list");
    assert.equal(list.threads.length, 1);
    assert.equal(client.state, "connected");
    assert.deepEqual(server.connections[1].received.map((r) => r.method), [
      "initialize",
      "thread.list",
    ]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("offline after the backoff ladder when the server is gone; reconnect() works once it is back", async () => {
  let server = startFakeRuntime();
  const { WebSocket, openings } = recordingWebSocket();
  const client = await connect({ url: server.url, token: TEST_TOKEN, WebSocket, lastSeq: 0 });
  try {
    const states = recordStates(client);
    const iterator = client.events[Symbol.asyncIterator]();
    server.publish(3);
    assert.deepEqual(seqs(await take(iterator, 3)), [1, 2, 3]);

    const { port, journal } = server;
    await server.shutdown();
    await stateReached(client, "reconnecting");
    const waiting = client.call("thread.list");
    await stateReached(client, "offline");
    await assert.rejects(waiting, isOffline, "a call waiting for the connection is rejected");
    await assert.rejects(client.call("thread.list"), isOffline, "and so is a call while offline");
    assert.deepEqual(states, ["connected", "reconnecting", "offline"]);
    assert.equal(openings.length, 1 + 5, "the first connection, then one attempt per rung");
    assert.ok(client.lastError, "the last failure is kept");

    // The runtime comes back on the same port; events were committed while it was away.
    server = startFakeRuntime({ port, journal });
    server.append(2);
    client.reconnect();
    await stateReached(client, "connected");
    server.publish(1);
    assert.deepEqual(seqs(await take(iterator, 3)), [4, 5, 6]);
    assert.deepEqual(states, ["connected", "reconnecting", "offline", "reconnecting", "connected"]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("connect() rejects as offline when the runtime never answers", async () => {
  const server = startFakeRuntime();
  const { port } = server;
  await server.shutdown();
  const { WebSocket, openings } = recordingWebSocket();
  await assert.rejects(
    connect({
      url: `http://127.0.0.1:${port}`,
      token: TEST_TOKEN,
      WebSocket,
      reconnectDelaysMs: [1, 1],
    }),
    isOffline,
  );
  assert.equal(openings.length, 3, "one attempt at once, then one per rung");
});

Deno.test("keepReconnecting: past the ladder the client keeps trying and never goes offline", async () => {
  const server = startFakeRuntime();
  const { WebSocket, openings } = recordingWebSocket();
  const client = await connect({
    url: server.url,
    token: TEST_TOKEN,
    WebSocket,
    reconnectDelaysMs: [1, 1],
    keepReconnecting: { maxDelayMs: 20 },
  });
  try {
    const states = recordStates(client);
    await server.shutdown();
    await stateReached(client, "reconnecting");
    const outcome = client.call("thread.list").then(() => null, (error: unknown) => error);
    await pollUntil(() => openings.length >= 1 + 12, "ten attempts past a two-rung ladder");
    assert.equal(client.state, "reconnecting", "never offline with keepReconnecting");
    assert.deepEqual(states, ["connected", "reconnecting"]);
    await client.close();
    const error = await outcome;
    assert.ok(
      error instanceof ClientError && error.code === "closed",
      `close() ends the wait of a call made while away, got ${error}`,
    );
  } finally {
    await client.close();
  }
});

Deno.test("keepReconnecting: reconnect() cuts a long wait short once the runtime is back, and replays", async () => {
  let server = startFakeRuntime();
  const { WebSocket, openings } = recordingWebSocket();
  const client = await connect({
    url: server.url,
    token: TEST_TOKEN,
    WebSocket,
    lastSeq: 0,
    // After one quick failed attempt the next wait is 10 minutes: only reconnect() can
    // bring the client back within the test's deadline.
    reconnectDelaysMs: [1, 600_000],
    keepReconnecting: { maxDelayMs: 600_000 },
  });
  try {
    const states = recordStates(client);
    const iterator = client.events[Symbol.asyncIterator]();
    server.publish(2);
    assert.deepEqual(seqs(await take(iterator, 2)), [1, 2]);
    const { port, journal } = server;
    await server.shutdown();
    await pollUntil(() => openings.length >= 2, "the quick attempt to fail");
    const waiting = client.call("thread.list");
    // Should an assertion below fail, close() rejects this call: that must not hide it.
    waiting.catch(() => {});
    server = startFakeRuntime({ port, journal });
    server.append(1);
    client.reconnect();
    await stateReached(client, "connected");
    assert.equal((await waiting).threads.length, 1, "the call made while away is answered");
    assert.deepEqual(
      seqs(await take(iterator, 1)),
      [3],
      "what was committed while away is replayed",
    );
    assert.deepEqual(states, ["connected", "reconnecting", "connected"]);
    client.reconnect(); // connected: nothing to do
    assert.equal(openings.length, 3, "one socket per attempt, none while connected");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("keepReconnecting: reconnect() during a failing attempt makes the next one follow at once", async () => {
  let server = startFakeRuntime();
  const { port, journal } = server;
  // The second socket is held connecting until the test lets it fail: reconnect() is then
  // called while that attempt is in flight, not during a wait.
  let failHeld: (() => void) | null = null;
  let openings = 0;
  const Held = function (url: string, argument?: string[] | WebSocketOptions) {
    openings++;
    if (openings !== 2) {
      const protocols = Array.isArray(argument) ? argument : argument?.protocols ?? [];
      const headers = Array.isArray(argument) ? {} : { ...argument?.headers };
      return new WebSocket(url, { headers, protocols });
    }
    const listeners = new Map<string, ((event: never) => void)[]>();
    const held = {
      readyState: 0,
      send() {},
      close() {},
      addEventListener(type: string, listener: (event: never) => void) {
        listeners.set(type, [...(listeners.get(type) ?? []), listener]);
      },
    };
    failHeld = () => {
      held.readyState = 3;
      for (const listener of listeners.get("error") ?? []) listener({} as never);
      for (const listener of listeners.get("close") ?? []) {
        listener({ code: 1006, reason: "" } as never);
      }
    };
    return held;
  } as unknown as WebSocketConstructor;
  const client = await connect({
    url: server.url,
    token: TEST_TOKEN,
    WebSocket: Held,
    reconnectDelaysMs: [1, 600_000],
    keepReconnecting: { maxDelayMs: 600_000 },
  });
  try {
    await server.shutdown();
    await pollUntil(() => failHeld !== null, "the second attempt to start");
    server = startFakeRuntime({ port, journal });
    client.reconnect();
    failHeld!();
    await stateReached(client, "connected");
    assert.equal(openings, 3, "the attempt after the failed one came at once");
  } finally {
    await client.close();
    await server.shutdown();
  }
});
