import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfig } from "./config_file.ts";
import {
  changeMcpServer,
  checkMcpServer,
  readMcpConfig,
  removeMcpServer,
  writeMcpServer,
} from "./config_mcp.ts";
import { ConfigError } from "./errors.ts";
import { MCP_TIMEOUT_MS_DEFAULT } from "./limits.ts";

async function withTempHome(fn: (configPath: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_mcp_config_test_" });
  try {
    await fn(join(home, "config.yaml"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function refusedAt(keyPath: string, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
    assert.equal(error.code, "config_invalid", error.message);
    assert.equal(error.issues[0]?.keyPath, keyPath, error.message);
    assert.match(error.issues[0]?.message ?? "", message, error.message);
    return true;
  };
}

Deno.test("a stdio and an http entry get their defaults", () => {
  const stdio = checkMcpServer("c.yaml", "files", { command: "node", args: ["s.js"] });
  assert.deepEqual(stdio, {
    command: "node",
    args: ["s.js"],
    enabled: true,
    timeout_ms: MCP_TIMEOUT_MS_DEFAULT,
    tools: { disabled: [] },
  });
  const http = checkMcpServer("c.yaml", "web", {
    url: "http://127.0.0.1:3001/mcp",
    headers: { Authorization: "Bearer x" },
    permission: "allow",
  });
  assert.equal(http.url, "http://127.0.0.1:3001/mcp");
  assert.equal(http.permission, "allow");
});

const BAD_ENTRIES: [string, string, unknown, string, RegExp][] = [
  ["no transport", "ok", {}, "mcp.servers.ok.command", /command \(stdio\) or url/],
  ["both transports", "ok", { command: "x", url: "http://h/" }, "mcp.servers.ok.url", /not both/],
  ["bad name", "Bad Name", { command: "x" }, `mcp.servers["Bad Name"]`, /server name/],
  ["empty command", "ok", { command: "" }, "mcp.servers.ok.command", /must not be empty/],
  ["ftp url", "ok", { url: "ftp://h/" }, "mcp.servers.ok.url", /http\(s\) URL/],
  [
    "headers on stdio",
    "ok",
    { command: "x", headers: { a: "b" } },
    "mcp.servers.ok.headers",
    /http/,
  ],
  ["env on http", "ok", { url: "http://h/", env: { A: "b" } }, "mcp.servers.ok.env", /stdio/],
  ["relative cwd", "ok", { command: "x", cwd: "rel" }, "mcp.servers.ok.cwd", /absolute/],
  ["bad env name", "ok", { command: "x", env: { "1A": "b" } }, "mcp.servers.ok.env.1A", /env name/],
  [
    "header with a line break",
    "ok",
    { url: "http://h/", headers: { a: "b\nc" } },
    "mcp.servers.ok.headers.a",
    /line breaks/,
  ],
  [
    "timeout too short",
    "ok",
    { command: "x", timeout_ms: 5 },
    "mcp.servers.ok.timeout_ms",
    /least/,
  ],
  [
    "timeout too long",
    "ok",
    { command: "x", timeout_ms: 99_999_999 },
    "mcp.servers.ok.timeout_ms",
    /most/,
  ],
  ["bad permission", "ok", { command: "x", permission: "yes" }, "mcp.servers.ok.permission", /ask/],
  ["unknown key", "ok", { command: "x", colour: 1 }, "mcp.servers.ok.colour", /unknown key/],
];

for (const [what, name, entry, keyPath, message] of BAD_ENTRIES) {
  Deno.test(`an entry with ${what} is refused at ${keyPath}`, () => {
    assert.throws(() => checkMcpServer("c.yaml", name, entry), refusedAt(keyPath, message));
  });
}

Deno.test("write, change and remove keep the rest of the file", async () => {
  await withTempHome(async (path) => {
    assert.deepEqual(await readMcpConfig(path), { servers: {} }, "no file: no servers");
    await Deno.writeTextFile(path, "version: 1\nskills:\n  disabled: [web]\n");
    await writeMcpServer(path, "files", { command: "node", env: { TOKEN: "s3cret-value" } });
    await writeMcpServer(path, "web", { url: "http://127.0.0.1:1/mcp" });
    const config = await readConfig(path);
    assert.deepEqual(config.skills.disabled, ["web"], "skills kept");
    assert.deepEqual(Object.keys(config.mcp?.servers ?? {}), ["files", "web"]);
    const changed = await changeMcpServer(path, "files", (entry) => ({ ...entry, enabled: false }));
    assert.equal(changed?.enabled, false);
    assert.equal(changed?.env?.TOKEN, "s3cret-value", "env kept by a change");
    assert.equal(await changeMcpServer(path, "nope", (entry) => entry), null, "unknown server");
    await assert.rejects(
      changeMcpServer(path, "files", (entry) => ({ ...entry, timeout_ms: 1 })),
      refusedAt("mcp.servers.files.timeout_ms", /least/),
    );
    assert.equal(await removeMcpServer(path, "web"), true);
    assert.equal(await removeMcpServer(path, "web"), false, "second remove finds none");
    assert.deepEqual(Object.keys((await readMcpConfig(path)).servers), ["files"]);
  });
});

Deno.test("a refused entry leaves the file untouched", async () => {
  await withTempHome(async (path) => {
    await writeMcpServer(path, "files", { command: "node" });
    const before = await Deno.readTextFile(path);
    await assert.rejects(
      writeMcpServer(path, "files", { url: "nope" } as never),
      refusedAt("mcp.servers.files.url", /http\(s\) URL/),
    );
    assert.equal(await Deno.readTextFile(path), before);
  });
});
