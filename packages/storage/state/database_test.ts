import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { checkpoint, foreignKeyCheck, openStateDatabase, quickCheck } from "./database.ts";
import {
  STATE_SCHEMA_INCOMPATIBLE_MESSAGE,
  StateDatabaseNotFoundError,
  StateDatabaseOpenError,
  StateSchemaIncompatibleError,
  StateTransactionError,
} from "./errors.ts";
import { createStateSchema, describeStateSchemaDrift, STATE_SCHEMA_VERSION } from "./schema.ts";

interface TempHome extends AsyncDisposable {
  dir: string;
  path: string;
}

/** A temp directory holding `state.db`'s path; removed when the test's scope ends. */
async function tempHome(): Promise<TempHome> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_state_" });
  return {
    dir,
    path: `${dir}/state.db`,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}

function appendEvent(db: DatabaseSync, type: string, runId: string | null): void {
  db.prepare(
    `INSERT INTO events (schema_version, event_type, thread_id, run_id, created_at, payload_json)
     VALUES (1, ?, 'thr_1', ?, '2026-11-29T00:00:00.000Z', '{}')`,
  ).run(type, runId);
}

function countEvents(db: DatabaseSync): number {
  const n = db.prepare("SELECT count(*) AS n FROM events").get()?.n;
  assert.equal(typeof n, "number");
  return Number(n);
}

function pragma(db: DatabaseSync, name: string): unknown {
  const row = db.prepare(`PRAGMA ${name}`).get();
  return row === undefined ? undefined : Object.values(row)[0];
}

/** A compatible state.db at `path`, changed afterwards through a raw connection. */
function createDrifted(path: string, mutate: (raw: DatabaseSync) => void): void {
  openStateDatabase(path).close();
  const raw = new DatabaseSync(path);
  mutate(raw);
  raw.close();
}

Deno.test("an empty file gets the schema, user_version and WAL pragmas", async () => {
  await using home = await tempHome();
  const path = home.path;
  await Deno.writeFile(path, new Uint8Array());
  const db = openStateDatabase(path);
  try {
    const c = db.connection;
    assert.equal(pragma(c, "user_version"), STATE_SCHEMA_VERSION);
    assert.equal(pragma(c, "journal_mode"), "wal");
    assert.equal(pragma(c, "foreign_keys"), 1);
    assert.equal(pragma(c, "synchronous"), 1, "synchronous should be NORMAL (1)");
    assert.equal(pragma(c, "busy_timeout"), 5000);
    const tables = c.prepare(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'",
    ).get()?.n;
    // 14 tables, the message search index and its 5 FTS5 shadow tables.
    assert.equal(tables, 20);
    assert.deepEqual(quickCheck(db), []);
    assert.deepEqual(foreignKeyCheck(db), []);
  } finally {
    db.close();
  }
});

Deno.test("walAutocheckpointPages sets the WAL's commit checkpoint threshold; SQLite's default otherwise", async () => {
  await using home = await tempHome();
  const plain = openStateDatabase(home.path);
  try {
    assert.equal(pragma(plain.connection, "wal_autocheckpoint"), 1000);
  } finally {
    plain.close();
  }
  const raised = openStateDatabase(home.path, { walAutocheckpointPages: 4000 });
  try {
    assert.equal(pragma(raised.connection, "wal_autocheckpoint"), 4000);
  } finally {
    raised.close();
  }
  assert.throws(
    () => openStateDatabase(home.path, { walAutocheckpointPages: -1 }),
    /walAutocheckpointPages must be a whole number/,
  );
});

Deno.test("a missing file is created, reopened with its rows, and foreign keys hold", async () => {
  await using home = await tempHome();
  const path = home.path;
  const first = openStateDatabase(path);
  first.transaction(() => appendEvent(first.connection, "thread.created", null));
  assert.throws(
    () =>
      first.connection.exec(
        "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES ('b', 'missing', 'now', 1)",
      ),
    /FOREIGN KEY constraint failed/,
  );
  first.close();
  first.close();
  assert.equal(first.isOpen, false);

  const second = openStateDatabase(path, { create: false });
  try {
    assert.equal(countEvents(second.connection), 1);
    assert.equal(pragma(second.connection, "foreign_keys"), 1);
  } finally {
    second.close();
  }
});

Deno.test("create: false and readOnly refuse a missing file without creating it", async () => {
  await using home = await tempHome();
  const path = home.path;
  for (const options of [{ create: false }, { readOnly: true }]) {
    assert.throws(
      () => openStateDatabase(path, options),
      (error) =>
        error instanceof StateDatabaseNotFoundError && error.code === "state_database_not_found",
    );
  }
  assert.deepEqual(await listDir(home.dir), []);
});

Deno.test("readOnly opens an existing database for reading only", async () => {
  await using home = await tempHome();
  const path = home.path;
  const writer = openStateDatabase(path);
  writer.transaction(() => appendEvent(writer.connection, "thread.created", null));
  writer.close();

  const reader = openStateDatabase(path, { readOnly: true });
  try {
    assert.equal(reader.transaction(() => countEvents(reader.connection)), 1);
    assert.throws(() => appendEvent(reader.connection, "x", null), /readonly/);
  } finally {
    reader.close();
  }
});

const DRIFTS: { name: string; mutate: (raw: DatabaseSync) => void; difference: string }[] = [
  {
    name: "an extra table",
    mutate: (raw) => raw.exec("CREATE TABLE foo (id TEXT)"),
    difference: "unexpected table foo",
  },
  {
    name: "a dropped index",
    mutate: (raw) => raw.exec("DROP INDEX threads_active_catalog_order_idx"),
    difference: "missing index threads_active_catalog_order_idx",
  },
  {
    name: "a changed index",
    mutate: (raw) =>
      raw.exec(
        "DROP INDEX items_turn_context_idx; CREATE INDEX items_turn_context_idx ON items(turn_id)",
      ),
    difference: "changed index items_turn_context_idx",
  },
  {
    name: "a changed table",
    mutate: (raw) => raw.exec("ALTER TABLE items ADD COLUMN extra TEXT"),
    difference: "changed table items",
  },
  {
    name: "an older user_version",
    mutate: (raw) => raw.exec("PRAGMA user_version = 0"),
    difference: `version 0, expected ${STATE_SCHEMA_VERSION}`,
  },
  {
    name: "a newer user_version",
    mutate: (raw) => raw.exec(`PRAGMA user_version = ${STATE_SCHEMA_VERSION + 1}`),
    difference: `version ${STATE_SCHEMA_VERSION + 1}, expected ${STATE_SCHEMA_VERSION}`,
  },
  {
    name: "a rollback-journal file with a newer version",
    mutate: (raw) =>
      raw.exec(`PRAGMA journal_mode = DELETE; PRAGMA user_version = ${STATE_SCHEMA_VERSION + 2}`),
    difference: `version ${STATE_SCHEMA_VERSION + 2}, expected ${STATE_SCHEMA_VERSION}`,
  },
];

for (const drift of DRIFTS) {
  Deno.test(`${drift.name} is refused and the file is left unchanged`, async () => {
    await using home = await tempHome();
    const path = home.path;
    createDrifted(path, drift.mutate);
    const hashBefore = await sha256(path);
    const filesBefore = await listDir(home.dir);

    assert.throws(
      () => openStateDatabase(path),
      (error) => {
        assert.ok(error instanceof StateSchemaIncompatibleError, `wrong error: ${error}`);
        assert.equal(error.code, "state_schema_incompatible");
        assert.ok(
          error.message.startsWith(`${STATE_SCHEMA_INCOMPATIBLE_MESSAGE}: `),
          `message lacks the prefix: ${error.message}`,
        );
        assert.ok(error.message.includes(drift.difference), `message: ${error.message}`);
        assert.deepEqual(error.differences, [drift.difference]);
        return true;
      },
    );
    assert.equal(await sha256(path), hashBefore, "a refused file must not be written");
    assert.deepEqual(await listDir(home.dir), filesBefore);
  });
}

Deno.test("a foreign non-WAL database is refused untouched with a capped message", async () => {
  await using home = await tempHome();
  const path = home.path;
  const raw = new DatabaseSync(path);
  raw.exec(
    "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT); INSERT INTO notes VALUES ('a', 'b')",
  );
  raw.close();
  const hashBefore = await sha256(path);

  assert.throws(
    () => openStateDatabase(path),
    (error) => {
      assert.ok(error instanceof StateSchemaIncompatibleError);
      assert.equal(error.differences[0], `version 0, expected ${STATE_SCHEMA_VERSION}`);
      assert.ok(error.differences.includes("unexpected table notes"));
      assert.match(error.message, /; and \d+ more$/);
      return true;
    },
  );
  assert.equal(await sha256(path), hashBefore);
  const reopened = new DatabaseSync(path, { readOnly: true });
  assert.equal(pragma(reopened, "journal_mode"), "delete", "journal mode must not be switched");
  reopened.close();
});

Deno.test("a file that is not SQLite is refused untouched with an open error", async () => {
  await using home = await tempHome();
  const path = home.path;
  await Deno.writeTextFile(path, "not a database ".repeat(64));
  const hashBefore = await sha256(path);
  assert.throws(
    () => openStateDatabase(path),
    (error) =>
      error instanceof StateDatabaseOpenError && error.code === "state_database_open_failed",
  );
  assert.equal(await sha256(path), hashBefore);
});

Deno.test("the journal keeps one run.settled per run and any number of other events", async () => {
  await using home = await tempHome();
  const db = openStateDatabase(home.path);
  try {
    const c = db.connection;
    appendEvent(c, "run.state_changed", "run_1");
    appendEvent(c, "run.state_changed", "run_1");
    appendEvent(c, "run.settled", "run_1");
    appendEvent(c, "item.delta", "run_1");
    appendEvent(c, "run.settled", "run_2");
    assert.throws(() => appendEvent(c, "run.settled", "run_1"), /UNIQUE constraint failed/);
    assert.equal(countEvents(c), 5);
  } finally {
    db.close();
  }
});

Deno.test("transaction commits, rolls back on throw and rethrows the same error", async () => {
  await using home = await tempHome();
  const db = openStateDatabase(home.path);
  try {
    const result = db.transaction(() => {
      assert.equal(db.inTransaction, true);
      assert.equal(db.connection.isTransaction, true);
      appendEvent(db.connection, "thread.created", null);
      return "done";
    });
    assert.equal(result, "done");
    const failure = new Error("boom");
    assert.throws(
      () =>
        db.transaction(() => {
          appendEvent(db.connection, "thread.renamed", null);
          throw failure;
        }),
      (error) => error === failure,
    );
    assert.equal(countEvents(db.connection), 1, "the failed transaction must leave no row");
    assert.equal(db.inTransaction, false);
    assert.equal(db.connection.isTransaction, false);
  } finally {
    db.close();
  }
});

Deno.test("a nested transaction joins the outer one and can fail on its own", async () => {
  await using home = await tempHome();
  const db = openStateDatabase(home.path);
  try {
    db.transaction(() => {
      appendEvent(db.connection, "outer.before", null);
      db.transaction(() => appendEvent(db.connection, "inner.kept", null));
      assert.throws(() =>
        db.transaction(() => {
          appendEvent(db.connection, "inner.undone", null);
          throw new Error("inner failure");
        })
      );
      assert.equal(db.inTransaction, true, "the outer transaction must still be open");
      appendEvent(db.connection, "outer.after", null);
    });
    const types = db.connection.prepare("SELECT event_type FROM events ORDER BY seq").all()
      .map((row) => row.event_type);
    assert.deepEqual(types, ["outer.before", "inner.kept", "outer.after"]);

    assert.throws(() =>
      db.transaction(() => {
        db.transaction(() => appendEvent(db.connection, "inner.committed.then.undone", null));
        throw new Error("outer failure");
      })
    );
    assert.equal(countEvents(db.connection), 3, "an outer rollback undoes nested work too");
  } finally {
    db.close();
  }
});

Deno.test("transaction takes the write lock at BEGIN and refuses async callbacks", async () => {
  await using home = await tempHome();
  const path = home.path;
  const db = openStateDatabase(path);
  const other = new DatabaseSync(path);
  try {
    other.exec("PRAGMA busy_timeout = 0");
    db.transaction(() => {
      assert.throws(() => other.exec("BEGIN IMMEDIATE"), /database is locked/);
    });
    assert.throws(
      () =>
        db.transaction(() => {
          appendEvent(db.connection, "thread.created", null);
          return Promise.resolve(1);
        }),
      (error) => error instanceof StateTransactionError && error.code === "state_transaction_async",
    );
    assert.equal(countEvents(db.connection), 0);
    assert.equal(db.connection.isTransaction, false);
  } finally {
    other.close();
    db.close();
  }
});

Deno.test("foreignKeyCheck reports orphans and checkpoint TRUNCATE empties the WAL", async () => {
  await using home = await tempHome();
  const path = home.path;
  const db = openStateDatabase(path);
  try {
    db.connection.exec("PRAGMA foreign_keys = OFF");
    db.connection.exec(
      "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES ('brn_1', 'thr_gone', 'now', 1)",
    );
    db.connection.exec("PRAGMA foreign_keys = ON");
    assert.deepEqual(foreignKeyCheck(db), [
      { table: "branches", rowid: 1, parent: "threads", foreignKeyId: 0 },
    ]);
    assert.ok((await Deno.stat(`${path}-wal`)).size > 0, "writes should sit in the WAL");
    const result = checkpoint(db, "TRUNCATE");
    assert.equal(result.busy, false);
    assert.equal((await Deno.stat(`${path}-wal`)).size, 0);
    assert.deepEqual(quickCheck(db), []);
  } finally {
    db.close();
  }
});

/** A state.db at `path` as `version` wrote it, with one settled run. */
function createOlderVersion(path: string, version: number): void {
  const raw = new DatabaseSync(path);
  raw.exec("PRAGMA journal_mode = WAL");
  createStateSchema(raw, version);
  const now = "2026-11-29T00:00:00.000Z";
  raw.exec(`INSERT INTO threads (id, default_branch_id, created_at, updated_at)
              VALUES ('thr_1', 'brn_1', '${now}', '${now}');
            INSERT INTO branches (id, thread_id, created_at, is_default)
              VALUES ('brn_1', 'thr_1', '${now}', 1);
            INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at)
              VALUES ('trn_1', 'thr_1', 'brn_1', 1, 'failed', '${now}', '${now}');
            INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at, reason_code)
              VALUES ('run_1', 'trn_1', 'deepseek', 'deepseek-chat', 'failed', '${now}',
                      'provider_authentication');`);
  appendEvent(raw, "run.settled", "run_1");
  raw.close();
}

for (const version of [1, 2]) {
  // Their journals hold whole run configs in the queued events, which version 3's
  // projections (parts by reference) cannot replay: a reset, not a migration.
  Deno.test(`a version-${version} file is refused as needing a reset and left untouched`, async () => {
    await using home = await tempHome();
    createOlderVersion(home.path, version);
    const hashBefore = await sha256(home.path);
    assert.throws(
      () => openStateDatabase(home.path),
      (error) =>
        error instanceof StateSchemaIncompatibleError &&
        error.message.startsWith(STATE_SCHEMA_INCOMPATIBLE_MESSAGE) &&
        error.differences.includes(`version ${version}, expected ${STATE_SCHEMA_VERSION}`),
    );
    assert.equal(await sha256(home.path), hashBefore, "a refused file must not be written");
  });
}

Deno.test("a version-8 file is migrated to 9 on open: its threads keep their rows, without a source", async () => {
  await using home = await tempHome();
  createOlderVersion(home.path, 8);
  const db = openStateDatabase(home.path);
  try {
    assert.equal(pragma(db.connection, "user_version"), STATE_SCHEMA_VERSION);
    assert.deepEqual(describeStateSchemaDrift(db.connection, STATE_SCHEMA_VERSION), []);
    const row = db.connection.prepare("SELECT id, source_json FROM threads").get();
    assert.deepEqual(
      { ...row },
      { id: "thr_1", source_json: null },
      "the thread written by version 8 must survive the migration, as the owner's",
    );
  } finally {
    db.close();
  }
});

Deno.test("a version-4 file is migrated forward on open: fallback columns added, null", async () => {
  await using home = await tempHome();
  createOlderVersion(home.path, 4);
  const db = openStateDatabase(home.path);
  try {
    assert.equal(pragma(db.connection, "user_version"), STATE_SCHEMA_VERSION);
    assert.deepEqual(describeStateSchemaDrift(db.connection, STATE_SCHEMA_VERSION), []);
    const row = db.connection.prepare(
      "SELECT status, fallback_provider_id, fallback_model_id FROM runs WHERE id = 'run_1'",
    ).get();
    assert.deepEqual(
      { ...row },
      { status: "failed", fallback_provider_id: null, fallback_model_id: null },
      "the run written by version 4 must survive the migration, without a fallback",
    );
  } finally {
    db.close();
  }
});

Deno.test("a version-3 file is migrated forward on open: approvals added, its rows kept", async () => {
  await using home = await tempHome();
  createOlderVersion(home.path, 3);
  const db = openStateDatabase(home.path);
  try {
    assert.equal(pragma(db.connection, "user_version"), STATE_SCHEMA_VERSION);
    assert.deepEqual(describeStateSchemaDrift(db.connection, STATE_SCHEMA_VERSION), []);
    assert.equal(db.connection.prepare("SELECT count(*) AS n FROM approvals").get()?.n, 0);
    assert.equal(
      db.connection.prepare("SELECT status FROM runs WHERE id = 'run_1'").get()?.status,
      "failed",
      "the run written by version 3 must survive the migration",
    );
  } finally {
    db.close();
  }
});
