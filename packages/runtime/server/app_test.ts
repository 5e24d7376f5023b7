import assert from "node:assert/strict";
import { ServerStartError, startServer } from "./app.ts";
import { TokenStore } from "./auth_token.ts";
import {
  FakeDispatcher,
  FakeEventSource,
  rawHttpRequest,
  startTestServer,
  TestSocket,
} from "./_test_fakes.ts";

// No pooled keep-alive connections: a later test's server can get an earlier one's port,
// and a stale pooled connection to it fails the first request ("connection closed before
// message completed").
const http = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });

Deno.test("GET /health needs no token and says only ok", async () => {
  const server = await startTestServer();
  try {
    const response = await fetch(`${server.url}/health`, { client: http });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(await response.text(), '{"ok":true}');
  } finally {
    await server.close();
  }
});

Deno.test("unknown routes and non-upgrade /ws requests get JSON errors", async () => {
  const server = await startTestServer();
  try {
    const missing = await fetch(`${server.url}/nope`, { client: http });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, "not_found");
    const notUpgrade = await fetch(`${server.url}/ws`, {
      client: http,
      headers: { authorization: `Bearer ${server.token}` },
    });
    assert.equal(notUpgrade.status, 426);
    assert.equal((await notUpgrade.json()).error.code, "upgrade_required");
    const unauthenticated = await fetch(`${server.url}/ws`, { client: http });
    assert.equal(unauthenticated.status, 401, "auth is checked before anything else on /ws");
    await unauthenticated.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("a port in use is a ServerStartError with code port_in_use", async () => {
  const server = await startTestServer();
  const home = await Deno.makeTempDir({ prefix: "daedalus_app_test_" });
  try {
    const events = new FakeEventSource();
    const error = await startServer({
      hostname: "127.0.0.1",
      port: server.port,
      dispatcher: new FakeDispatcher(events),
      events,
      tokens: await TokenStore.open(`${home}/auth.json`),
      serverVersion: "0.0.0-test",
    }).then(() => null, (failure: unknown) => failure);
    assert.ok(error instanceof ServerStartError, "a ServerStartError is thrown");
    assert.equal(error.code, "port_in_use");
    assert.ok(error.message.includes(`127.0.0.1:${server.port}`), error.message);
  } finally {
    await server.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("shutdown closes WebSockets with 1001 and stops listening", async () => {
  const server = await startTestServer();
  const socket = await TestSocket.open(server.wsUrl, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  await socket.request(1, "initialize", { protocolVersion: 1 });
  await server.close();
  const closed = await socket.closed;
  assert.equal(closed.code, 1001);
  assert.equal(server.events.listenerCount, 0, "the connection unsubscribed");
  await assert.rejects(fetch(`${server.url}/health`, { client: http }), "nothing listens any more");
});

Deno.test("the static root serves the app behind the Host guard, never outside the root", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus_static_test_" });
  await Deno.mkdir(`${root}/dist/assets`, { recursive: true });
  await Deno.writeTextFile(`${root}/dist/index.html`, "<!doctype html><title>Daedalus</title>");
  await Deno.writeTextFile(`${root}/dist/assets/app.js`, "console.log(1)");
  await Deno.writeTextFile(`${root}/secret.txt`, "outside");
  await Deno.symlink(`${root}/secret.txt`, `${root}/dist/link.txt`);
  const server = await startTestServer({ staticRoot: `${root}/dist` });
  try {
    const index = await fetch(`${server.url}/`, { client: http });
    assert.equal(index.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await index.text(), /Daedalus/);
    const script = await fetch(`${server.url}/assets/app.js`, { client: http });
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(await script.text(), "console.log(1)");
    const route = await fetch(`${server.url}/threads/abc`, { client: http });
    assert.match(await route.text(), /Daedalus/, "app routes fall back to index.html");
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/link.txt", "/assets/none.js"]) {
      const response = await rawHttpRequest(
        server.port,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`,
      );
      assert.equal(response.status, 404, `${path} is not served`);
      assert.ok(!response.body.includes("outside"), `${path} does not leak the file`);
    }
    const rebound = await rawHttpRequest(server.port, "GET / HTTP/1.1\r\nHost: evil.example");
    assert.equal(rebound.status, 421, "the Host guard covers the static files");
    const health = await fetch(`${server.url}/health`, { client: http });
    assert.equal(await health.text(), '{"ok":true}', "routes still win over the static root");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
