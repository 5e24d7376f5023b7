import assert from "node:assert/strict";
import { intersectAllowed, selectNames, selectSubagents, selectTools } from "./selection.ts";

const AVAILABLE = ["read", "write", "grep"];

Deno.test("selectNames: absent = all, [] = none, a list = those available, in their order", () => {
  const cases: [string, string[] | undefined, string[]][] = [
    ["absent", undefined, ["read", "write", "grep"]],
    ["empty", [], []],
    ["a list", ["grep", "read"], ["read", "grep"]],
    ["a name not available", ["read", "gone"], ["read"]],
  ];
  for (const [name, selection, expected] of cases) {
    assert.deepEqual(selectNames(selection, AVAILABLE), expected, `${name}: wrong selection`);
  }
});

Deno.test("selectSubagents: absent and [] both mean every profile (seed 003)", () => {
  const ids = ["build", "plan", "explore"];
  assert.deepEqual(selectSubagents(undefined, ids), ids, "absent must select all");
  assert.deepEqual(selectSubagents([], ids), ids, "[] must select all for sub-agents");
  assert.deepEqual(selectSubagents(["explore"], ids), ["explore"], "a list narrows");
});

Deno.test("selectTools: MCP tools follow mcpServers and tools; built-ins follow tools", () => {
  const tools = [
    { name: "read" },
    { name: "write" },
    { name: "mcp__a__x", mcpServer: "a" },
    { name: "mcp__b__y", mcpServer: "b" },
  ];
  const cases: [string, { tools?: string[]; mcpServers?: string[] }, string[]][] = [
    ["all absent", {}, ["read", "write", "mcp__a__x", "mcp__b__y"]],
    ["no servers", { mcpServers: [] }, ["read", "write"]],
    ["one server", { mcpServers: ["b"] }, ["read", "write", "mcp__b__y"]],
    ["no tools", { tools: [] }, []],
    ["a tools list without MCP names", { tools: ["read"] }, ["read"]],
    ["a tools list naming a tool of a server left out", {
      tools: ["read", "mcp__a__x"],
      mcpServers: ["b"],
    }, ["read"]],
    ["a tools list naming an MCP tool", { tools: ["mcp__a__x"] }, ["mcp__a__x"]],
  ];
  for (const [name, profile, expected] of cases) {
    assert.deepEqual(selectTools(profile, tools), expected, `${name}: wrong tools`);
  }
});

Deno.test("intersectAllowed: absent is no limit; two lists keep the common names", () => {
  assert.equal(intersectAllowed(undefined, undefined), undefined, "no limit on either side");
  assert.deepEqual(intersectAllowed(["a", "b"], undefined), ["a", "b"]);
  assert.deepEqual(intersectAllowed(undefined, ["b"]), ["b"]);
  assert.deepEqual(intersectAllowed(["a", "b", "c"], ["c", "a"]), ["a", "c"]);
  assert.deepEqual(intersectAllowed([], ["a"]), [], "an empty list stays empty");
});
