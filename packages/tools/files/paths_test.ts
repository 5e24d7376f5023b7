import assert from "node:assert/strict";
import { join, posix, win32 } from "node:path";
import { ToolError } from "../tool.ts";
import { createTestWorkspace } from "../_testing.ts";
import {
  isBinaryFile,
  isWithin,
  looksBinary,
  realTarget,
  resolveToolPath,
  withPathLock,
} from "./paths.ts";

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (error) => error instanceof ToolError && error.code === code);
}

Deno.test("relative paths resolve against the workspace and .. is normalised", async () => {
  await using ws = await createTestWorkspace();
  const target = await resolveToolPath("src/../README.md", ws.root);
  assert.equal(target.path, join(ws.root, "README.md"));
  assert.equal(target.displayPath, "README.md");
  assert.equal(target.insideWorkspace, true);
  assert.equal((await resolveToolPath(".", ws.root)).displayPath, ".");
});

Deno.test("a .. escape resolves outside the workspace and says so (allowed in full access)", async () => {
  await using ws = await createTestWorkspace();
  const target = await resolveToolPath("../outside.txt", ws.root);
  assert.equal(target.path, join(ws.base, "outside.txt"));
  assert.equal(target.insideWorkspace, false);
  assert.equal(
    target.displayPath,
    join(ws.base, "outside.txt"),
    "outside paths are shown absolute",
  );
});

Deno.test("a symlink in the workspace pointing outside resolves to its real target", async () => {
  await using ws = await createTestWorkspace();
  await Deno.writeTextFile(join(ws.base, "secret.txt"), "x");
  await Deno.symlink(join(ws.base, "secret.txt"), join(ws.root, "link.txt"));
  const target = await resolveToolPath("link.txt", ws.root);
  assert.equal(target.path, join(ws.root, "link.txt"));
  assert.equal(target.realPath, join(ws.base, "secret.txt"));
  assert.equal(target.insideWorkspace, false);
});

Deno.test("a missing file below a symlinked folder resolves through the link", async () => {
  await using ws = await createTestWorkspace();
  await Deno.mkdir(join(ws.root, "real"));
  await Deno.symlink(join(ws.root, "real"), join(ws.root, "alias"));
  assert.equal(
    await realTarget(join(ws.root, "alias", "new", "file.txt")),
    join(ws.root, "real", "new", "file.txt"),
  );
  await Deno.symlink(join(ws.root, "real", "later.txt"), join(ws.root, "dangling"));
  assert.equal(await realTarget(join(ws.root, "dangling")), join(ws.root, "real", "later.txt"));
});

Deno.test("empty, NUL-carrying and over-long paths are refused", async () => {
  await using ws = await createTestWorkspace();
  await rejectsWith(resolveToolPath("", ws.root), "invalid_arguments");
  await rejectsWith(resolveToolPath("a\0b", ws.root), "invalid_arguments");
  await rejectsWith(resolveToolPath("a".repeat(4097), ws.root), "path_too_long");
  await resolveToolPath("a".repeat(4096), ws.root);
});

Deno.test("aliases of one file share one lock", async () => {
  await using ws = await createTestWorkspace();
  const real = await ws.write("file.txt", "x");
  await Deno.symlink(real, join(ws.root, "alias.txt"));
  const viaReal = await resolveToolPath("file.txt", ws.root);
  const viaAlias = await resolveToolPath("alias.txt", ws.root);
  const order: string[] = [];
  let open = () => {};
  const gate = new Promise<void>((resolve) => open = resolve);
  const first = withPathLock(viaReal.realPath, async () => {
    order.push("first:start");
    await gate;
    order.push("first:end");
  });
  const second = withPathLock(viaAlias.realPath, () => {
    order.push("second");
    return Promise.resolve();
  });
  await new Promise((resolve) => setTimeout(resolve, 0)); // let a broken lock run `second` early
  assert.deepEqual(order, ["first:start"], "the alias waited for the lock");
  open();
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first:start", "first:end", "second"]);
});

Deno.test("a failed task releases its lock", async () => {
  await assert.rejects(withPathLock("/tmp/x-lock", () => Promise.reject(new Error("boom"))));
  assert.equal(await withPathLock("/tmp/x-lock", () => Promise.resolve(7)), 7);
});

Deno.test("binary sniffing: NUL, invalid UTF-8, a cut character at the sample end is not binary", () => {
  const encoder = new TextEncoder();
  assert.equal(looksBinary(encoder.encode("plain text\n"), true), false);
  assert.equal(looksBinary(new Uint8Array([104, 0, 105]), true), true);
  assert.equal(looksBinary(new Uint8Array([0xff, 0xfe, 0x41]), true), true);
  const cut = encoder.encode("é").subarray(0, 1);
  assert.equal(looksBinary(cut, false), false, "a partial sample may end inside a character");
  assert.equal(looksBinary(cut, true), true, "a whole file may not");
});

Deno.test("binary extensions are refused whatever their content", async () => {
  await using ws = await createTestWorkspace();
  assert.equal(await isBinaryFile(await ws.write("image.PNG", "looks like text")), true);
  assert.equal(await isBinaryFile(await ws.write("notes.txt", "text")), false);
  assert.equal(await isBinaryFile(await ws.write("data.dat", new Uint8Array([1, 0, 2]))), true);
});

Deno.test("isWithin: containment per flavour, case-insensitive and drive-aware on Windows", () => {
  const cases: [flavour: "posix" | "win32", parent: string, child: string, inside: boolean][] = [
    ["posix", "/home/ada/ws", "/home/ada/ws", true],
    ["posix", "/home/ada/ws", "/home/ada/ws/src/a.ts", true],
    ["posix", "/home/ada/ws", "/home/ada/ws2/a.ts", false],
    ["posix", "/home/ada/ws", "/home/ada", false],
    ["posix", "/home/ada/ws", "/home/ada/WS/a.ts", false], // Linux names are case-sensitive
    ["posix", "/home/ada/ws", "/home/ada/ws/..foo", true], // a name starting with "..", inside
    ["win32", "C:\\Users\\Ada\\ws", "C:\\Users\\Ada\\ws\\src\\a.ts", true],
    ["win32", "C:\\Users\\Ada\\ws", "c:\\users\\ada\\WS\\src\\a.ts", true],
    ["win32", "C:\\Users\\Ada\\ws", "C:\\USERS\\ADA\\WS", true],
    ["win32", "C:\\Users\\Ada\\ws", "C:\\Users\\Ada\\ws2\\a.ts", false],
    ["win32", "C:\\Users\\Ada\\ws", "C:\\Users\\Ada", false],
    ["win32", "C:\\Users\\Ada\\ws", "D:\\Users\\Ada\\ws\\a.ts", false],
    ["win32", "C:\\Users\\Ada\\ws", "C:\\Users\\Ada\\ws\\..\\other", false],
  ];
  for (const [flavour, parent, child, inside] of cases) {
    const paths = flavour === "win32" ? win32 : posix;
    assert.equal(isWithin(parent, child, paths), inside, `${flavour}: ${child} in ${parent}`);
  }
});
