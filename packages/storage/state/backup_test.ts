import assert from "node:assert/strict";
import { backupStateDatabase } from "./backup.ts";
import { openStateDatabase, type StateDatabase } from "./database.ts";
import { StateBackupError, StateBackupExistsError } from "./errors.ts";

interface TempHome extends AsyncDisposable {
  dir: string;
  db: StateDatabase;
}

/** A temp directory with an open state.db; both go away when the test's scope ends. */
async function tempHome(): Promise<TempHome> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_backup_" });
  const db = openStateDatabase(`${dir}/state.db`);
  return {
    dir,
    db,
    [Symbol.asyncDispose]: async () => {
      db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function appendEvents(db: StateDatabase, count: number): void {
  const insert = db.connection.prepare(
    `INSERT INTO events (schema_version, event_type, thread_id, created_at, payload_json)
     VALUES (1, 'thread.renamed', 'thr_1', '2026-11-29T00:00:00.000Z', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(JSON.stringify({ i }));
  });
}

async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}

Deno.test("a backup holds committed rows still in the WAL and opens as a state.db", async () => {
  await using home = await tempHome();
  appendEvents(home.db, 50);
  const walBytes = (await Deno.stat(`${home.dir}/state.db-wal`)).size;
  assert.ok(walBytes > 0, "the rows should not be checkpointed yet");

  const output = `${home.dir}/backups/nested/state-copy.db`;
  const result = await backupStateDatabase(home.db, output);

  assert.equal(result.path, output);
  assert.ok(result.pages > 0, `pages: ${result.pages}`);
  assert.equal(result.bytes, (await Deno.stat(output)).size);
  assert.deepEqual(await listDir(`${home.dir}/backups/nested`), ["state-copy.db"]);

  const copy = openStateDatabase(output, { create: false });
  try {
    const row = copy.connection.prepare("SELECT count(*) AS n FROM events").get();
    assert.equal(row?.n, 50, "the copy must include the WAL's committed rows");
  } finally {
    copy.close();
  }
  appendEvents(home.db, 1);
});

Deno.test("a backup refuses to overwrite an existing file and leaves it as it was", async () => {
  await using home = await tempHome();
  appendEvents(home.db, 3);
  const output = `${home.dir}/existing.db`;
  await Deno.writeTextFile(output, "keep me");

  await assert.rejects(
    () => backupStateDatabase(home.db, output),
    (error) => {
      assert.ok(error instanceof StateBackupExistsError, `wrong error: ${error}`);
      assert.equal(error.code, "backup_exists");
      return true;
    },
  );
  assert.equal(await Deno.readTextFile(output), "keep me");
  assert.deepEqual(await listDir(home.dir), [
    "existing.db",
    "state.db",
    "state.db-shm",
    "state.db-wal",
  ]);
});

Deno.test("an aborted backup writes nothing", async () => {
  await using home = await tempHome();
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  await assert.rejects(
    () => backupStateDatabase(home.db, `${home.dir}/out/b.db`, { signal: controller.signal }),
    /stop/,
  );
  await assert.rejects(() => Deno.stat(`${home.dir}/out`), Deno.errors.NotFound);
});

Deno.test("a backup that cannot create its directory fails with backup_failed", async () => {
  await using home = await tempHome();
  await Deno.writeTextFile(`${home.dir}/blocker`, "a file, not a directory");
  await assert.rejects(
    () => backupStateDatabase(home.db, `${home.dir}/blocker/b.db`),
    (error) => error instanceof StateBackupError && error.code === "backup_failed",
  );
  assert.equal(await Deno.readTextFile(`${home.dir}/blocker`), "a file, not a directory");
});
