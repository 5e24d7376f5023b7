import assert from "node:assert/strict";
import { configureParams, emptyMcpForm, mcpToolParts, withServer } from "./mcp_servers.ts";
import type { McpServer } from "@daedalus/client";

Deno.test("a stdio form: arguments one a line, named rows as env", () => {
  const params = configureParams({
    ...emptyMcpForm(),
    name: " files ",
    command: " node ",
    args: "server.js\n\n  /tmp/work  \n",
    secrets: [{ name: "API_TOKEN", value: "s3cret" }, { name: " ", value: "dropped" }],
  });
  assert.deepEqual(params, {
    name: "files",
    transport: "stdio",
    command: "node",
    args: ["server.js", "/tmp/work"],
    env: { API_TOKEN: "s3cret" },
  });
});

Deno.test("an http form: rows as headers, no stdio fields; nothing empty is sent", () => {
  assert.deepEqual(
    configureParams({
      ...emptyMcpForm(),
      name: "web",
      transport: "http",
      url: " http://127.0.0.1:3001/mcp ",
      command: "ignored",
      secrets: [{ name: "Authorization", value: "Bearer x" }],
    }),
    {
      name: "web",
      transport: "http",
      url: "http://127.0.0.1:3001/mcp",
      headers: { Authorization: "Bearer x" },
    },
  );
  assert.deepEqual(configureParams({ ...emptyMcpForm(), name: "a", command: "x" }), {
    name: "a",
    transport: "stdio",
    command: "x",
  });
});

const PARTS: [string, { server: string; tool: string } | null][] = [
  ["mcp__files__read_file", { server: "files", tool: "read_file" }],
  ["mcp__my-srv__get-sum", { server: "my-srv", tool: "get-sum" }],
  ["read", null],
  ["mcp__only", null],
];

for (const [id, parts] of PARTS) {
  Deno.test(`the tool id ${id} names ${parts ? parts.server : "no server"}`, () => {
    assert.deepEqual(mcpToolParts(id), parts);
  });
}

Deno.test("a server from the runtime replaces the listed one, the list stays by name", () => {
  const server = (name: string, state: string) => ({ name, state }) as unknown as McpServer;
  const list = [server("b", "ready"), server("d", "ready")];
  assert.deepEqual(
    withServer(list, server("c", "connecting")).map((s) => s.name),
    ["b", "c", "d"],
  );
  assert.equal(withServer(list, server("b", "failed"))[0]!.state, "failed");
});
