import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { createTestWorkspace } from "./_testing.ts";
import { executeTool } from "./execute.ts";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readTool } from "./files/read.ts";
import { writeTool } from "./files/write.ts";
import type { FileChange } from "./files/capture.ts";

/** A tool that returns (or throws) whatever the test asks for. */
function echoTool(behaviour: (context: ToolContext) => Promise<ToolResult>) {
  let calls = 0;
  const tool = defineTool({
    id: "read",
    description: "test",
    params: z.strictObject({ count: z.int().min(1), label: z.string().optional() }),
    mutating: false,
    risk: "read",
    run: (_params, context) => {
      calls++;
      return behaviour(context);
    },
  });
  return { tool, calls: () => calls };
}

const numbered = (count: number, width = 10) =>
  Array.from({ length: count }, (_, i) => `${i + 1}`.padEnd(width, ".")).join("\n");

Deno.test("bad arguments name the field and never reach the tool", async () => {
  await using ws = await createTestWorkspace();
  const { tool, calls } = echoTool(() => Promise.resolve({ content: "ran" }));
  const wrongType = await executeTool(tool, { count: "3" }, ws.context);
  assert.equal(wrongType.errorCode, "invalid_arguments");
  assert.match(wrongType.content, /^Invalid arguments for read: count: /);
  const unknown = await executeTool(tool, { count: 1, colour: "red" }, ws.context);
  assert.match(unknown.content, /colour/);
  const notObject = await executeTool(tool, "hello", ws.context);
  assert.match(notObject.content, /arguments: /);
  assert.equal(calls(), 0);
});

Deno.test("an aborted signal cancels before the tool runs; an abort during it cancels too", async () => {
  await using ws = await createTestWorkspace();
  const controller = new AbortController();
  controller.abort();
  const { tool, calls } = echoTool(() => Promise.resolve({ content: "ran" }));
  const result = await executeTool(tool, { count: 1 }, {
    ...ws.context,
    signal: controller.signal,
  });
  assert.deepEqual({ ...result, details: undefined }, {
    isError: true,
    errorCode: "cancelled",
    content: "The read call was cancelled",
    details: undefined,
  });
  assert.equal(calls(), 0);
  const during = new AbortController();
  const aborting = echoTool(() => {
    during.abort();
    return Promise.reject(new DOMException("aborted", "AbortError"));
  });
  const mid = await executeTool(aborting.tool, { count: 1 }, {
    ...ws.context,
    signal: during.signal,
  });
  assert.equal(mid.errorCode, "cancelled");
});

Deno.test("ToolError keeps its code; other errors become tool_failed without a stack", async () => {
  await using ws = await createTestWorkspace();
  const known = echoTool(() =>
    Promise.reject(new ToolError("file_not_found", "x.txt does not exist"))
  );
  assert.deepEqual(
    { ...(await executeTool(known.tool, { count: 1 }, ws.context)), details: undefined },
    {
      isError: true,
      errorCode: "file_not_found",
      content: "x.txt does not exist",
      details: undefined,
    },
  );
  const crash = echoTool(() => Promise.reject(new RangeError("index out of range")));
  const failed = await executeTool(crash.tool, { count: 1 }, ws.context);
  assert.equal(failed.errorCode, "tool_failed");
  assert.equal(failed.content, "read failed: index out of range");
  assert.equal(typeof failed.details?.durationMs, "number");
});

Deno.test("a result carrying a credential is withheld, in content or details, large or small", async () => {
  const secret = "sk-test-SECRET-123456";
  await using ws = await createTestWorkspace({ protectedValues: [secret] });
  const inContent = echoTool(() => Promise.resolve({ content: `key=${secret}` }));
  const inDetails = echoTool(() =>
    Promise.resolve({ content: "ok", details: { header: `Bearer ${secret}` } })
  );
  const large = echoTool(() => Promise.resolve({ content: numbered(20_000) + secret }));
  const failing = echoTool(() => Promise.reject(new ToolError("x", `bad ${secret}`)));
  for (const { tool } of [inContent, inDetails, large, failing]) {
    const result = await executeTool(tool, { count: 1 }, ws.context);
    assert.equal(result.errorCode, "protected_value");
    assert.doesNotMatch(JSON.stringify(result), /SECRET/);
  }
  await assert.rejects(Deno.stat(ws.context.artifactsRoot), Deno.errors.NotFound, "no artifact");
});

Deno.test("a credential written to a file stays on disk but out of the change fact", async () => {
  const secret = "sk-test-SECRET-123456";
  await using ws = await createTestWorkspace({ protectedValues: [secret] });
  const result = await executeTool(
    writeTool,
    { path: ".env", content: `KEY=${secret}\n` },
    ws.context,
  );
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(join(ws.root, ".env")), `KEY=${secret}\n`);
  const fact = ws.context.facts.fileChanges[0] as FileChange;
  assert.doesNotMatch(JSON.stringify(fact), /SECRET/);
  assert.equal(fact.withheld, "protected_value");
  assert.equal(fact.after.lineCount, 1, "metadata is kept");
  assert.equal(fact.additions, 1);
});

Deno.test("results over 64 KiB go to an artifact; the model gets a preview and a read hint", async () => {
  await using ws = await createTestWorkspace({ threadId: "thr_1", itemId: "item_9" });
  const content = numbered(10_000); // 10,000 lines of 10 bytes + newlines ≈ 107 KiB
  const { tool } = echoTool(() => Promise.resolve({ content, details: { kept: 1 } }));
  const result = await executeTool(tool, { count: 1 }, ws.context);
  const artifactPath = join(ws.context.artifactsRoot, "thr_1", "item_9.txt");
  assert.equal(await Deno.readTextFile(artifactPath), content);
  assert.equal(result.isError, undefined);
  assert.equal(result.details?.artifactPath, artifactPath);
  assert.equal(result.details?.artifactBytes, new TextEncoder().encode(content).length);
  assert.equal(result.details?.artifactLines, 10_000);
  assert.equal(result.details?.artifactPreviewLines, 200);
  assert.equal(result.details?.truncated, true);
  assert.equal(result.details?.kept, 1);
  const [preview, hint] = result.content.split("\n\n");
  assert.equal(preview, content.split("\n").slice(0, 200).join("\n"));
  assert.match(
    hint ?? "",
    new RegExp(`use read with offset=201 on ${artifactPath} for the rest`, "i"),
  );
  const onward = await executeTool(
    readTool,
    { path: artifactPath, offset: 201, limit: 1 },
    ws.context,
  );
  assert.ok(onward.content.startsWith(`201\t${"201".padEnd(10, ".")}\n`), onward.content);
});

Deno.test("the preview also stops at 32 KiB; a failed artifact write keeps the result", async () => {
  await using ws = await createTestWorkspace();
  const wide = numbered(100, 1000); // 100 lines of 1,000 bytes
  const { tool } = echoTool(() => Promise.resolve({ content: wide }));
  const result = await executeTool(tool, { count: 1 }, ws.context);
  assert.equal(result.details?.artifactPreviewLines, 32);
  assert.ok(new TextEncoder().encode(result.content.split("\n\n")[0] ?? "").length <= 32 * 1024);
  assert.match(result.content, /offset=33 /);

  await using blocked = await createTestWorkspace();
  await Deno.writeTextFile(blocked.context.artifactsRoot, "a file where the folder should be");
  const kept = await executeTool(tool, { count: 1 }, blocked.context);
  assert.equal(kept.content, wide);
  assert.equal(kept.details?.artifactPath, undefined);
});
