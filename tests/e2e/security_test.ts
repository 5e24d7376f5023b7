/**
 * Who may talk to a real `daedalus serve` process: tokens, the Host guard, origins,
 * session cookies, `daedalus token --rotate`, and where the token may (not) appear: it is
 * never printed (the login URL carries a one-time code instead).
 * Every response a test receives is kept and searched for the token at the end, with
 * the server's stdout and stderr.
 */
import assert from "node:assert/strict";
import { ClientError, createHttpClient } from "@daedalus/client";
import { PROTOCOL_VERSION } from "@daedalus/protocol";
import {
  assertTokenAbsent,
  headerText,
  rawHttpRequest,
  RawWebSocket,
  TestSocket,
} from "../../packages/runtime/server/_test_fakes.ts";
import {
  makeTempHome,
  readToken,
  runDaedalus,
  type ServerProcess,
  startFixture,
} from "./_harness.ts";
import { waitUntil } from "./_clients.ts";

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "thread.list", params: {} });
const EVIL = "http://evil.example";

/** Every response received, kept to search it for the token. */
class Transcript {
  readonly #texts: Record<string, string> = {};

  /** Sends a request with fetch and records the response. */
  async fetch(
    label: string,
    url: string,
    init: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: string }> {
    const response = await fetch(url, init);
    const body = await response.text();
    this.record(label, `${response.status}\n${headerText(response.headers)}\n\n${body}`);
    return { status: response.status, headers: response.headers, body };
  }

  /** POST /rpc (thread.list) with the given headers. */
  rpc(label: string, server: ServerProcess, headers: Record<string, string>) {
    return this.fetch(label, `${server.url}rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: LIST,
    });
  }

  /** Records something the server sent. */
  record(label: string, text: string): void {
    this.#texts[`${label} #${Object.keys(this.#texts).length}`] = text;
  }

  /** Stops the server (SIGTERM) and checks that no token leaked anywhere. */
  async finish(server: ServerProcess, initialToken: string, otherTokens: string[] = []) {
    server.child.kill("SIGTERM");
    assert.equal((await server.child.exit()).code, 0, server.child.describe());
    const { stdout, stderr } = server.child;
    for (const token of [initialToken, ...otherTokens]) {
      assertTokenAbsent(token, { ...this.#texts, stdout, stderr });
    }
    const logins = stderr.split("\n").filter((line) => line.startsWith("Daedalus is running."));
    assert.equal(logins.length, 1, `one login line on stderr:\n${stderr}`);
    assert.match(
      logins[0]!,
      new RegExp(
        `^Daedalus is running\\. Open ${server.url.replace(/\./g, "\\.")}#code=[\\w-]{43}$`,
      ),
      "the login URL carries a one-time code, never the token",
    );
  }
}

Deno.test("no token and a wrong token both get 401 with the identical body", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const transcript = new Transcript();
  const wrong = token.replace(/^./, (c) => c === "a" ? "b" : "a");
  const none = await transcript.rpc("no token", server, {});
  const bad = await transcript.rpc("wrong token", server, { authorization: `Bearer ${wrong}` });
  const odd = await transcript.rpc("token in a malformed header", server, {
    authorization: `Bearer ${token} trailing`,
  });
  for (const response of [none, bad, odd]) {
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="daedalus"');
  }
  assert.equal(JSON.parse(none.body).error.code, "unauthorized");
  assert.equal(bad.body, none.body, "a wrong token is told exactly what a missing one is");
  assert.equal(odd.body, none.body);

  await assert.rejects(
    () => createHttpClient({ url: server.url, token: wrong }).call("thread.list", {}),
    (error) => error instanceof ClientError && error.code === "http_error" && error.status === 401,
  );
  await assert.rejects(() => RawWebSocket.connect(server.port, {}), /upgrade refused: .* 401/);
  const session = await transcript.fetch("session from a JSON body", `${server.url}auth/session`, {
    method: "POST",
    body: `{"token": "${token}"`, // broken JSON holding the token: never echoed
  });
  assert.equal(session.status, 400);
  const browserStyle = await RawWebSocket.connect(server.port, {
    "sec-websocket-protocol": `daedalus.rpc.v1, bearer.${token}`,
  });
  transcript.record("upgrade with the token as a subprotocol", browserStyle.handshake);
  browserStyle.close();
  assert.match(
    browserStyle.handshake,
    /^sec-websocket-protocol: daedalus\.rpc\.v1\r?$/im,
    "the server echoes the application protocol, never bearer.<token>",
  );
  const ok = await transcript.rpc("right token", server, { authorization: `Bearer ${token}` });
  assert.equal(ok.status, 200, "the right token is accepted");
  await transcript.finish(server, token);
});

Deno.test("a Host header naming another site gets 421 host_not_allowed", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const transcript = new Transcript();
  const post = (host: string) =>
    rawHttpRequest(
      server.port,
      `POST /rpc HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
        "Content-Type: application/json",
      LIST,
    );
  for (
    const host of [
      `evil.example:${server.port}`,
      "127.0.0.1:1",
      `attacker.localhost:${server.port}`,
    ]
  ) {
    const refused = await post(host);
    transcript.record(`Host ${host}`, refused.raw);
    assert.equal(refused.status, 421, `Host ${host}: ${refused.raw}`);
    assert.equal(JSON.parse(refused.body).error.code, "host_not_allowed");
  }
  const health = await rawHttpRequest(server.port, "GET /health HTTP/1.1\r\nHost: evil.example");
  transcript.record("health", health.raw);
  assert.equal(health.status, 421, "the guard stands before every route");
  const local = await post(`localhost:${server.port}`);
  transcript.record("localhost", local.raw);
  assert.equal(local.status, 200, `localhost is this server: ${local.raw}`);
  await transcript.finish(server, token);
});

Deno.test("cross-origin: cookie requests get 403 and WebSocket upgrades are refused", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const transcript = new Transcript();
  const own = `http://127.0.0.1:${server.port}`;
  const session = await transcript.fetch("session", `${server.url}auth/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(session.status, 204);
  const setCookie = session.headers.get("set-cookie") ?? "";
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Strict/);
  const cookie = setCookie.split(";")[0];

  const same = await transcript.rpc("cookie, own origin", server, { cookie, origin: own });
  assert.equal(same.status, 200, `the cookie works from the app's own origin: ${same.body}`);
  const evil = await transcript.rpc("cookie, evil origin", server, { cookie, origin: EVIL });
  assert.equal(evil.status, 403);
  assert.equal(JSON.parse(evil.body).error.code, "origin_not_allowed");
  const bare = await transcript.rpc("cookie, no origin", server, { cookie });
  assert.equal(bare.status, 403, "a cookie request must say where it comes from");
  const bearer = await transcript.rpc("token, evil origin", server, {
    authorization: `Bearer ${token}`,
    origin: EVIL,
  });
  assert.equal(bearer.status, 403, "a foreign origin is refused whatever it carries");

  const foreignUpgrades: Record<string, Record<string, string>> = {
    cookie: { cookie, origin: EVIL },
    token: { authorization: `Bearer ${token}`, origin: EVIL },
  };
  for (const [label, headers] of Object.entries(foreignUpgrades)) {
    await assert.rejects(
      () => RawWebSocket.connect(server.port, headers),
      /upgrade refused: HTTP\/1\.1 403/,
      `an upgrade with a ${label} from ${EVIL}`,
    );
  }
  const accepted = await RawWebSocket.connect(server.port, { cookie, origin: own });
  transcript.record("upgrade", accepted.handshake);
  accepted.close();
  await transcript.finish(server, token);
});

Deno.test("token --rotate: the old token, cookie and socket stop working, the new token works", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const oldToken = await server.token();
  const transcript = new Transcript();
  const own = `http://127.0.0.1:${server.port}`;
  const session = await transcript.fetch("session", `${server.url}auth/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${oldToken}` },
  });
  const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0];
  const socket = await TestSocket.open(`ws://127.0.0.1:${server.port}/ws`, {
    headers: { authorization: `Bearer ${oldToken}` },
    protocols: ["daedalus.rpc.v1"],
  });
  try {
    const init = await socket.request(1, "initialize", { protocolVersion: PROTOCOL_VERSION });
    transcript.record("initialize", JSON.stringify(init));

    const rotate = await runDaedalus(["token", "--rotate", "--home", home.home], home.env());
    assert.equal(rotate.status.code, 0, rotate.stderr);
    const newToken = await readToken(home.home);
    assert.notEqual(newToken, oldToken);
    assert.equal(rotate.stdout, `${newToken}\n`, "the command prints the new token");

    await waitUntil(
      "the server to notice the rotation",
      async () =>
        (await transcript.rpc("old token", server, { authorization: `Bearer ${oldToken}` }))
          .status === 401,
    );
    const closed = await socket.closed;
    assert.equal(closed.code, 4001, `the old socket is closed as revoked: ${closed.reason}`);
    const oldCookie = await transcript.rpc("old cookie", server, { cookie, origin: own });
    assert.equal(oldCookie.status, 401, "the old session cookie is refused");
    const fresh = await transcript.rpc("new token", server, {
      authorization: `Bearer ${newToken}`,
    });
    assert.equal(fresh.status, 200, fresh.body);
    const viaClient = createHttpClient({ url: server.url, token: newToken });
    assert.ok(Array.isArray((await viaClient.call("thread.list", {})).threads));
    await transcript.finish(server, oldToken, [newToken]);
  } finally {
    await socket.close();
  }
});
