import type { Tool } from "./_sdk.ts";
import assert from "node:assert/strict";
import { jsonSchemaParams, mcpToolDefinition } from "./mcp_tool.ts";

const SUM: Tool = {
  name: "get-sum",
  description: "Adds two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
};

Deno.test("arguments are validated against the server's JSON Schema", () => {
  const params = jsonSchemaParams(SUM.inputSchema);
  assert.deepEqual(params.safeParse({ a: 1, b: 2 }), { success: true, data: { a: 1, b: 2 } });
  const missing = params.safeParse({ a: 1 });
  assert.equal(missing.success, false);
  if (!missing.success) assert.match(missing.error.issues[0]!.message, /b/);
  const wrong = params.safeParse({ a: "one", b: 2 });
  assert.equal(wrong.success, false, "a string for a number is refused");
  assert.deepEqual(params.toJSONSchema(), SUM.inputSchema, "offered as listed");
});

Deno.test("annotations set the risk; the permission becomes the default decision", () => {
  const call = () => Promise.resolve({ content: "" });
  const write = mcpToolDefinition({ server: "e", name: "mcp__e__get-sum", tool: SUM }, call);
  assert.equal(write.risk, "process", "no readOnlyHint: it may change things");
  assert.equal(write.mutating, true);
  assert.equal(write.defaultDecision, undefined);
  assert.equal(write.description, "(MCP server e) Adds two numbers");
  const read = mcpToolDefinition({
    server: "e",
    name: "mcp__e__get-sum",
    tool: { ...SUM, annotations: { readOnlyHint: true } },
    permission: "allow",
  }, call);
  assert.equal(read.risk, "read");
  assert.equal(read.mutating, false);
  assert.equal(read.defaultDecision, "allow");
  assert.equal(read.mcpTool, "get-sum");
});

Deno.test("a call reaches the server under the tool's own name with the Run's signal", async () => {
  const seen: unknown[] = [];
  const tool = mcpToolDefinition(
    { server: "e", name: "mcp__e__get-sum", tool: SUM },
    (name, args, signal) => {
      seen.push(name, args, signal.aborted);
      return Promise.resolve({ content: "3" });
    },
  );
  const signal = new AbortController().signal;
  const result = await tool.run({ a: 1, b: 2 }, { signal } as never);
  assert.equal(result.content, "3");
  assert.deepEqual(seen, ["get-sum", { a: 1, b: 2 }, false]);
});
