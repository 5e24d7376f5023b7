import assert from "node:assert/strict";
import { connect } from "./connect.ts";
import { ClientError } from "./errors.ts";
import { defaultTokenTransport, planHandshake, type WebSocketConstructor } from "./handshake.ts";
import { startFakeRuntime, TEST_SESSION_COOKIE, TEST_TOKEN } from "./_test_server.ts";
import { recordingWebSocket } from "./_test_helpers.ts";

Deno.test("the global WebSocket fits the constructor type without a cast", () => {
  const ctor: WebSocketConstructor = WebSocket;
  assert.equal(typeof ctor, "function");
});

Deno.test("the token goes in a header, in a bearer subprotocol after the application one, or nowhere", () => {
  const url = "http://127.0.0.1:7420/#token=abc";
  assert.deepEqual(planHandshake({ url, token: "abc", tokenTransport: "header" }), {
    url: "ws://127.0.0.1:7420/ws",
    protocols: ["daedalus.rpc.v1"],
    headers: { authorization: "Bearer abc" },
  });
  assert.deepEqual(planHandshake({ url, token: "abc", tokenTransport: "subprotocol" }), {
    url: "ws://127.0.0.1:7420/ws",
    protocols: ["daedalus.rpc.v1", "bearer.abc"],
    headers: {},
  });
  assert.deepEqual(planHandshake({ url }), {
    url: "ws://127.0.0.1:7420/ws",
    protocols: ["daedalus.rpc.v1"],
    headers: {},
  }, "without a token the session cookie has to do");
  assert.deepEqual(
    planHandshake({ url, token: "abc", tokenTransport: "subprotocol", protocols: ["x.v2"] })
      .protocols,
    ["x.v2", "bearer.abc"],
  );
});

Deno.test("under Deno the token travels as a header by default", async () => {
  assert.equal(defaultTokenTransport(), "header");
  const server = startFakeRuntime();
  const { WebSocket, openings } = recordingWebSocket();
  const client = await connect({ url: server.url, token: TEST_TOKEN, WebSocket });
  try {
    assert.equal(server.connections[0].auth, "header");
    assert.deepEqual(server.connections[0].offered, ["daedalus.rpc.v1"]);
    assert.deepEqual(openings[0].argument, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      protocols: ["daedalus.rpc.v1"],
    });
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a browser-like WebSocket gets the token as a subprotocol and a plain protocol list", async () => {
  const server = startFakeRuntime();
  const { WebSocket, openings } = recordingWebSocket({ browserLike: true });
  const client = await connect({
    url: server.url,
    token: TEST_TOKEN,
    WebSocket,
    tokenTransport: "subprotocol",
  });
  try {
    assert.equal(server.connections[0].auth, "subprotocol");
    assert.deepEqual(server.connections[0].offered, ["daedalus.rpc.v1", `bearer.${TEST_TOKEN}`]);
    assert.deepEqual(openings[0].argument, ["daedalus.rpc.v1", `bearer.${TEST_TOKEN}`]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("without a token nothing is offered but the application protocol; the cookie authenticates", async () => {
  const server = startFakeRuntime();
  const { WebSocket } = recordingWebSocket({
    browserLike: true,
    cookie: `daedalus_session=${TEST_SESSION_COOKIE}`,
  });
  const client = await connect({ url: server.url, WebSocket });
  try {
    assert.equal(server.connections[0].auth, "cookie");
    assert.deepEqual(server.connections[0].offered, ["daedalus.rpc.v1"]);
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a wrong token never connects and ends offline", async () => {
  const server = startFakeRuntime();
  try {
    await assert.rejects(
      connect({ url: server.url, token: "wrong-token", reconnectDelaysMs: [1] }),
      (error: unknown) => error instanceof ClientError && error.code === "offline",
    );
    assert.equal(server.connections.length, 0, "the upgrade was refused every time");
  } finally {
    await server.shutdown();
  }
});
