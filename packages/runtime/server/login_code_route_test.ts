import assert from "node:assert/strict";
import { rotateToken } from "./auth_token.ts";
import { LOGIN_CODE_PATTERN } from "./login_codes.ts";
import { assertTokenAbsent, headerText, startTestServer, type TestServer } from "./_test_fakes.ts";

async function mint(server: TestServer, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/auth/login-code`, { method: "POST", headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function trade(server: TestServer, code: unknown) {
  const response = await fetch(`${server.url}/auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ code }),
  });
  return {
    status: response.status,
    cookie: response.headers.get("set-cookie"),
    body: await response.text(),
  };
}

async function withServer(run: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

Deno.test("the bearer token mints a login URL whose code opens one session, once", async () => {
  await withServer(async (server) => {
    const minted = await mint(server, { authorization: `Bearer ${server.token}` });
    assert.equal(minted.status, 200, minted.body);
    assert.equal(minted.headers.get("cache-control"), "no-store");
    const answer = JSON.parse(minted.body) as { url: string; code: string; expiresAt: string };
    assert.match(answer.code, LOGIN_CODE_PATTERN);
    assert.equal(answer.url, `${server.url}/#code=${answer.code}`);
    assert.ok(Date.parse(answer.expiresAt) > Date.now(), "it expires in the future");
    assertTokenAbsent(server.token, { minted: `${headerText(minted.headers)}\n${minted.body}` });

    const first = await trade(server, answer.code);
    assert.equal(first.status, 204, first.body);
    const cookie = /^daedalus_session=([0-9a-f]{64});.*HttpOnly; SameSite=Strict/.exec(
      first.cookie ?? "",
    );
    assert.ok(cookie, `a session cookie is set (${first.cookie})`);
    const rpc = await fetch(`${server.url}/rpc`, {
      method: "POST",
      headers: { cookie: `daedalus_session=${cookie[1]}`, origin: server.url },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test.echo", params: {} }),
    });
    await rpc.body?.cancel();
    assert.equal(rpc.status, 200, "the session works");

    const second = await trade(server, answer.code);
    assert.equal(second.status, 401, "a spent code is refused");
    assert.equal(JSON.parse(second.body).error.code, "login_code_invalid");
    assert.equal(second.cookie, null);
  });
});

Deno.test("only the bearer token mints codes; bad codes get login_code_invalid", async () => {
  await withServer(async (server) => {
    assert.equal((await mint(server, {})).status, 401, "no credential");
    const code = JSON.parse((await mint(server, { authorization: `Bearer ${server.token}` })).body)
      .code;
    const session = await trade(server, code);
    const cookie = (session.cookie ?? "").split(";")[0]!;
    const byCookie = await mint(server, { cookie, origin: server.url });
    assert.equal(byCookie.status, 401, "a browser session cannot mint codes");
    const foreign = await mint(server, {
      authorization: `Bearer ${server.token}`,
      origin: "http://evil.example",
    });
    assert.equal(foreign.status, 403);
    for (const bad of ["", 42, "x".repeat(43), server.token]) {
      const refused = await trade(server, bad);
      assert.equal(refused.status, 401, `code ${JSON.stringify(bad)}`);
      assert.equal(JSON.parse(refused.body).error.code, "login_code_invalid");
    }
  });
});

Deno.test("rotating the token voids codes minted before", async () => {
  await withServer(async (server) => {
    const code = JSON.parse((await mint(server, { authorization: `Bearer ${server.token}` })).body)
      .code;
    await rotateToken(server.authPath);
    const refused = await trade(server, code);
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).error.code, "login_code_invalid");
  });
});
