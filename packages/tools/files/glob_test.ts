import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestWorkspace, type TestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { globTool } from "./glob.ts";
import { accessRulesOf } from "./access.ts";
import { compileGlob, walkFiles } from "./traversal.ts";

async function tree(ws: TestWorkspace) {
  await ws.write("z.ts", "");
  await ws.write("a.ts", "");
  await ws.write("src/b.ts", "");
  await ws.write("src/lib/c.ts", "");
  await ws.write("src/lib/c.test.ts", "");
  await ws.write("src/logo.png", "fake");
  await ws.write("src/blob.ts", new Uint8Array([0, 1, 2]));
  await ws.write(".git/config.ts", "");
  await ws.write("node_modules/dep/index.ts", "");
  await Deno.mkdir(join(ws.base, "outside"));
  await Deno.writeTextFile(join(ws.base, "outside", "o.ts"), "");
  await Deno.symlink(join(ws.base, "outside"), join(ws.root, "linked-dir"));
  await Deno.symlink(join(ws.root, "a.ts"), join(ws.root, "src", "alias.ts"));
}

Deno.test("glob finds files breadth-first, in name order, skipping what it must", async () => {
  await using ws = await createTestWorkspace();
  await tree(ws);
  const result = await executeTool(globTool, { pattern: "*.ts" }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(
    result.content,
    [
      "a.ts",
      "z.ts",
      "src/alias.ts",
      "src/b.ts",
      "src/lib/c.test.ts",
      "src/lib/c.ts",
      "",
      "[6 matches]",
    ]
      .join("\n"),
  );
});

Deno.test("glob patterns with a slash match the path below the searched folder", async () => {
  await using ws = await createTestWorkspace();
  await tree(ws);
  const fromRoot = await executeTool(globTool, { pattern: "src/**/*.test.ts" }, ws.context);
  assert.match(fromRoot.content, /^src\/lib\/c\.test\.ts\n/);
  const fromSrc = await executeTool(
    globTool,
    { pattern: "lib/*.{ts,js}", path: "src" },
    ws.context,
  );
  assert.equal(fromSrc.content, "src/lib/c.test.ts\nsrc/lib/c.ts\n\n[2 matches]");
});

Deno.test("glob stops at limit and reports truncation", async () => {
  await using ws = await createTestWorkspace();
  await tree(ws);
  const result = await executeTool(globTool, { pattern: "**", limit: 2 }, ws.context);
  assert.equal(result.details?.count, 2);
  assert.equal(result.details?.truncated, true);
  assert.equal(
    (await executeTool(globTool, { pattern: "*", limit: 1001 }, ws.context)).errorCode,
    "invalid_arguments",
  );
  assert.equal(
    (await executeTool(globTool, { pattern: "[a" }, ws.context)).errorCode,
    "invalid_arguments",
  );
  assert.equal(
    (await executeTool(globTool, { pattern: "*", path: "a.ts" }, ws.context)).errorCode,
    "not_a_directory",
  );
});

Deno.test("the walk checks cancellation between directories", async () => {
  await using ws = await createTestWorkspace();
  await tree(ws);
  const controller = new AbortController();
  const seen: string[] = [];
  await assert.rejects(
    async () => {
      const rules = await accessRulesOf(ws.context);
      for await (const file of walkFiles(ws.root, controller.signal, rules, ws.root)) {
        seen.push(file.relative);
        controller.abort();
      }
    },
    (error: Error & { code?: string }) => error.code === "cancelled",
  );
  assert.deepEqual(seen, ["a.ts", "z.ts"], "the first directory finishes, the next is not read");
  controller.abort();
  const result = await executeTool(globTool, { pattern: "*" }, {
    ...ws.context,
    signal: controller.signal,
  });
  assert.equal(result.errorCode, "cancelled");
});

Deno.test("compileGlob syntax", () => {
  const cases: [string, string, boolean][] = [
    ["*.ts", "deep/a.ts", true],
    ["src/*.ts", "src/a/b.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["[!a]*.md", "b.md", true],
    ["[!a]*.md", "a.md", false],
    ["*.{js,mjs}", "x.mjs", true],
    ["a+b(1).txt", "a+b(1).txt", true],
    ["./src/*.ts", "src/a.ts", true],
  ];
  for (const [pattern, path, expected] of cases) {
    assert.equal(compileGlob(pattern)(path), expected, `${pattern} vs ${path}`);
  }
});
