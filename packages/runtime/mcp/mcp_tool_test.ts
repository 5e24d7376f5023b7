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
  const call = () => Promise.resolve({ result: { content: "" }, images: [] });
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
      return Promise.resolve({ result: { content: "3" }, images: [] });
    },
  );
  const signal = new AbortController().signal;
  const result = await tool.run({ a: 1, b: 2 }, { signal } as never);
  assert.equal(result.content, "3");
  assert.deepEqual(seen, ["get-sum", { a: 1, b: 2 }, false]);
});

Deno.test("images are saved beside the call's artifacts and recorded as attachments", async () => {
  const artifactsRoot = await Deno.makeTempDir({ prefix: "daedalus_mcp_images_" });
  try {
    const png = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 1, 2, 3));
    const tool = mcpToolDefinition(
      { server: "e", name: "mcp__e__img", tool: { ...SUM, name: "img" } },
      () =>
        Promise.resolve({
          result: { content: "[image image/png, 7 bytes: shown to models that take images]" },
          images: [{ data: png, mimeType: "image/png" }, { data: "AAAA", mimeType: "image/tiff" }],
        }),
    );
    const context = {
      signal: new AbortController().signal,
      artifactsRoot,
      threadId: "thr_1",
      itemId: "itm_2",
    };
    const result = await tool.run({ a: 1, b: 2 }, context as never);
    const images = result.details?.images as { path: string; size: number; sha256: string }[];
    assert.equal(images.length, 1, "a tiff is not sent to models");
    assert.equal(images[0]!.path, `${artifactsRoot}/thr_1/itm_2-image-1.png`);
    assert.equal(images[0]!.size, 7);
    assert.match(images[0]!.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual([...await Deno.readFile(images[0]!.path)].slice(0, 4), [
      0x89,
      0x50,
      0x4e,
      0x47,
    ]);
  } finally {
    await Deno.remove(artifactsRoot, { recursive: true });
  }
});
