import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { createRunMemo } from "../tool.ts";
import { readTool } from "./read.ts";
import { FILE_SYNC_READ_MAX_BYTES } from "../limits.ts";

const lines = (count: number, make = (n: number) => `line ${n}`) =>
  Array.from({ length: count }, (_, i) => make(i + 1)).join("\n") + "\n";

Deno.test("read numbers lines and reports the range, revision and end of file", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("a.txt", "alpha\r\nbeta\n");
  const result = await executeTool(readTool, { path: "a.txt" }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  const revision = `sha256:${createHash("sha256").update("alpha\r\nbeta\n").digest("hex")}`;
  assert.equal(
    result.content,
    `1\talpha\n2\tbeta\n\n[lines 1-2 of 2 (end of file); revision ${revision}]`,
  );
  assert.deepEqual({ ...result.details, durationMs: 0 }, {
    path: "a.txt",
    lineStart: 1,
    lineEnd: 2,
    nextOffset: null,
    totalBytes: 12,
    totalLines: 2,
    revision,
    truncated: false,
    durationMs: 0,
  });
});

Deno.test("read pages at 2,000 lines and continues at nextOffset", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("long.txt", lines(2500));
  const first = await executeTool(readTool, { path: "long.txt" }, ws.context);
  assert.equal(first.details?.lineEnd, 2000);
  assert.equal(first.details?.nextOffset, 2001);
  assert.equal(first.details?.truncated, true);
  assert.match(first.content, /continue with offset=2001\]$/);
  const second = await executeTool(readTool, { path: "long.txt", offset: 2001 }, ws.context);
  assert.ok(second.content.startsWith("2001\tline 2001\n"));
  assert.equal(second.details?.lineEnd, 2500);
  assert.equal(second.details?.nextOffset, null);
});

Deno.test("a page beyond the first MiB is read on asynchronously, with the whole file's revision", async () => {
  await using ws = await createTestWorkspace();
  // 3.4 MiB: the first MiB is read synchronously, the rest through the thread pool.
  const text = lines(150_000, (n) => `line ${String(n).padStart(6, "0")} of the big file`);
  assert.ok(text.length > 3 * FILE_SYNC_READ_MAX_BYTES);
  await ws.write("big.txt", text);
  const result = await executeTool(
    readTool,
    { path: "big.txt", offset: 120_000, limit: 2 },
    ws.context,
  );
  assert.equal(result.isError, undefined, result.content);
  const revision = `sha256:${createHash("sha256").update(text).digest("hex")}`;
  assert.equal(
    result.content,
    "120000\tline 120000 of the big file\n120001\tline 120001 of the big file\n\n" +
      `[lines 120000-120001 of 150000; revision ${revision}; continue with offset=120002]`,
  );
});

Deno.test("read honours limit and the 50 KiB page budget", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("wide.txt", lines(500, (n) => `${n}`.padEnd(1000, "x")));
  const limited = await executeTool(readTool, { path: "wide.txt", limit: 3 }, ws.context);
  assert.equal(limited.details?.lineEnd, 3);
  const paged = await executeTool(readTool, { path: "wide.txt" }, ws.context);
  const end = paged.details?.lineEnd as number;
  assert.ok(end < 60 && end > 40, `about 50 lines of 1 KB fit in 50 KiB, got ${end}`);
  assert.ok(new TextEncoder().encode(paged.content).length <= 51 * 1024);
  assert.equal(paged.details?.nextOffset, end + 1);
});

Deno.test("read cuts lines at 2,000 characters and says so", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("min.js", "y".repeat(5000) + "\nshort\n");
  const result = await executeTool(readTool, { path: "min.js" }, ws.context);
  const first = result.content.split("\n")[0] ?? "";
  assert.ok(first.startsWith(`1\t${"y".repeat(2000)} … [line cut at 2000 of 5000 characters]`));
  assert.equal(result.details?.truncated, true);
  assert.match(result.content, /^2\tshort$/m);
});

Deno.test("read refuses missing files, directories, binaries and an offset past the end", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("x.txt", "one\n");
  await Deno.mkdir(join(ws.root, "dir"));
  await ws.write("blob.dat", new Uint8Array([65, 0, 66]));
  await ws.write("photo.png", "not really a png");
  await Deno.writeFile(
    join(ws.root, "late.bin.txt"),
    new Uint8Array([...new TextEncoder().encode("a".repeat(5000)), 0xff]),
  );
  const cases: [unknown, string][] = [
    [{ path: "missing.txt" }, "file_not_found"],
    [{ path: "dir" }, "not_a_file"],
    [{ path: "blob.dat" }, "binary_file"],
    [{ path: "photo.png" }, "binary_file"],
    [{ path: "late.bin.txt" }, "binary_file"],
    [{ path: "x.txt", offset: 5 }, "offset_out_of_range"],
    [{ path: "x.txt", limit: 2001 }, "invalid_arguments"],
    [{ path: "x.txt", offset: 0 }, "invalid_arguments"],
  ];
  for (const [args, code] of cases) {
    const result = await executeTool(readTool, args, ws.context);
    assert.equal(result.errorCode, code, `${JSON.stringify(args)}: ${result.content}`);
    assert.equal(result.isError, true);
  }
});

Deno.test("read of an empty file is not an error", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("empty.txt", "");
  const result = await executeTool(readTool, { path: "empty.txt" }, ws.context);
  assert.equal(result.isError, undefined);
  assert.match(result.content, /^\n\[empty file; revision sha256:[0-9a-f]{64}\]$/);
});

Deno.test("read follows .. and symlinks outside the workspace in full access", async () => {
  await using ws = await createTestWorkspace();
  await Deno.writeTextFile(join(ws.base, "outside.txt"), "outside\n");
  await Deno.symlink(join(ws.base, "outside.txt"), join(ws.root, "link.txt"));
  for (const path of ["../outside.txt", "link.txt", join(ws.base, "outside.txt")]) {
    const result = await executeTool(readTool, { path }, ws.context);
    assert.equal(result.isError, undefined, `${path}: ${result.content}`);
    assert.ok(result.content.startsWith("1\toutside\n"));
  }
});

Deno.test("with a Run memo the workspace is resolved once: a root swapped mid-Run allows no more", async () => {
  await using ws = await createTestWorkspace({ executionPolicy: "read_only" });
  await ws.write("inside.txt", "inside\n");
  const elsewhere = join(ws.base, "elsewhere");
  await Deno.mkdir(elsewhere);
  await Deno.writeTextFile(join(elsewhere, "secret.txt"), "not yours\n");
  const runMemo = createRunMemo();
  const call = (path: string) =>
    executeTool(readTool, { path }, {
      ...ws.context,
      runMemo,
      facts: { fileChanges: [], processes: [] },
    });
  const first = await call("inside.txt");
  assert.equal(first.isError, undefined, first.content);
  // The workspace folder is replaced by a link to another folder during the Run.
  await Deno.rename(ws.root, join(ws.base, "moved"));
  await Deno.symlink(elsewhere, ws.root);
  const second = await call("secret.txt");
  assert.equal(
    second.errorCode,
    "permission_denied",
    `read through the swapped root: ${second.content}`,
  );
  // A Run starting now resolves the new root and may read it.
  const fresh = await executeTool(readTool, { path: "secret.txt" }, {
    ...ws.context,
    runMemo: createRunMemo(),
    facts: { fileChanges: [], processes: [] },
  });
  assert.equal(fresh.isError, undefined, fresh.content);
});
