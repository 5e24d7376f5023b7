import assert from "node:assert/strict";
import { join } from "node:path";
import { findMemoryFile, memoryFileAccess } from "./memory_file.ts";

async function withDirs(fn: (home: string, workspace: string, base: string) => Promise<void>) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-memory-file-" }));
  const home = join(base, "home");
  const workspace = join(base, "workspace");
  await Deno.mkdir(home);
  await Deno.mkdir(workspace);
  try {
    await fn(home, workspace, base);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

const options = { maxBytes: 1024, protectedFiles: [] };

Deno.test("the workspace's MEMORY.md wins; the home's is used when the workspace's is missing or empty", async () => {
  await withDirs(async (home, workspace) => {
    const access = memoryFileAccess({ home, workspace });
    assert.deepEqual(access.places.map((place) => place.path), [
      join(workspace, "MEMORY.md"),
      join(home, "MEMORY.md"),
    ]);
    const none = await findMemoryFile(access, options);
    assert.deepEqual(none, { file: null, appendTo: access.places[0], skipped: [] });

    await Deno.writeTextFile(join(home, "MEMORY.md"), "Home notes\n");
    const fromHome = await findMemoryFile(access, options);
    assert.equal(fromHome.file?.path, join(home, "MEMORY.md"));
    assert.equal(fromHome.file?.text, "Home notes\n");
    assert.equal(fromHome.appendTo?.path, join(home, "MEMORY.md"), "an append goes where it reads");

    await Deno.writeTextFile(join(workspace, "MEMORY.md"), " \n\t\n");
    const emptyWorkspace = await findMemoryFile(access, options);
    assert.equal(emptyWorkspace.file?.path, join(home, "MEMORY.md"), "an empty file is no file");

    await Deno.writeTextFile(join(workspace, "MEMORY.md"), "Project notes\n");
    const fromWorkspace = await findMemoryFile(access, options);
    assert.equal(fromWorkspace.file?.path, join(workspace, "MEMORY.md"));
    assert.equal(fromWorkspace.file?.text, "Project notes\n");
  });
});

Deno.test("a thread without a workspace, or whose workspace is the home, has one place", async () => {
  await withDirs((home) => {
    assert.deepEqual(memoryFileAccess({ home, workspace: null }).places, [
      { path: join(home, "MEMORY.md"), root: home },
    ]);
    assert.deepEqual(memoryFileAccess({ home, workspace: home }).places, [
      { path: join(home, "MEMORY.md"), root: home },
    ]);
    return Promise.resolve();
  });
});

Deno.test("a file over the limit is cut on a character boundary and says so", async () => {
  await withDirs(async (home, workspace) => {
    // 'é' is two bytes; the odd prefix puts a character across the limit.
    await Deno.writeTextFile(join(workspace, "MEMORY.md"), "a" + "é".repeat(1024));
    const found = await findMemoryFile(memoryFileAccess({ home, workspace }), options);
    assert.ok(found.file);
    assert.equal(found.file.truncated, true);
    assert.equal(found.file.bytes, 1023, "cut before the split character");
    assert.equal(found.file.fileBytes, 1 + 2048);
    assert.equal(found.file.text, "a" + "é".repeat(511));
  });
});

Deno.test("unusable files are skipped with a reason and the next place is tried", async () => {
  await withDirs(async (home, workspace, base) => {
    const access = memoryFileAccess({ home, workspace });
    await Deno.writeTextFile(join(home, "MEMORY.md"), "Home notes\n");
    const outside = join(base, "secret.txt");
    await Deno.writeTextFile(outside, "not for the model\n");
    const cases: Array<[string, () => Promise<void>, string]> = [
      ["a folder", () => Deno.mkdir(join(workspace, "MEMORY.md")), "not_a_file"],
      [
        "invalid UTF-8",
        () => Deno.writeFile(join(workspace, "MEMORY.md"), new Uint8Array([0x41, 0xff, 0x0a])),
        "invalid_utf8",
      ],
      [
        "a symlink out of the workspace",
        () => Deno.symlink(outside, join(workspace, "MEMORY.md")),
        "permission_denied",
      ],
    ];
    for (const [what, make, reason] of cases) {
      await make();
      const found = await findMemoryFile(access, options);
      assert.deepEqual(found.skipped, [{ path: join(workspace, "MEMORY.md"), reason }], what);
      assert.equal(found.file?.path, join(home, "MEMORY.md"), `${what}: the home's is used`);
      assert.equal(found.appendTo?.path, join(home, "MEMORY.md"), `${what}: never appended to`);
      await Deno.remove(join(workspace, "MEMORY.md"));
    }
    // A dangling link is as good as no file.
    await Deno.symlink(join(workspace, "gone.md"), join(workspace, "MEMORY.md"));
    const dangling = await findMemoryFile(access, options);
    assert.deepEqual(dangling.skipped, []);
    assert.equal(dangling.file?.path, join(home, "MEMORY.md"));
  });
});

Deno.test("a MEMORY.md that resolves to a protected file is skipped; all places skipped leaves no target", async () => {
  await withDirs(async (home) => {
    const config = join(home, "config.yaml");
    await Deno.writeTextFile(config, "apiKey: sk-abcdefgh\n");
    await Deno.symlink(config, join(home, "MEMORY.md"));
    const found = await findMemoryFile(memoryFileAccess({ home, workspace: null }), {
      ...options,
      protectedFiles: [config],
    });
    assert.deepEqual(found, {
      file: null,
      appendTo: null,
      skipped: [{ path: join(home, "MEMORY.md"), reason: "permission_denied" }],
    });
  });
});

Deno.test("findMemoryFile stops when its signal is aborted", async () => {
  await withDirs(async (home, workspace) => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(
      findMemoryFile(memoryFileAccess({ home, workspace }), {
        ...options,
        signal: controller.signal,
      }),
      /stop/,
    );
  });
});
