import assert from "node:assert/strict";
import { join } from "node:path";
import { sweepAttachments, UNSENT_UPLOAD_KEEP_MS, UPLOAD_TEMP_KEEP_MS } from "./sweep.ts";
import { startRuntime } from "../runtime.ts";

const HASH_A = "a".repeat(64);
const HASH_B = "b".repeat(64);
const HASH_C = "c".repeat(64);
const UUID = "123e4567-e89b-42d3-a456-426614174000";

async function file(dir: string, name: string, ageMs: number, now: number): Promise<void> {
  const path = join(dir, name);
  await Deno.writeTextFile(path, name);
  const when = new Date(now - ageMs);
  await Deno.utime(path, when, when);
}

Deno.test("sweepAttachments removes old unsent uploads and old temp files only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_sweep_" });
  try {
    const now = Date.now();
    const old = UNSENT_UPLOAD_KEEP_MS + 60_000;
    await file(dir, `${HASH_A}.png`, old, now); // old, but a message names it
    await file(dir, `${HASH_B}.txt`, old, now); // old and unsent: removed
    await file(dir, `${HASH_C}.jpg`, 60_000, now); // unsent but recent: kept
    await file(dir, `${HASH_B}.png.${UUID}.tmp`, UPLOAD_TEMP_KEEP_MS + 60_000, now); // removed
    await file(dir, `${HASH_C}.png.${UUID}.tmp`, 60_000, now); // an upload in progress
    await file(dir, "notes.md", old, now); // not an upload: never touched
    await Deno.mkdir(join(dir, `${"d".repeat(64)}.png`)); // a folder, not a file
    const result = await sweepAttachments(dir, new Set([join(dir, `${HASH_A}.png`)]), now);
    assert.deepEqual(result, { unsent: [`${HASH_B}.txt`], temp: [`${HASH_B}.png.${UUID}.tmp`] });
    const left = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
    assert.deepEqual(
      left,
      [
        `${HASH_A}.png`,
        `${HASH_C}.jpg`,
        `${HASH_C}.png.${UUID}.tmp`,
        `${"d".repeat(64)}.png`,
        "notes.md",
      ].sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweepAttachments of a missing folder removes nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_sweep_" });
  await Deno.remove(dir);
  assert.deepEqual(await sweepAttachments(dir, new Set()), { unsent: [], temp: [] });
});

Deno.test("the runtime sweeps stale uploads when it starts, before it serves", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus_sweep_home_" });
  try {
    const now = Date.now();
    await Deno.mkdir(join(home, "attachments"), { recursive: true });
    await file(join(home, "attachments"), `${HASH_B}.txt`, UNSENT_UPLOAD_KEEP_MS + 60_000, now);
    await file(join(home, "attachments"), `${HASH_C}.txt`, 60_000, now);
    const runtime = await startRuntime({
      home,
      workspacesRoot: join(home, "ws"),
      port: 0,
      threadTitles: false,
      memoryRefinement: false,
    });
    try {
      const left = (await Array.fromAsync(Deno.readDir(join(home, "attachments"))))
        .map((e) => e.name);
      assert.deepEqual(left, [`${HASH_C}.txt`]);
    } finally {
      await runtime.shutdown();
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
