import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256 } from "./identity.ts";
import { INSTRUCTION_FILE_MAX_BYTES, loadInstructionFiles } from "./instructions.ts";

async function withDirs(fn: (home: string, workspace: string) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-instructions-" }));
  const home = join(dir, "home");
  const workspace = join(dir, "workspace");
  await Deno.mkdir(home);
  await Deno.mkdir(workspace);
  try {
    await fn(home, workspace);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("instruction files go in order: home AGENTS.md, USER.md, workspace AGENTS.md", async () => {
  await withDirs(async (home, workspace) => {
    await Deno.writeTextFile(join(workspace, "AGENTS.md"), "Use tabs in this repo.\n");
    await Deno.writeTextFile(join(home, "USER.md"), "I am Ana, I write Go.\n");
    await Deno.writeTextFile(join(home, "AGENTS.md"), "Always answer briefly.\n");
    const loaded = await loadInstructionFiles({ home, workspace });
    const order = ["Always answer briefly.", "I am Ana, I write Go.", "Use tabs in this repo."]
      .map((line) => loaded.text.indexOf(line));
    assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), loaded.text);
    assert.ok(loaded.text.includes(`## User instructions (${join(home, "AGENTS.md")})`));
    assert.ok(loaded.text.includes(`## About the user (${join(home, "USER.md")})`));
    assert.ok(loaded.text.includes(`## Workspace instructions (${join(workspace, "AGENTS.md")})`));
    assert.deepEqual(loaded.sources, [
      {
        path: join(home, "AGENTS.md"),
        bytes: 23,
        truncated: false,
        sha256: await sha256("Always answer briefly.\n"),
      },
      {
        path: join(home, "USER.md"),
        bytes: 22,
        truncated: false,
        sha256: await sha256("I am Ana, I write Go.\n"),
      },
      {
        path: join(workspace, "AGENTS.md"),
        bytes: 23,
        truncated: false,
        sha256: await sha256("Use tabs in this repo.\n"),
      },
    ]);
    assert.deepEqual(loaded.skipped, []);
  });
});

Deno.test("no instruction files gives no text and never throws", async () => {
  await withDirs(async (home) => {
    const loaded = await loadInstructionFiles({ home, workspace: join(home, "gone") });
    assert.deepEqual(loaded, { text: "", sources: [], skipped: [] });
  });
});

Deno.test("empty files add nothing; a workspace equal to the home reads AGENTS.md once", async () => {
  await withDirs(async (home) => {
    await Deno.writeTextFile(join(home, "AGENTS.md"), "Be kind.");
    await Deno.writeTextFile(join(home, "USER.md"), "  \n\t\n");
    const loaded = await loadInstructionFiles({ home, workspace: home });
    assert.deepEqual(loaded.sources.map((s) => s.path), [join(home, "AGENTS.md")]);
    assert.equal(loaded.text.split("Be kind.").length, 2, "AGENTS.md appears once");
    assert.ok(!loaded.text.includes("About the user"), "empty USER.md gets no heading");
  });
});

Deno.test("a file over 64 KiB is cut on a character boundary with a note", async () => {
  await withDirs(async (home, workspace) => {
    // 'é' is two bytes; an odd prefix puts a character across the 64 KiB line.
    const content = "a" + "é".repeat(INSTRUCTION_FILE_MAX_BYTES);
    await Deno.writeTextFile(join(workspace, "AGENTS.md"), content);
    const loaded = await loadInstructionFiles({ home, workspace });
    const [source] = loaded.sources;
    assert.equal(source.truncated, true);
    assert.equal(source.bytes, INSTRUCTION_FILE_MAX_BYTES - 1);
    const kept = "a" + "é".repeat((INSTRUCTION_FILE_MAX_BYTES - 2) / 2);
    assert.equal(source.sha256, await sha256(kept));
    assert.ok(loaded.text.includes(kept + "\n\n[This file is"), "cut text then the note");
    assert.ok(!loaded.text.includes("\uFFFD"), "no half character");
    const size = new TextEncoder().encode(content).byteLength.toLocaleString("en-US");
    assert.match(
      loaded.text,
      new RegExp(`This file is ${size} bytes; it was cut after the first 65,536 bytes`),
    );
  });
});

Deno.test("a file of exactly 64 KiB is not cut", async () => {
  await withDirs(async (home) => {
    await Deno.writeTextFile(join(home, "AGENTS.md"), "b".repeat(INSTRUCTION_FILE_MAX_BYTES));
    const [source] = (await loadInstructionFiles({ home })).sources;
    assert.equal(source.truncated, false);
    assert.equal(source.bytes, INSTRUCTION_FILE_MAX_BYTES);
  });
});

Deno.test("unreadable files and folders are skipped; the others still load", async () => {
  await withDirs(async (home, workspace) => {
    await Deno.mkdir(join(home, "AGENTS.md"));
    // A symlink loop cannot be read even by root (tests may run as root, so no chmod).
    await Deno.symlink(join(home, "USER.md"), join(home, "USER.md"));
    await Deno.writeTextFile(join(workspace, "AGENTS.md"), "Workspace rules");
    const loaded = await loadInstructionFiles({ home, workspace });
    assert.deepEqual(loaded.sources.map((s) => s.path), [join(workspace, "AGENTS.md")]);
    const skipped = Object.fromEntries(loaded.skipped.map((s) => [s.path, s.reason]));
    assert.equal(skipped[join(home, "AGENTS.md")], "not_a_file");
    assert.equal(skipped[join(home, "USER.md")], "unreadable");
    assert.ok(loaded.text.includes("Workspace rules"));
  });
});

Deno.test("loadInstructionFiles stops when its signal is aborted", async () => {
  await withDirs(async (home) => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(loadInstructionFiles({ home, signal: controller.signal }), /stop/);
  });
});
