import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { type ListEntry, listTool } from "./list.ts";

Deno.test("list shows one level, sorted, with type, size and mtime", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("b.txt", "12345");
  await ws.write("a/deep/x.txt", "x");
  await Deno.symlink(join(ws.root, "b.txt"), join(ws.root, "c-link"));
  const result = await executeTool(listTool, {}, ws.context);
  assert.equal(result.isError, undefined, result.content);
  const entries = result.details?.entries as ListEntry[];
  assert.deepEqual(entries.map((e) => [e.name, e.type, e.size]), [
    ["a", "directory", null],
    ["b.txt", "file", 5],
    ["c-link", "symlink", 5],
  ]);
  assert.ok(entries.every((e) => e.mtime !== null && !Number.isNaN(Date.parse(e.mtime))));
  const lines = result.content.split("\n");
  assert.equal(lines[0], ".: 3 entries");
  assert.match(lines[1] ?? "", /^a\/\t-\t/);
  assert.match(lines[3] ?? "", /^c-link@\t5\t/);
});

Deno.test("list stops at 1,000 entries and says how many there are", async () => {
  await using ws = await createTestWorkspace();
  await Promise.all(
    Array.from({ length: 1005 }, (_, i) => ws.write(`many/f${String(i).padStart(4, "0")}`, "")),
  );
  const result = await executeTool(listTool, { path: "many" }, ws.context);
  assert.equal((result.details?.entries as ListEntry[]).length, 1000);
  assert.equal(result.details?.total, 1005);
  assert.equal(result.details?.truncated, true);
  assert.match(result.content, /^many: 1005 entries \(showing the first 1000\)/);
});

Deno.test("list refuses files and missing paths", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("f.txt", "x");
  assert.equal(
    (await executeTool(listTool, { path: "f.txt" }, ws.context)).errorCode,
    "not_a_directory",
  );
  assert.equal(
    (await executeTool(listTool, { path: "gone" }, ws.context)).errorCode,
    "file_not_found",
  );
});
