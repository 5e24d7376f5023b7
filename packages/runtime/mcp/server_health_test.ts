/**
 * The health of Streamable HTTP sessions against real servers on 127.0.0.1: a killed
 * server-everything is seen by the periodic ping (status failed, with the reason) and,
 * restarted on the same port, comes back ready by itself; a server that forgets the
 * session answers 404 and a new session is started at once, without counting a restart.
 */
import assert from "node:assert/strict";
import type { McpServerConfig } from "@daedalus/storage";
import { type McpConnectionStatus, ServerConnection } from "./server_connection.ts";
import { freeLoopbackPort, startHttpEverything } from "./_test_servers.ts";

function entry(url: string): McpServerConfig {
  return { enabled: true, timeout_ms: 10_000, tools: { disabled: [] }, url };
}

/** A connection with fast pings, and every status it went through. */
async function connection(url: string) {
  const logFolder = await Deno.makeTempDir({ prefix: "daedalus_mcp_health_" });
  const seen: McpConnectionStatus[] = [];
  const server: ServerConnection = new ServerConnection("web", entry(url), {
    logFolder,
    redact: (text) => text,
    onChange: () => seen.push(server.status()),
    pingIntervalMs: 100,
    pingTimeoutMs: 2_000,
    restartBackoffMinMs: 300,
    connectTimeoutMs: 10_000,
  });
  return {
    server,
    seen,
    async [Symbol.asyncDispose]() {
      await server.stop();
      await Deno.remove(logFolder, { recursive: true });
    },
  };
}

async function until(what: string, probe: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test("a killed HTTP server is failed by the ping and comes back ready by itself", async () => {
  const port = freeLoopbackPort();
  let http = await startHttpEverything(port);
  await using web = await connection(http.url);
  const { server, seen } = web;
  server.start();
  await until("ready", () => server.status().state === "ready");
  const first = server.status().sessionId;
  assert.ok(first, "a session id");

  await http[Symbol.asyncDispose]();
  await until("failed", () => server.status().state === "failed");
  const failed = seen.find((status) => status.state === "failed");
  assert.match(failed?.message ?? "", /did not answer ping/, `the reason: ${failed?.message}`);
  assert.equal(server.tools().length, 0, "a failed server offers no tools");

  http = await startHttpEverything(port);
  try {
    await until("ready again", () => server.status().state === "ready");
    const again = server.status();
    assert.ok(again.sessionId && again.sessionId !== first, "a new session");
    assert.ok(again.restarts >= 1, `counted as a restart: ${again.restarts}`);
    assert.ok(server.tools().some((tool) => tool.name === "echo"), "its tools are back");
  } finally {
    await http[Symbol.asyncDispose]();
  }
});

/**
 * A tiny Streamable HTTP MCP server (JSON answers, no SSE) that can forget its sessions:
 * a request naming a session it does not know gets 404, as the spec says.
 */
function expiringServer() {
  const sessions = new Set<string>();
  const pings: string[] = [];
  const deleted: string[] = [];
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      headers: { "content-type": "application/json", ...headers },
    });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const session = req.headers.get("mcp-session-id");
    if (req.method === "GET") return new Response(null, { status: 405 });
    if (req.method === "DELETE") {
      if (session) deleted.push(session);
      return new Response(null, { status: session && sessions.delete(session) ? 200 : 404 });
    }
    const message = await req.json();
    if (message.method === "initialize") {
      const id = crypto.randomUUID();
      sessions.add(id);
      return json({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "expiring", version: "1.0.0" },
        },
      }, { "mcp-session-id": id });
    }
    if (session === null) return new Response("no session", { status: 400 });
    if (!sessions.has(session)) return new Response("Session not found", { status: 404 });
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "ping") {
      pings.push(session);
      return json({ jsonrpc: "2.0", id: message.id, result: {} });
    }
    if (message.method === "tools/list") {
      const tools = [{ name: "hello", inputSchema: { type: "object", properties: {} } }];
      return json({ jsonrpc: "2.0", id: message.id, result: { tools } });
    }
    return json({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32601, message: "Method not found" },
    });
  });
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    sessions,
    pings,
    deleted,
    forget: () => sessions.clear(),
    [Symbol.asyncDispose]: () => http.shutdown(),
  };
}

Deno.test("a session the server forgot (404 to ping) is replaced by a new one", async () => {
  await using fake = expiringServer();
  await using web = await connection(fake.url);
  const { server, seen } = web;
  server.start();
  await until("ready", () => server.status().state === "ready");
  const first = server.status().sessionId!;
  await until("pinged", () => fake.pings.includes(first));

  fake.forget();
  await until("a new session", () => {
    const status = server.status();
    return status.state === "ready" && status.sessionId !== first;
  });
  const renewing = seen.find((status) => status.state === "connecting" && status.message);
  assert.match(renewing?.message ?? "", /session expired.*404.*new session/);
  assert.equal(
    seen.some((status) => status.state === "failed"),
    false,
    "an expired session is renewed, not failed",
  );
  assert.equal(server.status().restarts, 0, "renewing a session is no restart");
  assert.ok(!fake.deleted.includes(first), "the forgotten session is not deleted");
  const second = server.status().sessionId!;
  await until("the new session is pinged", () => fake.pings.includes(second));
  assert.deepEqual(server.tools().map((tool) => tool.name), ["hello"]);
});
