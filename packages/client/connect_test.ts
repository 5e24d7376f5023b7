import assert from "node:assert/strict";
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import { connect, createClient } from "./connect.ts";
import { ClientError } from "./errors.ts";
import { KNOWN_THREAD_ID, startFakeRuntime, TEST_TOKEN } from "./_test_server.ts";
import { take, within } from "./_test_helpers.ts";

function assertRpcError(code: number, reasonCode: string, field?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof RpcError, `expected RpcError, got ${error}`);
    assert.equal(error.code, code, `code of "${error.message}"`);
    assert.equal(error.reasonCode, reasonCode);
    if (field !== undefined) assert.equal(error.data.field, field);
    return true;
  };
}

function assertClientError(code: string) {
  return (error: unknown) => {
    assert.ok(error instanceof ClientError, `expected ClientError ${code}, got ${error}`);
    assert.equal(error.code, code, error.message);
    return true;
  };
}

Deno.test("connect initializes first, naming the protocol version and the client", async () => {
  const server = startFakeRuntime();
  server.append(3);
  const client = await connect({
    url: server.url,
    token: TEST_TOKEN,
    clientInfo: { name: "client-test", version: "1.2.3" },
  });
  try {
    assert.equal(client.state, "connected");
    assert.equal(client.server?.server.name, "daedalus-runtime");
    assert.equal(client.server?.latestSeq, 3);
    assert.equal(client.lastSeq, 3, "with no lastSeq the stream starts at the server's latest");
    const [connection] = server.connections;
    assert.deepEqual(connection.received[0], {
      method: "initialize",
      params: {
        protocolVersion: 1,
        client: { name: "client-test", version: "1.2.3" },
        eventEncoding: "compact",
      },
    });
    assert.equal(connection.received.length, 1, "nothing to replay, so nothing else was sent");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("compact events arrive in full; eventEncoding full asks for full ones", async () => {
  const server = startFakeRuntime();
  const compact = await connect({ url: server.url, token: TEST_TOKEN });
  const full = await connect({ url: server.url, token: TEST_TOKEN, eventEncoding: "full" });
  try {
    assert.equal(compact.server?.eventEncoding, "compact");
    assert.equal(full.server?.eventEncoding, "full");
    assert.deepEqual(server.connections[1]!.received[0]!.params, { protocolVersion: 1 });
    const compactEvents = compact.events[Symbol.asyncIterator]();
    const fullEvents = full.events[Symbol.asyncIterator]();
    const published = server.publish(2);
    assert.deepEqual(
      await take(compactEvents, 2, "the compact client"),
      published,
      "the compact client delivers the full events",
    );
    assert.deepEqual(await take(fullEvents, 2, "the full client"), published);
  } finally {
    await compact.close();
    await full.close();
    await server.shutdown();
  }
});

Deno.test("a runtime that does not know eventEncoding is initialized again without it", async () => {
  const server = startFakeRuntime();
  // As a runtime from before the option answers: the strict params refuse the field.
  server.handlers.set("initialize", (params, connection) => {
    if (typeof params === "object" && params !== null && "eventEncoding" in params) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "unknown_field",
        'Unknown field "eventEncoding"',
        {
          field: "eventEncoding",
        },
      );
    }
    connection!.initialized = true;
    return {
      protocolVersion: 1,
      server: { name: "daedalus-runtime", version: "0.0.0-old" },
      latestSeq: server.journal.length,
    };
  });
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    assert.equal(client.state, "connected");
    const methods = server.connections[0]!.received.map((message) => message.params);
    assert.deepEqual(methods, [{ protocolVersion: 1, eventEncoding: "compact" }, {
      protocolVersion: 1,
    }]);
    const events = client.events[Symbol.asyncIterator]();
    const published = server.publish(1);
    assert.deepEqual(await take(events, 1), published);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("calls are typed per method and their results validated", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    const got = await client.call("thread.get", { threadId: KNOWN_THREAD_ID });
    const title: string | null = got.thread.title;
    assert.equal(title, "Known");
    const list = await client.call("thread.list");
    assert.equal(list.threads.length, 1);
    assert.deepEqual(server.connections[0].received.slice(1), [
      { method: "thread.get", params: { threadId: KNOWN_THREAD_ID } },
      { method: "thread.list", params: {} },
    ]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a server error rejects with an RpcError carrying code, reasonCode and data", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    await assert.rejects(
      client.call("thread.get", { threadId: "thread_ffffffffffffffffffffffffffffffff" }),
      assertRpcError(RPC_ERROR_CODES.invalidParams, "thread_not_found", "threadId"),
    );
    await assert.rejects(
      client.call("usage.read"),
      assertRpcError(RPC_ERROR_CODES.methodNotFound, "method_not_found"),
    );
    assert.equal(client.state, "connected", "an error response does not hurt the connection");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("params are validated before sending, with the error the server would send", async () => {
  const server = startFakeRuntime();
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    await assert.rejects(
      // @ts-expect-error threadId must be a string
      client.call("thread.get", { threadId: 5 }),
      assertRpcError(RPC_ERROR_CODES.invalidParams, "invalid_params", "threadId"),
    );
    await assert.rejects(
      // @ts-expect-error title is not a param of thread.get
      client.call("thread.get", { threadId: KNOWN_THREAD_ID, title: "x" }),
      assertRpcError(RPC_ERROR_CODES.invalidParams, "unknown_field", "title"),
    );
    await assert.rejects(
      client.call("event.replay", { afterSeq: 0, limit: 5000 }),
      assertRpcError(RPC_ERROR_CODES.invalidParams, "invalid_params", "limit"),
    );
    const sent = server.connections[0].received.map((r) => r.method);
    assert.deepEqual(sent, ["initialize"], "no refused call reached the server");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("an invalid result is refused on receipt with -32603", async () => {
  const server = startFakeRuntime();
  server.handlers.set("thread.get", () => ({ thread: { id: 42 }, snapshotSeq: 0 }));
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    await assert.rejects(
      client.call("thread.get", { threadId: KNOWN_THREAD_ID }),
      assertRpcError(RPC_ERROR_CODES.internalError, "internal_error"),
    );
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a call in flight when the socket dies rejects with connection_lost and is not retried", async () => {
  const server = startFakeRuntime();
  server.handlers.set("thread.list", () => new Promise(() => {})); // the socket dies first
  const client = await connect({ url: server.url, token: TEST_TOKEN });
  try {
    const call = client.call("thread.list");
    const first = server.connections[0];
    await server.until(() => first.received.some((r) => r.method === "thread.list"));
    server.closeAll(4008, "slow client");
    await assert.rejects(call, assertClientError("connection_lost"));
    await server.until(
      () => server.connections.find((c, i) => i > 0 && c.initialized),
      "the client to reconnect",
    );
    const retried = server.connections.slice(1).flatMap((c) => c.received)
      .filter((r) => r.method === "thread.list");
    assert.deepEqual(retried, [], "the lost call was not sent again after reconnecting");
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("an unsupported protocol version goes offline at once instead of retrying", async () => {
  const server = startFakeRuntime();
  server.handlers.set("initialize", () => {
    throw new RpcError(
      RPC_ERROR_CODES.unsupportedProtocolVersion,
      "unsupported_protocol_version",
      "Protocol version 1 is not supported; this runtime speaks version 2",
    );
  });
  try {
    await assert.rejects(
      connect({ url: server.url, token: TEST_TOKEN }),
      (error: unknown) => {
        assertClientError("offline")(error);
        const cause = (error as Error).cause;
        return assertRpcError(
          RPC_ERROR_CODES.unsupportedProtocolVersion,
          "unsupported_protocol_version",
        )(cause);
      },
    );
    assert.equal(server.connections.length, 1, "one attempt, no ladder");
  } finally {
    await server.shutdown();
  }
});

Deno.test("close() rejects waiting calls, ends iterators and stops reconnecting", async () => {
  const server = startFakeRuntime();
  const client = createClient({ url: server.url, token: TEST_TOKEN });
  const iterator = client.events[Symbol.asyncIterator]();
  const pending = iterator.next();
  await client.ready();
  await client.close();
  assert.equal(client.state, "offline");
  assert.deepEqual(await within(pending, "the iterator to end"), { value: undefined, done: true });
  await assert.rejects(client.call("thread.list"), assertClientError("closed"));
  await assert.rejects(client.ready(), assertClientError("closed"));
  assert.equal(server.connections.length, 1);
  await server.shutdown();
});

Deno.test("an aborted signal closes the client", async () => {
  const server = startFakeRuntime();
  const abort = new AbortController();
  const client = await connect({ url: server.url, token: TEST_TOKEN, signal: abort.signal });
  abort.abort();
  await client.close(); // the same close the signal started
  assert.equal(client.state, "offline");
  await assert.rejects(client.call("thread.list"), assertClientError("closed"));
  await server.until(() => server.connections[0].closed);
  await server.shutdown();
});

Deno.test("a bad lastSeq or reconnect delay is refused before anything connects", () => {
  const url = "http://127.0.0.1:9";
  assert.throws(() => createClient({ url, lastSeq: -1 }), RangeError);
  assert.throws(() => createClient({ url, lastSeq: 1.5 }), RangeError);
  assert.throws(() => createClient({ url, reconnectDelaysMs: [50, -1] }), RangeError);
  assert.throws(() => createClient({ url: "file:///x" }), TypeError);
});
