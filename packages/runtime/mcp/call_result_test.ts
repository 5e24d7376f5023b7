import assert from "node:assert/strict";
import { MCP_TOOL_ERROR, type McpCallResult, mcpToolResult } from "./call_result.ts";

const ORIGIN = { server: "e", tool: "t" };

const CASES: [string, McpCallResult, string][] = [
  ["text blocks in order", {
    content: [{ type: "text", text: "one" }, { type: "text", text: "two" }],
  }, "one\ntwo"],
  ["an image as a note", {
    content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
  }, "[image image/png, 8 bytes: shown to models that take images]"],
  ["a text resource with its uri", {
    content: [{ type: "resource", resource: { uri: "file:///a.txt", text: "hello" } }],
  }, "[resource file:///a.txt]\nhello"],
  ["a binary resource as a note", {
    content: [{
      type: "resource",
      resource: { uri: "file:///a.gz", mimeType: "application/gzip", blob: "AAAA" },
    }],
  }, "[resource file:///a.gz (application/gzip, 3 bytes of binary data)]"],
  ["a resource link", {
    content: [{ type: "resource_link", uri: "test://r/1", name: "Resource 1" }],
  }, "[resource test://r/1 (Resource 1)]"],
  ["structured content alone as JSON", {
    content: [],
    structuredContent: { temperature: 22.5 },
  }, '{"temperature":22.5}'],
  ["structured content repeated as text only once", {
    content: [{ type: "text", text: '{ "temperature": 22.5 }' }],
    structuredContent: { temperature: 22.5 },
  }, '{ "temperature": 22.5 }'],
  ["no content", { content: [] }, "(no output)"],
  ["an unknown block", { content: [{ type: "hologram" }] }, "[hologram content: not supported]"],
];

for (const [what, result, expected] of CASES) {
  Deno.test(`an MCP result with ${what} reads as the model is shown it`, () => {
    const mapped = mcpToolResult(result, ORIGIN);
    assert.equal(mapped.content, expected);
    assert.equal(mapped.isError, undefined, "not an error");
    assert.equal(mapped.details?.server, "e");
  });
}

Deno.test("isError becomes mcp_tool_error with the server's text", () => {
  const mapped = mcpToolResult({
    content: [{ type: "text", text: "Access denied - path outside allowed directories" }],
    isError: true,
  }, ORIGIN);
  assert.equal(mapped.isError, true);
  assert.equal(mapped.errorCode, MCP_TOOL_ERROR);
  assert.match(mapped.content, /Access denied/);
  assert.equal(mcpToolResult({ isError: true }, ORIGIN).content, "t failed without saying why");
});

Deno.test("images and small structured content are kept in the details", () => {
  const mapped = mcpToolResult({
    content: [{ type: "image", data: "AAAAAAAA", mimeType: "image/png" }],
    structuredContent: { ok: true },
  }, ORIGIN);
  assert.deepEqual(mapped.details?.images, [{ mimeType: "image/png", bytes: 6 }]);
  assert.deepEqual(mapped.details?.structuredContent, { ok: true });
  const big = mcpToolResult({ structuredContent: { text: "x".repeat(20_000) } }, ORIGIN);
  assert.equal(big.details?.structuredContent, undefined, "too big for the details");
  assert.equal(big.content.length, 20_011, "the text keeps all of it");
});
