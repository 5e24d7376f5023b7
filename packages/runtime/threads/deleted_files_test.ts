import assert from "node:assert/strict";
import { join } from "node:path";
import { newId } from "@daedalus/protocol";
import {
  createThread,
  deleteThread,
  homePaths,
  isThreadDeleted,
  StateStore,
} from "@daedalus/storage";
import {
  deletionManifest,
  manifestPath,
  parseManifest,
  removeDeletedFiles,
  sweepDeletionManifests,
  threadFileDirs,
  writeManifestSync,
} from "./deleted_files.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** A home with a thread that has an artifact, a process log and an attachment. */
async function homeWithThread() {
  const home = await Deno.makeTempDir({ prefix: "daedalus_deleted_files_" });
  const paths = homePaths(home);
  const dirs = threadFileDirs(paths);
  const workspacesRoot = join(home, "workspaces");
  const store = StateStore.open(paths.stateDb);
  const { result } = await createThread(store, { workspacesRoot });
  const threadId = result.thread.id;
  const artifact = join(paths.artifacts, threadId, "call_1.txt");
  const log = join(paths.processes, threadId, "process_1.log");
  const attachment = join(paths.attachments, `${"d".repeat(64)}.txt`);
  const kept = join(paths.attachments, `${"e".repeat(64)}.txt`);
  const workspaceFile = join(result.thread.workspace!.rootUri!, "notes.md");
  for (const file of [artifact, log, attachment, kept, workspaceFile]) {
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, "x");
  }
  return {
    home,
    dirs,
    store,
    threadId,
    artifact,
    log,
    attachment,
    kept,
    workspaceFile,
    [Symbol.asyncDispose]: async () => {
      store.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("a crash after the deletion's commit: the next start removes the files", async () => {
  await using h = await homeWithThread();
  // The handler's order, stopped right after the commit (no removal yet).
  deleteThread(h.store, {
    threadId: h.threadId,
    clientRequestId: "delete-1",
    beforeCommit: () =>
      writeManifestSync(h.dirs, deletionManifest(h.dirs, h.threadId, [h.attachment])),
  });
  assert.ok(await exists(manifestPath(h.dirs, h.threadId)), "the manifest is written first");
  assert.ok(await exists(h.artifact), "nothing is removed before the sweep in this test");

  const swept = await sweepDeletionManifests(
    h.dirs,
    (id) => h.store.read((db) => isThreadDeleted(db, id)),
  );
  assert.deepEqual(swept.failed, []);
  assert.deepEqual(swept.skipped, []);
  assert.deepEqual(
    swept.removed.sort(),
    [
      join(h.dirs.artifacts, h.threadId),
      h.attachment,
      join(h.dirs.processes, h.threadId),
    ].sort(),
  );
  for (const gone of [h.artifact, h.log, h.attachment, manifestPath(h.dirs, h.threadId)]) {
    assert.equal(await exists(gone), false, `${gone} is left after the sweep`);
  }
  assert.ok(await exists(h.kept), "another thread's attachment must stay");
  assert.ok(await exists(h.workspaceFile), "a workspace file must never be removed");
  // A second start finds nothing to do.
  const again = await sweepDeletionManifests(h.dirs, () => true);
  assert.deepEqual([again.removed, again.dropped, again.skipped], [[], [], []]);
});

Deno.test("a manifest whose deletion never committed is dropped; the files stay", async () => {
  await using h = await homeWithThread();
  assert.throws(() =>
    deleteThread(h.store, {
      threadId: h.threadId,
      clientRequestId: "delete-1",
      beforeCommit: () => {
        writeManifestSync(h.dirs, deletionManifest(h.dirs, h.threadId, [h.attachment]));
        throw new Error("crash before the commit");
      },
    })
  );
  assert.equal(h.store.read((db) => isThreadDeleted(db, h.threadId)), false);
  // A cut-off temp file of another manifest goes too.
  await Deno.writeTextFile(join(h.dirs.manifests, `${newId("thread")}.json.tmp`), "{");
  const swept = await sweepDeletionManifests(
    h.dirs,
    (id) => h.store.read((db) => isThreadDeleted(db, id)),
  );
  assert.deepEqual(swept.dropped, [h.threadId]);
  assert.deepEqual(swept.removed, []);
  for (const kept of [h.artifact, h.log, h.attachment]) {
    assert.ok(await exists(kept), `${kept} of a thread that still exists was removed`);
  }
  assert.deepEqual(await Array.fromAsync(Deno.readDir(h.dirs.manifests)), []);
});

Deno.test("removeDeletedFiles keeps the manifest while a file cannot be removed", async () => {
  await using h = await homeWithThread();
  const manifest = deletionManifest(h.dirs, h.threadId, [h.attachment]);
  writeManifestSync(h.dirs, manifest);
  // A folder the removal cannot enter: its parent is read-only.
  await Deno.chmod(join(h.dirs.artifacts, h.threadId), 0o500);
  try {
    const outcome = await removeDeletedFiles(h.dirs, manifest);
    if (Deno.uid() === 0) return; // root ignores permissions; nothing to show here
    assert.equal(outcome.failed.length, 1, "the artifact folder cannot be removed");
    assert.ok(await exists(manifestPath(h.dirs, h.threadId)), "the manifest must stay");
  } finally {
    await Deno.chmod(join(h.dirs.artifacts, h.threadId), 0o700).catch(() => {});
  }
  const retry = await removeDeletedFiles(h.dirs, manifest);
  assert.deepEqual(retry.failed, []);
  assert.equal(await exists(manifestPath(h.dirs, h.threadId)), false);
});

Deno.test("parseManifest acts only on the thread's own folders and attachment files", () => {
  const dirs = threadFileDirs(homePaths("/h"));
  const id = newId("thread");
  const ok = (paths: string[]) => JSON.stringify({ threadId: id, paths });
  const table: [string, string, unknown][] = [
    [
      "the usual manifest",
      ok([`/h/artifacts/${id}`, `/h/processes/${id}`, "/h/attachments/a.txt"]),
      {
        threadId: id,
        paths: [`/h/artifacts/${id}`, `/h/processes/${id}`, "/h/attachments/a.txt"],
      },
    ],
    ["no paths", ok([]), { threadId: id, paths: [] }],
    ["not JSON", "{", "manifest_invalid"],
    ["not an object", "[]", "manifest_invalid"],
    [
      "another thread's id",
      JSON.stringify({ threadId: newId("thread"), paths: [] }),
      "manifest_invalid",
    ],
    ["paths not strings", JSON.stringify({ threadId: id, paths: [1] }), "manifest_invalid"],
    ["the whole artifacts folder", ok(["/h/artifacts"]), "path_outside_home"],
    ["another thread's artifacts", ok([`/h/artifacts/${newId("thread")}`]), "path_outside_home"],
    ["the attachments folder itself", ok(["/h/attachments"]), "path_outside_home"],
    ["below an attachment", ok(["/h/attachments/x/y.txt"]), "path_outside_home"],
    ["a workspace file", ok(["/home/me/Documents/Daedalus/notes.md"]), "path_outside_home"],
    ["a relative path", ok(["attachments/a.txt"]), "path_outside_home"],
    ["a path with ..", ok([`/h/artifacts/${id}/../../state.db`]), "path_outside_home"],
  ];
  for (const [name, text, expected] of table) {
    assert.deepEqual(parseManifest(dirs, text, id), expected, name);
  }
});

Deno.test("deletionManifest refuses a value that is not a thread id", () => {
  const dirs = threadFileDirs(homePaths("/h"));
  assert.throws(() => deletionManifest(dirs, "../state.db", []), TypeError);
  const id = newId("thread");
  assert.deepEqual(deletionManifest(dirs, id, ["/h/attachments/a.txt"]).paths, [
    `/h/artifacts/${id}`,
    `/h/processes/${id}`,
    "/h/attachments/a.txt",
  ]);
});
