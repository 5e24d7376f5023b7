import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openMemoryDatabase } from "./database.ts";
import { MEMORY_SCHEMA_INCOMPATIBLE_MESSAGE, MemorySchemaIncompatibleError } from "./errors.ts";
import { MEMORY_SCHEMA_VERSION } from "./schema.ts";

async function withDir(fn: (dir: string) => Promise<void> | void) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-memory-db-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a new memory.db gets the schema, WAL, NORMAL, foreign keys and secure delete", async () => {
  await withDir((dir) => {
    const db = openMemoryDatabase(`${dir}/memory.db`);
    try {
      const one = (sql: string) => Object.values(db.connection.prepare(sql).get() ?? {})[0];
      assert.equal(one("PRAGMA journal_mode"), "wal");
      assert.equal(one("PRAGMA synchronous"), 1);
      assert.equal(one("PRAGMA foreign_keys"), 1);
      assert.equal(one("PRAGMA secure_delete"), 1);
      assert.equal(one("PRAGMA user_version"), MEMORY_SCHEMA_VERSION);
      const names = db.connection.prepare(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name",
      ).all().map((row) => row.name);
      for (
        const name of [
          "memory_records",
          "memory_revisions",
          "memory_operations",
          "memory_extraction_cursors",
          "memory_fts",
          "memory_records_state_order_idx",
          "memory_records_scope_order_idx",
          "memory_records_scope_kind_order_idx",
        ]
      ) assert.ok(names.includes(name), `missing ${name}`);
    } finally {
      db.close();
    }
    openMemoryDatabase(`${dir}/memory.db`).close();
  });
});

Deno.test("a drifted memory.db is refused with the restore message and left untouched", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/memory.db`;
    openMemoryDatabase(path).close();
    const raw = new DatabaseSync(path);
    raw.exec("DROP INDEX memory_records_scope_kind_order_idx");
    raw.exec("CREATE TABLE extra (x)");
    raw.close();
    const before = await Deno.readFile(path);
    assert.throws(() => openMemoryDatabase(path), (error: unknown) => {
      assert.ok(error instanceof MemorySchemaIncompatibleError);
      assert.ok(error.message.startsWith(MEMORY_SCHEMA_INCOMPATIBLE_MESSAGE), error.message);
      assert.ok(
        error.message.startsWith(
          "memory database schema is incompatible; restore a compatible backup",
        ),
      );
      assert.deepEqual([...error.differences].sort(), [
        "missing index memory_records_scope_kind_order_idx",
        "unexpected table extra",
      ]);
      return true;
    });
    assert.deepEqual(await Deno.readFile(path), before, "the refused file changed");
  });
});

Deno.test("a changed FTS definition or another user_version is drift", async () => {
  await withDir((dir) => {
    const path = `${dir}/memory.db`;
    openMemoryDatabase(path).close();
    const raw = new DatabaseSync(path);
    raw.exec("DROP TABLE memory_fts");
    raw.exec("CREATE VIRTUAL TABLE memory_fts USING fts5(memory_id UNINDEXED, tokens)");
    raw.exec("PRAGMA user_version = 7");
    raw.close();
    assert.throws(() => openMemoryDatabase(path), (error: unknown) => {
      assert.ok(error instanceof MemorySchemaIncompatibleError);
      assert.deepEqual(error.differences, [
        `version 7, expected ${MEMORY_SCHEMA_VERSION}`,
        "changed table memory_fts",
      ]);
      return true;
    });
  });
});

Deno.test("revision and cursor constraints hold in SQL", () => {
  const db = openMemoryDatabase(":memory:");
  try {
    const c = db.connection;
    assert.throws(() =>
      c.prepare(
        `INSERT INTO memory_extraction_cursors (thread_id, last_turn_ordinal) VALUES ('t', 1)`,
      ).run()
    );
    c.prepare(
      `INSERT INTO memory_extraction_cursors (thread_id, last_turn_ordinal, last_run_created_at,
         last_run_id, last_item_ordinal, last_item_id, attempted_at, extracted_at)
       VALUES ('t', 1, 'x', 'run', 2, 'item', 'a', NULL)`,
    ).run();
    db.transaction(() => {
      c.exec(`INSERT INTO memory_records VALUES
        ('m', 'fact', 'global', NULL, 1, 'active', 'a', 'a', NULL)`);
      // auto_extracted follows the session_item rule: all source fields, a digest on create.
      assert.throws(() =>
        c.exec(`INSERT INTO memory_revisions VALUES
          ('m', 1, 'create', 'x', 'd', NULL, 'auto_extracted', 't', 'u', 'i', NULL, 'a')`)
      );
      c.exec(`INSERT INTO memory_revisions VALUES
        ('m', 1, 'create', 'x', 'd', NULL, 'auto_extracted', 't', 'u', 'i', 'dig', 'a')`);
    });
  } finally {
    db.close();
  }
});
