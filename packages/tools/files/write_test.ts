import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import type { FileChange } from "./capture.ts";
import { writeTool } from "./write.ts";

Deno.test("write creates a file and its parents and records a creation fact", async () => {
  await using ws = await createTestWorkspace();
  const result = await executeTool(
    writeTool,
    { path: "a/b/new.txt", content: "one\ntwo\n" },
    ws.context,
  );
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(join(ws.root, "a/b/new.txt")), "one\ntwo\n");
  assert.match(
    result.content,
    /^Created a\/b\/new\.txt: 2 lines, 8 bytes \(\+2 −0\); revision sha256:/,
  );
  const [fact] = ws.context.facts.fileChanges as FileChange[];
  assert.ok(fact);
  assert.equal(fact.toolCallItemId, "item-1");
  assert.equal(fact.operation, "write");
  assert.deepEqual(fact.before, {
    exists: false,
    byteCount: 0,
    revision: null,
    encoding: null,
    bom: false,
    newline: "none",
    lineCount: 0,
  });
  assert.equal(fact.after.text, "one\ntwo\n");
  assert.equal(fact.after.newline, "lf");
  assert.equal(fact.after.lineCount, 2);
  assert.equal(fact.diff, "--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n");
  assert.equal(result.details?.revision, fact.after.revision);
});

Deno.test("write over a file captures both sides, the diff and keeps the file mode", async () => {
  await using ws = await createTestWorkspace();
  const path = await ws.write("run.sh", "\uFEFFecho a\r\necho b\r\n");
  await Deno.chmod(path, 0o755);
  const result = await executeTool(
    writeTool,
    { path: "run.sh", content: "echo a\necho c\n" },
    ws.context,
  );
  assert.equal(result.isError, undefined, result.content);
  const fact = ws.context.facts.fileChanges[0] as FileChange;
  assert.equal(fact.before.bom, true);
  assert.equal(fact.before.newline, "crlf");
  assert.equal(fact.after.bom, false);
  assert.equal(fact.after.newline, "lf");
  assert.equal(fact.additions, 2);
  assert.equal(fact.deletions, 2);
  assert.match(fact.diff ?? "", /^--- a\/run\.sh\n\+\+\+ b\/run\.sh\n@@ -1,2 \+1,2 @@\n/);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o755);
  const leftovers = [...Deno.readDirSync(ws.root)].map((entry) => entry.name);
  assert.deepEqual(leftovers, ["run.sh"], "no temp file is left behind");
});

Deno.test("captures over 5,000 lines keep metadata only", async () => {
  await using ws = await createTestWorkspace();
  const big = Array.from({ length: 6000 }, (_, i) => `${i}`).join("\n");
  await executeTool(writeTool, { path: "big.txt", content: big }, ws.context);
  const fact = ws.context.facts.fileChanges[0] as FileChange;
  assert.equal(fact.after.text, undefined);
  assert.equal(fact.after.textOmitted, true);
  assert.equal(fact.after.lineCount, 6000);
  assert.equal(fact.after.newline, "lf");
  assert.equal(fact.additions, 6000, "counts are kept even when the text is not");
});

Deno.test("write through a symlink replaces the target and keeps the link", async () => {
  await using ws = await createTestWorkspace();
  const real = await ws.write("real.txt", "old\n");
  await Deno.symlink(real, join(ws.root, "link.txt"));
  const result = await executeTool(writeTool, { path: "link.txt", content: "new\n" }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(real), "new\n");
  assert.equal((await Deno.lstat(join(ws.root, "link.txt"))).isSymlink, true);
});

Deno.test("concurrent writes through aliases are serialised, each fact sees the previous one", async () => {
  await using ws = await createTestWorkspace();
  const real = await ws.write("f.txt", "0\n");
  await Deno.symlink(real, join(ws.root, "alias.txt"));
  const results = await Promise.all(
    ["f.txt", "alias.txt", "f.txt", "alias.txt"].map((path, i) =>
      executeTool(writeTool, { path, content: `${i + 1}\n` }, ws.context)
    ),
  );
  assert.ok(results.every((result) => !result.isError));
  const facts = ws.context.facts.fileChanges as FileChange[];
  for (let i = 1; i < facts.length; i++) {
    assert.equal(
      facts[i]?.before.revision,
      facts[i - 1]?.after.revision,
      `write ${i} saw write ${i - 1}`,
    );
  }
});

Deno.test("write refuses a directory, too-large content and bad arguments", async () => {
  await using ws = await createTestWorkspace();
  await Deno.mkdir(join(ws.root, "dir"));
  const cases: [unknown, string][] = [
    [{ path: "dir", content: "x" }, "not_a_file"],
    [{ path: "huge.txt", content: "x".repeat(8 * 1024 * 1024 + 1) }, "file_too_large"],
    [{ path: "x.txt" }, "invalid_arguments"],
    [{ path: "x.txt", content: "x", mode: 1 }, "invalid_arguments"],
  ];
  for (const [args, code] of cases) {
    const result = await executeTool(writeTool, args, ws.context);
    assert.equal(result.errorCode, code, result.content);
  }
  assert.equal(ws.context.facts.fileChanges.length, 0);
  await assert.rejects(Deno.stat(join(ws.root, "huge.txt")), Deno.errors.NotFound);
});

Deno.test("write outside the workspace is allowed in full access", async () => {
  await using ws = await createTestWorkspace();
  const result = await executeTool(writeTool, { path: "../out.txt", content: "x" }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await Deno.readTextFile(join(ws.base, "out.txt")), "x");
  assert.equal(result.details?.path, join(ws.base, "out.txt"));
});

Deno.test("a change whose captures would pass 256 KiB keeps its metadata only", async () => {
  await using ws = await createTestWorkspace();
  const line = (tag: string) => `${tag} `.padEnd(99, "x") + "\n";
  const first = Array.from({ length: 2000 }, (_, i) => line(`a${i}`)).join("");
  const second = Array.from({ length: 2000 }, (_, i) => line(`b${i}`)).join("");
  await executeTool(writeTool, { path: "big.txt", content: first }, ws.context);
  const result = await executeTool(writeTool, { path: "big.txt", content: second }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  const fact = (ws.context.facts.fileChanges as FileChange[]).at(-1)!;
  assert.ok(new TextEncoder().encode(JSON.stringify(fact)).byteLength <= 256 * 1024);
  assert.equal(fact.capturesOmitted, true);
  assert.equal((fact.after as { text?: string }).text, undefined);
  assert.equal(fact.after.byteCount, second.length, "the metadata stays");
  assert.equal(fact.additions, 2000);
  assert.equal(fact.deletions, 2000);
});
