import assert from "node:assert/strict";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { grepTool } from "./grep.ts";

Deno.test("grep reports file:line:content in walk order", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("b.ts", "const TODO = 1;\nfine\r\n// todo later\n");
  await ws.write("a.md", "TODO: docs\n");
  await ws.write("src/c.ts", "x\nTODO here\n");
  await ws.write("node_modules/d.ts", "TODO hidden\n");
  await ws.write("bin.dat", new Uint8Array([84, 79, 68, 79, 0]));
  const result = await executeTool(grepTool, { pattern: "TODO" }, ws.context);
  assert.equal(
    result.content,
    "a.md:1:TODO: docs\nb.ts:1:const TODO = 1;\nsrc/c.ts:2:TODO here\n\n[3 matches]",
  );
  const insensitive = await executeTool(grepTool, {
    pattern: "todo",
    ignoreCase: true,
    include: "*.ts",
  }, ws.context);
  assert.equal(insensitive.details?.count, 3);
  assert.doesNotMatch(insensitive.content, /a\.md/);
});

Deno.test("grep searches one file, cuts long lines and stops at limit", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("long.txt", `hit ${"z".repeat(3000)}\nhit\nhit\n`);
  const one = await executeTool(
    grepTool,
    { pattern: "^hit", path: "long.txt", limit: 2 },
    ws.context,
  );
  const lines = one.content.split("\n");
  assert.equal(lines[0], `long.txt:1:hit ${"z".repeat(1996)} …`);
  assert.equal(lines[1], "long.txt:2:hit");
  assert.equal(one.details?.truncated, true);
  assert.match(one.content, /\[first 2 matches/);
});

Deno.test("grep errors and empty results", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("a.txt", "abc\n");
  assert.equal(
    (await executeTool(grepTool, { pattern: "(" }, ws.context)).errorCode,
    "invalid_arguments",
  );
  assert.equal(
    (await executeTool(grepTool, { pattern: "a", path: "nope" }, ws.context)).errorCode,
    "file_not_found",
  );
  const none = await executeTool(grepTool, { pattern: "zzz" }, ws.context);
  assert.equal(none.isError, undefined);
  assert.equal(none.content, "No matches for /zzz/ in .");
  const controller = new AbortController();
  controller.abort();
  const cancelled = await grepTool.run({ pattern: "a" }, {
    ...ws.context,
    signal: controller.signal,
  })
    .catch((error) => error.code);
  assert.equal(cancelled, "cancelled");
});
