import assert from "node:assert/strict";
import { rotateToken } from "./auth_token.ts";
import {
  assertTokenAbsent,
  headerText,
  startTestServer,
  type TestServer,
  TestSocket,
} from "./_test_fakes.ts";

const ECHO = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test.echo", params: { a: 1 } });

/** Every response the test saw, to scan for the token at the end. */
class Seen {
  readonly texts: Record<string, string> = {};
  #count = 0;

  async fetch(url: string, init: RequestInit = {}): Promise<{ response: Response; body: string }> {
    const response = await fetch(url, init);
    const body = await response.text();
    const label = `${init.method ?? "GET"} ${url} #${++this.#count}`;
    this.texts[`${label} body`] = body;
    this.texts[`${label} headers`] = headerText(response.headers);
    return { response, body };
  }
}

function rpc(server: TestServer, headers: Record<string, string>, seen: Seen) {
  return seen.fetch(`${server.url}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: ECHO,
  });
}

async function withServer(
  run: (server: TestServer, seen: Seen) => Promise<void>,
  options: { tokenSweepIntervalMs?: number } = {},
): Promise<void> {
  const server = await startTestServer(options);
  const seen = new Seen();
  try {
    await run(server, seen);
    assertTokenAbsent(server.token, seen.texts);
  } finally {
    await server.close();
  }
}

async function tradeForCookie(server: TestServer, seen: Seen, token = server.token) {
  const { response } = await seen.fetch(`${server.url}/auth/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, origin: server.url },
  });
  assert.equal(response.status, 204, "the token is traded for a session");
  const setCookie = response.headers.get("set-cookie") ?? "";
  const match = /^daedalus_session=([0-9a-f]{64});/.exec(setCookie);
  assert.ok(match, `a daedalus_session cookie is set (${setCookie.split("=")[0]})`);
  return { cookie: `daedalus_session=${match[1]}`, setCookie };
}

Deno.test("no token and a wrong token get the same 401 JSON body", async () => {
  await withServer(async (server, seen) => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer " + "0".repeat(64) },
      { authorization: "Bearer short" },
      { authorization: `Basic ${btoa(`user:${server.token}`)}` },
      { cookie: "daedalus_session=" + "a".repeat(64), origin: server.url },
    ];
    const bodies = new Set<string>();
    for (const headers of attempts) {
      const { response, body } = await rpc(server, headers, seen);
      assert.equal(response.status, 401, `refused: ${Object.keys(headers).join(",") || "none"}`);
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="daedalus"');
      assert.equal(JSON.parse(body).error.code, "unauthorized");
      bodies.add(body);
    }
    assert.equal(bodies.size, 1, "every refusal reads the same");
    assert.equal(server.dispatcher.calls.length, 0, "nothing was dispatched");
  });
});

Deno.test("a bearer token works without an Origin but not from a foreign one", async () => {
  await withServer(async (server, seen) => {
    const bearer = { authorization: `Bearer ${server.token}` };
    const plain = await rpc(server, bearer, seen);
    assert.equal(plain.response.status, 200);
    assert.deepEqual(JSON.parse(plain.body).result, { echo: { a: 1 } });
    const same = await rpc(server, { ...bearer, origin: server.url }, seen);
    assert.equal(same.response.status, 200);
    for (const origin of ["http://evil.example", `http://localhost:${server.port}`, "null"]) {
      const foreign = await rpc(server, { ...bearer, origin }, seen);
      assert.equal(foreign.response.status, 403, `Origin ${origin} is refused`);
      assert.equal(JSON.parse(foreign.body).error.code, "origin_not_allowed");
    }
  });
});

Deno.test("the session cookie is HttpOnly, SameSite=Strict and works only same-origin", async () => {
  await withServer(async (server, seen) => {
    const { cookie, setCookie } = await tradeForCookie(server, seen);
    for (const attribute of ["Path=/", "HttpOnly", "SameSite=Strict"]) {
      assert.ok(setCookie.includes(attribute), `the cookie has ${attribute}`);
    }
    const ok = await rpc(server, { cookie, origin: server.url }, seen);
    assert.equal(ok.response.status, 200, "cookie + same Origin is accepted");
    const noOrigin = await rpc(server, { cookie }, seen);
    assert.equal(noOrigin.response.status, 403, "a cookie without Origin is refused");
    assert.equal(JSON.parse(noOrigin.body).error.code, "origin_not_allowed");
    const crossOrigin = await rpc(server, { cookie, origin: "http://evil.example" }, seen);
    assert.equal(crossOrigin.response.status, 403, "a cookie from another origin is refused");
    assert.equal(JSON.parse(crossOrigin.body).error.code, "origin_not_allowed");
  });
});

Deno.test("the token can be traded from a JSON body; bad trades are refused", async () => {
  await withServer(async (server, seen) => {
    const trade = (body: string, origin = server.url) =>
      seen.fetch(`${server.url}/auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body,
      });
    const good = await trade(JSON.stringify({ token: server.token }));
    assert.equal(good.response.status, 204);
    assert.match(good.response.headers.get("set-cookie") ?? "", /^daedalus_session=/);
    const wrong = await trade(JSON.stringify({ token: "f".repeat(64) }));
    assert.equal(wrong.response.status, 401);
    assert.equal(wrong.response.headers.get("set-cookie"), null);
    assert.equal((await trade("{}")).response.status, 401);
    const broken = await trade(`{"token":"${server.token}"`);
    assert.equal(broken.response.status, 400, "a body that is not JSON is a bad request");
    assert.equal(JSON.parse(broken.body).error.code, "invalid_request");
    const foreign = await trade(JSON.stringify({ token: server.token }), "http://evil.example");
    assert.equal(foreign.response.status, 403, "a trade from another origin is refused");
    assert.equal(foreign.response.headers.get("set-cookie"), null);
    const huge = await trade(JSON.stringify({ token: server.token, pad: "x".repeat(10_000) }));
    assert.equal(huge.response.status, 413);
  });
});

Deno.test("rotating the token ends sessions, the old bearer and open WebSockets", async () => {
  await withServer(async (server, seen) => {
    const { cookie } = await tradeForCookie(server, seen);
    const socket = await TestSocket.open(server.wsUrl, { headers: { cookie, origin: server.url } });
    const init = await socket.request(1, "initialize", { protocolVersion: 1 });
    assert.ok(typeof init === "object" && init !== null && "result" in init, "cookie WS works");

    const fresh = await rotateToken(server.authPath);
    const byCookie = await rpc(server, { cookie, origin: server.url }, seen);
    assert.equal(byCookie.response.status, 401, "the session cookie is refused after rotation");
    const byOldBearer = await rpc(server, { authorization: `Bearer ${server.token}` }, seen);
    assert.equal(byOldBearer.response.status, 401, "the old token is refused");
    const byNewBearer = await rpc(server, { authorization: `Bearer ${fresh}` }, seen);
    assert.equal(byNewBearer.response.status, 200, "the new token works");
    assertTokenAbsent(fresh, seen.texts);

    const closed = await socket.closed;
    assert.equal(closed.code, 4001, "the WebSocket opened with the old token is closed");
  }, { tokenSweepIntervalMs: 20 });
});

Deno.test("logging out ends the session and its WebSockets", async () => {
  await withServer(async (server, seen) => {
    const { cookie } = await tradeForCookie(server, seen);
    const socket = await TestSocket.open(server.wsUrl, { headers: { cookie, origin: server.url } });
    const refusedLogout = await seen.fetch(`${server.url}/auth/session`, {
      method: "DELETE",
      headers: { cookie, origin: "http://evil.example" },
    });
    assert.equal(refusedLogout.response.status, 403, "another origin cannot log us out");
    const logout = await seen.fetch(`${server.url}/auth/session`, {
      method: "DELETE",
      headers: { cookie, origin: server.url },
    });
    assert.equal(logout.response.status, 204);
    assert.match(logout.response.headers.get("set-cookie") ?? "", /^daedalus_session=;.*Max-Age=0/);
    const after = await rpc(server, { cookie, origin: server.url }, seen);
    assert.equal(after.response.status, 401, "the logged-out cookie is refused");
    assert.equal((await socket.closed).code, 4001, "its WebSocket is closed");
  });
});
