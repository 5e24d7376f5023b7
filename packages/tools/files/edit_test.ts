import assert from "node:assert/strict";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import type { FileChange } from "./capture.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";

Deno.test("edit replaces a unique match and records the diff", async () => {
  await using ws = await createTestWorkspace();
  const path = await ws.write("a.ts", "const a = 1;\nconst b = 2;\n");
  const result = await executeTool(
    editTool,
    { path: "a.ts", oldString: "b = 2", newString: "b = 3" },
    ws.context,
  );
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(path), "const a = 1;\nconst b = 3;\n");
  const fact = ws.context.facts.fileChanges[0] as FileChange;
  assert.equal(fact.operation, "edit");
  assert.equal(
    fact.diff,
    "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n",
  );
  assert.equal(fact.before.text, "const a = 1;\nconst b = 2;\n");
  assert.equal(result.details?.revision, fact.after.revision);
});

Deno.test("edit refuses an ambiguous match with its count unless replaceAll", async () => {
  await using ws = await createTestWorkspace();
  const path = await ws.write("a.txt", "x x x\n");
  const ambiguous = await executeTool(
    editTool,
    { path: "a.txt", oldString: "x", newString: "y" },
    ws.context,
  );
  assert.equal(ambiguous.errorCode, "ambiguous_match");
  assert.match(ambiguous.content, /occurs 3 times/);
  assert.equal(await Deno.readTextFile(path), "x x x\n");
  const all = await executeTool(
    editTool,
    { path: "a.txt", oldString: "x", newString: "$&y", replaceAll: true },
    ws.context,
  );
  assert.equal(all.details?.replacements, 3);
  assert.equal(await Deno.readTextFile(path), "$&y $&y $&y\n", "replacement text is literal");
});

Deno.test("edit with the revision read earlier succeeds; after a change it is stale", async () => {
  await using ws = await createTestWorkspace();
  const path = await ws.write("a.txt", "one\n");
  const read = await executeTool(readTool, { path: "a.txt" }, ws.context);
  const expectedRevision = read.details?.revision as string;
  const ok = await executeTool(
    editTool,
    { path: "a.txt", oldString: "one", newString: "two", expectedRevision },
    ws.context,
  );
  assert.equal(ok.isError, undefined, ok.content);
  const stale = await executeTool(
    editTool,
    { path: "a.txt", oldString: "two", newString: "three", expectedRevision },
    ws.context,
  );
  assert.equal(stale.errorCode, "stale_content");
  assert.equal(await Deno.readTextFile(path), "two\n");
  assert.equal(ws.context.facts.fileChanges.length, 1);
});

Deno.test("edit matches LF text in a CRLF file and keeps CRLF", async () => {
  await using ws = await createTestWorkspace();
  const path = await ws.write("w.txt", "a\r\nb\r\nc\r\n");
  const result = await executeTool(editTool, {
    path: "w.txt",
    oldString: "a\nb",
    newString: "a\nB",
  }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(path), "a\r\nB\r\nc\r\n");
});

Deno.test("edit errors: not found, missing file, binary, no-op, bad revision format", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("a.txt", "hello\n");
  await ws.write("b.bin", new Uint8Array([104, 0, 105]));
  const cases: [unknown, string][] = [
    [{ path: "a.txt", oldString: "bye", newString: "x" }, "not_found"],
    [{ path: "nope.txt", oldString: "a", newString: "b" }, "file_not_found"],
    [{ path: "b.bin", oldString: "h", newString: "x" }, "binary_file"],
    [{ path: "a.txt", oldString: "hello", newString: "hello" }, "invalid_arguments"],
    [{ path: "a.txt", oldString: "", newString: "x" }, "invalid_arguments"],
    [
      { path: "a.txt", oldString: "h", newString: "x", expectedRevision: "abc" },
      "invalid_arguments",
    ],
  ];
  for (const [args, code] of cases) {
    const result = await executeTool(editTool, args, ws.context);
    assert.equal(result.errorCode, code, `${JSON.stringify(args)}: ${result.content}`);
  }
  assert.equal(ws.context.facts.fileChanges.length, 0);
});
