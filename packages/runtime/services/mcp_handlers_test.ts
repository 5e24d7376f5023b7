import assert from "node:assert/strict";
import { join } from "node:path";
import { RpcError } from "@daedalus/protocol";
import { readConfig } from "@daedalus/storage";
import type { ToolDefinition } from "@daedalus/tools";
import { McpServers } from "../mcp/mcp_servers.ts";
import { PAGINATED_SERVER } from "../mcp/_test_servers.ts";
import { ProtectedValues } from "../security/protected_values.ts";
import { createMcpHandlers } from "./mcp_handlers.ts";

const SECRET = "handler-env-secret-8d1c22";

async function withHandlers(
  fn: (
    handlers: ReturnType<typeof createMcpHandlers>,
    world: { configPath: string; protectedValues: ProtectedValues; tools: Map<string, unknown> },
  ) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_mcp_handlers_" });
  const configPath = join(home, "config.yaml");
  const protectedValues = new ProtectedValues();
  const tools = new Map<string, ToolDefinition<unknown>>();
  const servers = new McpServers({
    tools,
    logsRoot: join(home, "logs"),
    redact: (text) => protectedValues.redact(text),
  });
  try {
    await fn(createMcpHandlers({ configPath, servers, protectedValues }), {
      configPath,
      protectedValues,
      tools,
    });
  } finally {
    await servers.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function refused(reasonCode: string, field?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof RpcError, `an RpcError: ${error}`);
    assert.equal(error.reasonCode, reasonCode, error.message);
    if (field !== undefined) assert.equal(error.data.field, field, error.message);
    return true;
  };
}

Deno.test("mcp.configure writes the entry, protects its env, connects; results show names only", async () => {
  await withHandlers(async (handlers, { configPath, protectedValues, tools }) => {
    const { result } = await handlers["mcp.configure"]({
      name: "pages",
      transport: "stdio",
      command: "node",
      args: [PAGINATED_SERVER],
      env: { API_TOKEN: SECRET, MODE: "test" },
      timeoutMs: 5_000,
      permission: "allow",
    });
    assert.deepEqual(result.server.envNames, ["API_TOKEN", "MODE"]);
    assert.equal(result.server.timeoutMs, 5_000);
    assert.equal(result.server.permission, "allow");
    assert.ok(protectedValues.find(`x ${SECRET} y`), "the env secret is protected at once");
    const ready = await until("ready", async () => {
      const { result } = await handlers["mcp.list"]({});
      return result.servers[0]?.state === "ready" ? result.servers[0] : undefined;
    });
    assert.equal(ready.serverName, "paginated");
    assert.equal(ready.toolCount, 8);
    assert.ok(tools.has("mcp__pages__alpha"));
    assert.ok(!JSON.stringify(ready).includes(SECRET), "no env value in the result");
    // A configure without env keeps the values the client never saw.
    await handlers["mcp.configure"]({
      name: "pages",
      transport: "stdio",
      command: "node",
      args: [PAGINATED_SERVER],
    });
    const config = await readConfig(configPath);
    assert.equal(config.mcp?.servers.pages?.env?.API_TOKEN, SECRET, "env kept");
    assert.equal(config.mcp?.servers.pages?.permission, undefined, "permission cleared");
  });
});

const BAD: [string, Record<string, unknown>, string][] = [
  ["an ftp url", { transport: "http", url: "ftp://example.com/" }, "url"],
  ["a relative cwd", { transport: "stdio", command: "node", cwd: "rel" }, "cwd"],
  ["a bad env name", { transport: "stdio", command: "node", env: { "1A": "x" } }, "env.1A"],
  [
    "a header with a line break",
    { transport: "http", url: "http://127.0.0.1:1/mcp", headers: { "X-A": "a\nb" } },
    "headers.X-A",
  ],
];

for (const [what, params, field] of BAD) {
  Deno.test(`mcp.configure refuses ${what} naming ${field}`, async () => {
    await withHandlers(async (handlers, { configPath }) => {
      await assert.rejects(
        handlers["mcp.configure"]({ name: "bad", ...params } as never),
        refused("config_invalid", field),
      );
      await assert.rejects(Deno.stat(configPath), Deno.errors.NotFound, "nothing written");
    });
  });
}

Deno.test("set_enabled, tool.set_enabled, restart and remove; an unknown name is refused", async () => {
  await withHandlers(async (handlers, { tools }) => {
    await handlers["mcp.configure"]({
      name: "pages",
      transport: "stdio",
      command: "node",
      args: [PAGINATED_SERVER],
    });
    const listed = async () => (await handlers["mcp.list"]({})).result.servers[0];
    await until("ready", async () => (await listed())?.state === "ready" ? true : undefined);
    const off = await handlers["mcp.tool.set_enabled"]({
      name: "pages",
      tool: "beta",
      enabled: false,
    });
    await until(
      "beta withdrawn",
      () => Promise.resolve(tools.has("mcp__pages__beta") ? undefined : true),
    );
    assert.equal(off.result.server.tools.find((tool) => tool.name === "beta")?.enabled, false);
    await until("ready again", async () => (await listed())?.state === "ready" ? true : undefined);
    const disabled = await handlers["mcp.set_enabled"]({ name: "pages", enabled: false });
    assert.equal(disabled.result.server.state, "disabled");
    assert.ok(![...tools.keys()].some((name) => name.startsWith("mcp__pages__")));
    await handlers["mcp.set_enabled"]({ name: "pages", enabled: true });
    await until("ready again", async () => (await listed())?.state === "ready" ? true : undefined);
    const restarted = await handlers["mcp.restart"]({ name: "pages" });
    assert.equal(restarted.result.server.state, "ready");
    assert.equal(restarted.result.server.restarts, 0);
    await handlers["mcp.remove"]({ name: "pages" });
    assert.equal((await handlers["mcp.list"]({})).result.servers.length, 0);
    for (
      const call of [
        () => handlers["mcp.remove"]({ name: "pages" }),
        () => handlers["mcp.restart"]({ name: "pages" }),
        () => handlers["mcp.set_enabled"]({ name: "pages", enabled: true }),
      ]
    ) {
      await assert.rejects(call(), refused("mcp_server_not_found", "name"));
    }
  });
});

Deno.test("mcp.list applies a hand edit of config.yaml: added, changed and removed servers", async () => {
  await withHandlers(async (handlers, { configPath, tools }) => {
    await Deno.writeTextFile(
      configPath,
      `version: 1\nmcp:\n  servers:\n    hand:\n      command: node\n      args: [${
        JSON.stringify(PAGINATED_SERVER)
      }]\n`,
    );
    const first = (await handlers["mcp.list"]({})).result.servers;
    assert.deepEqual(first.map((server) => server.name), ["hand"], "the new entry is started");
    await until("ready", async () => {
      const { result } = await handlers["mcp.list"]({});
      return result.servers[0]?.state === "ready" ? true : undefined;
    });
    assert.ok(tools.has("mcp__hand__alpha"));
    await Deno.writeTextFile(configPath, "version: 1\n");
    assert.deepEqual((await handlers["mcp.list"]({})).result.servers, [], "removed by hand");
    assert.ok(![...tools.keys()].some((name) => name.startsWith("mcp__hand__")));
  });
});
