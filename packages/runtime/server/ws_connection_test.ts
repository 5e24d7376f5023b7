import assert from "node:assert/strict";
import { compactEvent, inflateEvent } from "@daedalus/protocol";
import {
  assertTokenAbsent,
  RawWebSocket,
  startTestServer,
  type TestServer,
  TestSocket,
} from "./_test_fakes.ts";
import type { ServerLimits } from "./limits.ts";
import { waitUntil } from "../_test_wait.ts";

type Message = {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; data: { reasonCode: string; field?: string } };
  method?: string;
  params?: { seq: number };
};

const INITIALIZE = { protocolVersion: 1 };
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withServer(
  run: (server: TestServer) => Promise<void>,
  limits: Partial<ServerLimits> = {},
): Promise<void> {
  const server = await startTestServer({ limits });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function openBearer(server: TestServer): Promise<TestSocket> {
  return TestSocket.open(server.wsUrl, {
    headers: { authorization: `Bearer ${server.token}` },
    protocols: ["daedalus.rpc.v1"],
  });
}

async function next(socket: TestSocket): Promise<Message> {
  return await socket.next() as Message;
}

Deno.test("initialize comes first, once, with the supported version", async () => {
  await withServer(async (server) => {
    server.events.emit(3);
    const socket = await openBearer(server);
    try {
      const early = await socket.request(1, "test.echo") as Message;
      assert.equal(early.error?.code, -32000);
      assert.equal(early.error?.data.reasonCode, "not_initialized");
      const wrong = await socket.request(2, "initialize", { protocolVersion: 2 }) as Message;
      assert.equal(wrong.error?.code, -32001);
      assert.equal(wrong.error?.data.reasonCode, "unsupported_protocol_version");
      const stillEarly = await socket.request(3, "test.echo") as Message;
      assert.equal(stillEarly.error?.code, -32000, "a refused initialize does not initialize");
      const ok = await socket.request(4, "initialize", INITIALIZE) as Message;
      assert.deepEqual(ok.result, {
        protocolVersion: 1,
        server: { name: "daedalus-runtime", version: "0.0.0-test" },
        latestSeq: 3,
        eventEncoding: "full",
      });
      const again = await socket.request(5, "initialize", INITIALIZE) as Message;
      assert.equal(again.error?.code, -32002);
      assert.equal(again.error?.data.reasonCode, "already_initialized");
      const echo = await socket.request(6, "test.echo", { ok: true }) as Message;
      assert.deepEqual(echo.result, { echo: { ok: true } });
      assert.deepEqual(server.dispatcher.calls.map((call) => call.method), ["test.echo"]);
      assert.equal(server.dispatcher.calls[0].session.transport, "websocket");
    } finally {
      await socket.close();
    }
  });
});

Deno.test("events are pushed only after initialize, in seq order, after the causing response", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      server.events.emit(2); // before initialize: never pushed
      const init = await socket.request(1, "initialize", INITIALIZE) as Message;
      assert.equal(init.result?.latestSeq, 2);
      socket.send({ jsonrpc: "2.0", id: 2, method: "test.emit", params: { count: 3 } });
      const response = await next(socket);
      assert.equal(response.id, 2, "the response comes before the events it committed");
      assert.deepEqual(response.result, { seqs: [3, 4, 5] });
      const pushed = [await next(socket), await next(socket), await next(socket)];
      assert.deepEqual(pushed.map((message) => message.method), ["event", "event", "event"]);
      assert.deepEqual(pushed.map((message) => message.params?.seq), [3, 4, 5]);
      const fromHttp = await fetch(`${server.url}/rpc`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test.emit", params: { count: 1 } }),
      });
      await fromHttp.body?.cancel();
      const other = await next(socket);
      assert.equal(other.params?.seq, 6, "events committed by other clients are pushed too");
    } finally {
      await socket.close();
    }
  });
});

Deno.test("a socket that asked for compact events gets them compact, another full", async () => {
  await withServer(async (server) => {
    const compact = await openBearer(server);
    const full = await openBearer(server);
    try {
      const init = await compact.request(1, "initialize", {
        ...INITIALIZE,
        eventEncoding: "compact",
      }) as Message;
      assert.equal(init.result?.eventEncoding, "compact");
      await full.request(1, "initialize", INITIALIZE);
      const [event] = server.events.emit(1);
      const [slim, whole] = [await next(compact), await next(full)];
      assert.deepEqual(whole.params, event, "the full socket gets the event as committed");
      assert.deepEqual(slim.params, compactEvent(event!));
      assert.notDeepEqual(slim.params, whole.params, "the compact form differs");
      assert.deepEqual(inflateEvent(slim.params), event);
      const bad = await compact.request(2, "initialize", { ...INITIALIZE, eventEncoding: "gzip" });
      assert.equal((bad as Message).error?.code, -32002, "already initialized");
    } finally {
      await compact.close();
      await full.close();
    }
  });
});

Deno.test("an unknown eventEncoding is refused naming the field", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      const bad = await socket.request(1, "initialize", {
        ...INITIALIZE,
        eventEncoding: "gzip",
      }) as Message;
      assert.equal(bad.error?.code, -32602);
      assert.equal(bad.error?.data.field, "eventEncoding");
    } finally {
      await socket.close();
    }
  });
});

Deno.test("commands on one connection are answered in order, one at a time", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      await socket.request(1, "initialize", INITIALIZE);
      socket.send({ jsonrpc: "2.0", id: 2, method: "test.wait" });
      socket.send({ jsonrpc: "2.0", id: 3, method: "test.echo" });
      await waitUntil(
        "the first request to reach the dispatcher",
        () => server.dispatcher.calls.length > 0,
      );
      server.dispatcher.release();
      assert.deepEqual([(await next(socket)).id, (await next(socket)).id], [2, 3]);
      assert.deepEqual(server.dispatcher.calls.map((call) => call.method), [
        "test.wait",
        "test.echo",
      ]);
    } finally {
      await socket.close();
    }
  });
});

Deno.test("a slow read holds neither a later read nor a later command", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      await socket.request(1, "initialize", INITIALIZE);
      socket.send({ jsonrpc: "2.0", id: 2, method: "file.preview" });
      socket.send({ jsonrpc: "2.0", id: 3, method: "thread.list" });
      socket.send({ jsonrpc: "2.0", id: 4, method: "test.emit", params: { count: 1 } });
      const first = [await next(socket), await next(socket), await next(socket)];
      assert.deepEqual(
        first.map((message) => message.id ?? message.method),
        [3, 4, "event"],
        "the fast read and the command (then its event) are answered while the read waits",
      );
      server.dispatcher.release("file.preview");
      const slow = await next(socket);
      assert.equal(slow.id, 2);
      assert.deepEqual(slow.result, { waited: true });
    } finally {
      await socket.close();
    }
  });
});

Deno.test("a read waits for the commands sent before it", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      await socket.request(1, "initialize", INITIALIZE);
      socket.send({ jsonrpc: "2.0", id: 2, method: "test.wait" });
      socket.send({ jsonrpc: "2.0", id: 3, method: "thread.list" });
      await waitUntil(
        "the command to reach the dispatcher",
        () => server.dispatcher.calls.length > 0,
      );
      await delay(20); // room for a wrongly concurrent read to overtake; never a false failure
      assert.deepEqual(server.dispatcher.calls.map((call) => call.method), ["test.wait"]);
      server.dispatcher.release();
      assert.deepEqual([(await next(socket)).id, (await next(socket)).id], [2, 3]);
    } finally {
      await socket.close();
    }
  });
});

Deno.test("events that arrive while a command runs follow its response", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      await socket.request(1, "initialize", INITIALIZE);
      socket.send({ jsonrpc: "2.0", id: 2, method: "file.preview" });
      socket.send({ jsonrpc: "2.0", id: 3, method: "test.wait" });
      await waitUntil(
        "both calls to reach the dispatcher",
        () => server.dispatcher.calls.length === 2,
      );
      server.events.emit(1); // committed elsewhere while the command is in flight
      server.dispatcher.release("file.preview");
      const read = await next(socket);
      assert.equal(read.id, 2, "a read's response passes the held events");
      server.dispatcher.release();
      const [response, event] = [await next(socket), await next(socket)];
      assert.equal(response.id, 3, "the command's response comes first");
      assert.equal(event.method, "event");
      assert.equal(event.params?.seq, 1);
    } finally {
      await socket.close();
    }
  });
});

Deno.test("more messages waiting than the inbound limit close the connection with 1008", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    await socket.request(1, "initialize", INITIALIZE);
    socket.send({ jsonrpc: "2.0", id: 2, method: "file.preview" });
    socket.send({ jsonrpc: "2.0", id: 3, method: "test.wait" });
    socket.send({ jsonrpc: "2.0", id: 4, method: "thread.list" });
    const closed = await socket.closed;
    assert.equal(closed.code, 1008);
    assert.equal(closed.reason, "too many requests waiting");
  }, { wsInboundQueueMaxMessages: 2 });
});

Deno.test("a batch is answered as one array; a parse error keeps the connection", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      socket.send("{");
      const parse = await next(socket);
      assert.equal(parse.id, null);
      assert.equal(parse.error?.code, -32700);
      socket.send([
        { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE },
        { jsonrpc: "2.0", method: "test.echo" },
        { jsonrpc: "2.0", id: 2, method: "test.emit", params: { count: 1 } },
      ]);
      const batch = await socket.next() as Message[];
      assert.deepEqual(batch.map((message) => message.id), [1, 2]);
      const event = await next(socket);
      assert.equal(event.params?.seq, 1, "the batch's event follows the batch response");
    } finally {
      await socket.close();
    }
  });
});

Deno.test("the bearer subprotocol authenticates; only the real protocol is echoed", async () => {
  await withServer(async (server) => {
    const socket = await TestSocket.open(server.wsUrl, {
      protocols: ["daedalus.rpc.v1", `bearer.${server.token}`],
    });
    try {
      assert.equal(socket.socket.protocol, "daedalus.rpc.v1");
      const init = await socket.request(1, "initialize", INITIALIZE) as Message;
      assert.equal(init.result?.protocolVersion, 1);
    } finally {
      await socket.close();
    }
    const offered = `daedalus.rpc.v1, bearer.${server.token}`;
    const raw = await RawWebSocket.connect(server.port, { "Sec-WebSocket-Protocol": offered });
    raw.close();
    assert.match(raw.handshake, /^sec-websocket-protocol: daedalus\.rpc\.v1$/im);
    const alone = await RawWebSocket.connect(server.port, {
      "Sec-WebSocket-Protocol": `bearer.${server.token}`,
    });
    alone.close();
    assert.doesNotMatch(alone.handshake, /sec-websocket-protocol/i, "the token is never echoed");
    assertTokenAbsent(server.token, { handshake: raw.handshake, alone: alone.handshake });
    await assert.rejects(
      TestSocket.open(server.wsUrl, { protocols: ["daedalus.rpc.v1", `bearer.${"0".repeat(64)}`] }),
      "a wrong subprotocol token is refused",
    );
  });
});

Deno.test("upgrades from another origin or without a credential are refused", async () => {
  await withServer(async (server) => {
    const cookieTrade = await fetch(`${server.url}/auth/session`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}` },
    });
    const cookie = (cookieTrade.headers.get("set-cookie") ?? "").split(";")[0];
    const attempts: Array<[Record<string, string>, string]> = [
      [{}, "401"],
      [{ Authorization: `Bearer ${server.token}`, Origin: "http://evil.example" }, "403"],
      [{
        "Sec-WebSocket-Protocol": `daedalus.rpc.v1, bearer.${server.token}`,
        Origin: "http://evil.example",
      }, "403"],
      [{ Cookie: cookie, Origin: "http://evil.example" }, "403"],
      [{ Cookie: cookie }, "403"],
    ];
    for (const [headers, status] of attempts) {
      const error = await RawWebSocket.connect(server.port, headers).then(
        (raw) => {
          raw.close();
          return new Error("upgrade accepted");
        },
        (refusal: Error) => refusal,
      );
      assert.match(
        error.message,
        new RegExp(`refused: HTTP/1.1 ${status}`),
        JSON.stringify(headers),
      );
    }
    const sameOrigin = await RawWebSocket.connect(server.port, {
      Cookie: cookie,
      Origin: server.url,
    });
    sameOrigin.close();
    assert.equal(server.events.listenerCount, 0);
  });
});

Deno.test("an inbound message over the limit closes the connection with 1009", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    await socket.request(1, "initialize", INITIALIZE);
    socket.send({ jsonrpc: "2.0", id: 2, method: "test.echo", params: { pad: "x".repeat(2048) } });
    const closed = await socket.closed;
    assert.equal(closed.code, 1009);
    assert.equal(server.dispatcher.calls.length, 0);
  }, { wsMessageMaxBytes: 1024 });
});

/** Emits 16 KiB events, a few per tick, until the server drops the subscription. */
async function emitUntilUnsubscribed(server: TestServer, maxEvents: number): Promise<number> {
  let emitted = 0;
  while (server.events.listenerCount > 0 && emitted < maxEvents) {
    server.events.emit(4, 16 * 1024);
    emitted += 4;
    await delay(0);
  }
  return emitted;
}

async function initializeRaw(server: TestServer): Promise<RawWebSocket> {
  const raw = await RawWebSocket.connect(server.port, { Authorization: `Bearer ${server.token}` });
  await raw.sendText(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE }),
  );
  await waitUntil("initialize to subscribe the connection", () => server.events.listenerCount > 0);
  return raw;
}

Deno.test("a client that stops reading is closed with 4008 once 1024 events wait", async () => {
  await withServer(async (server) => {
    const raw = await initializeRaw(server);
    try {
      const emitted = await emitUntilUnsubscribed(server, 16_384);
      assert.equal(server.events.listenerCount, 0, `still subscribed after ${emitted} events`);
      const { code, reason, texts } = await raw.readUntilClose();
      assert.equal(code, 4008);
      assert.equal(reason, "outbound queue overflow; reconnect and replay");
      const seqs = texts.slice(1).map((text) => JSON.parse(text).params.seq);
      assert.deepEqual(seqs, seqs.map((_, index) => index + 1), "what arrived is gap-free");
      assert.ok(emitted - seqs.length >= 1024, "at least the queue's worth was never sent");
    } finally {
      raw.close();
    }
  }, { wsSendHighWaterBytes: 64 * 1024, wsSendTimeoutMs: 600_000 });
});

Deno.test("a client that reads keeps up with the same stream", async () => {
  await withServer(async (server) => {
    const socket = await openBearer(server);
    try {
      await socket.request(1, "initialize", INITIALIZE);
      let emitted = 0;
      while (emitted < 1400) {
        server.events.emit(4, 16 * 1024);
        emitted += 4;
        await delay(0);
      }
      let last = 0;
      while (last < emitted) last = (await next(socket)).params?.seq ?? last;
      assert.equal(server.events.listenerCount, 1, "the reading client is still subscribed");
    } finally {
      await socket.close();
    }
  }, { wsSendHighWaterBytes: 64 * 1024, wsSendTimeoutMs: 600_000 });
});

Deno.test("a send that stays unflushed past the timeout closes the connection", async () => {
  await withServer(async (server) => {
    const raw = await initializeRaw(server);
    try {
      await emitUntilUnsubscribed(server, 16_384);
      assert.equal(server.events.listenerCount, 0);
      const { code, reason } = await raw.readUntilClose();
      assert.equal(code, 4008);
      assert.equal(reason, "send timeout; reconnect and replay");
    } finally {
      raw.close();
    }
  }, { wsSendHighWaterBytes: 64 * 1024, wsSendTimeoutMs: 50, wsOutboundQueueMaxEvents: 1e6 });
});
