import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { readSchemaObjects } from "./_sqlite.ts";
import {
  createStateSchema,
  describeStateSchemaDrift,
  expectedStateSchemaObjects,
  migrateStateSchema,
  STATE_SCHEMA_STATEMENTS,
  STATE_SCHEMA_VERSION,
} from "./schema.ts";

const TABLES = [
  "approvals",
  "branches",
  "context_revisions",
  "events",
  "file_changes",
  "items",
  "message_search",
  "message_search_config",
  "message_search_content",
  "message_search_data",
  "message_search_docsize",
  "message_search_idx",
  "model_calls",
  "model_usages",
  "process_sessions",
  "run_config_parts",
  "run_configs",
  "runs",
  "threads",
  "turns",
];

const INDEXES = [
  "approvals_run_pending_idx",
  "approvals_thread_idx",
  "branches_client_request_id_idx",
  "branches_default_thread_idx",
  "events_one_settled_per_run",
  "events_run_seq_idx",
  "events_thread_compacted_idx",
  "events_thread_seq_idx",
  "items_turn_context_idx",
  "model_calls_execution_step_idx",
  "model_usages_activity_date_idx",
  "model_usages_completed_at_idx",
  "runs_client_request_id_idx",
  "runs_turn_history_idx",
  "threads_active_catalog_order_idx",
  "threads_archived_catalog_order_idx",
  "threads_client_request_id_idx",
  "turns_parent_idx",
];

function freshSchema(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  createStateSchema(db);
  return db;
}

function namesOf(db: DatabaseSync, type: string): string[] {
  return readSchemaObjects(db).filter((o) => o.type === type).map((o) => o.name).sort();
}

/** Inserts thread → branch → turn → run, the parents every other projection needs. */
function seedRun(db: DatabaseSync): void {
  const now = "2026-11-29T00:00:00.000Z";
  db.prepare(
    "INSERT INTO threads (id, default_branch_id, created_at, updated_at) VALUES (?, ?, ?, ?)",
  ).run("thr_1", "brn_1", now, now);
  db.prepare("INSERT INTO branches (id, thread_id, created_at, is_default) VALUES (?, ?, ?, 1)")
    .run("brn_1", "thr_1", now);
  db.prepare(
    "INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at) VALUES (?, ?, ?, 1, 'queued', ?, ?)",
  ).run("trn_1", "thr_1", "brn_1", now, now);
  db.prepare(
    "INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at) VALUES (?, ?, 'deepseek', 'deepseek-chat', 'queued', ?)",
  ).run("run_1", "trn_1", now);
}

Deno.test("the schema creates exactly the seed's 12 tables, run_config_parts, approvals, the search index and 18 indexes", () => {
  const db = freshSchema();
  try {
    assert.equal(STATE_SCHEMA_VERSION, 10);
    // run_config_parts comes from migration 3 and approvals (with its 2 indexes) from
    // migration 4, two indexes from migration 7 (branches) and the search index with its
    // 5 shadow tables from migration 8 and one index from migration 10, not the version-1 DDL.
    assert.equal(STATE_SCHEMA_STATEMENTS.length, TABLES.length - 2 - 6 + INDEXES.length - 5);
    assert.deepEqual(namesOf(db, "table"), TABLES);
    assert.deepEqual(namesOf(db, "index"), INDEXES);
    assert.equal(db.prepare("PRAGMA user_version").get()?.user_version, STATE_SCHEMA_VERSION);
  } finally {
    db.close();
  }
});

Deno.test("a fresh schema shows no drift and the expected objects are cached", () => {
  const db = freshSchema();
  try {
    assert.deepEqual(describeStateSchemaDrift(db, STATE_SCHEMA_VERSION), []);
    assert.equal(expectedStateSchemaObjects(), expectedStateSchemaObjects());
  } finally {
    db.close();
  }
});

Deno.test("reformatted whitespace in the DDL is not drift", () => {
  const db = new DatabaseSync(":memory:");
  try {
    for (const statement of STATE_SCHEMA_STATEMENTS) {
      db.exec(statement.replace(/\s+/g, "\n\t  "));
    }
    migrateStateSchema(db, 1, STATE_SCHEMA_VERSION);
    assert.deepEqual(describeStateSchemaDrift(db, STATE_SCHEMA_VERSION), []);
  } finally {
    db.close();
  }
});

Deno.test("drift names the version and each missing, unexpected and changed object", () => {
  const db = freshSchema();
  try {
    db.exec("DROP INDEX runs_turn_history_idx");
    db.exec("CREATE TABLE notes (id TEXT)");
    db.exec("ALTER TABLE items ADD COLUMN extra TEXT");
    assert.deepEqual(describeStateSchemaDrift(db, 11), [
      "version 11, expected 10",
      "changed table items",
      "missing index runs_turn_history_idx",
      "unexpected table notes",
    ]);
  } finally {
    db.close();
  }
});

Deno.test("model_calls CHECKs tie step_ordinal to purpose and usage to completion", () => {
  const db = freshSchema();
  try {
    seedRun(db);
    const insert = db.prepare(
      `INSERT INTO model_calls (run_id, call_ordinal, step_ordinal, input_json, prepared_at,
         purpose, outcome, reason_code, usage_json, activity_date, finished_at)
       VALUES ('run_1', ?, ?, '{}', 'now', ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(1, 1, "execution", null, null, null, null, null);
    insert.run(2, null, "compression", "completed", null, "{}", "2026-11-29", "later");
    insert.run(3, 2, "execution", "failed", "provider_error", null, null, "later");
    assert.throws(
      () => insert.run(4, null, "execution", null, null, null, null, null),
      /CHECK constraint failed/,
      "an execution call without step_ordinal must be refused",
    );
    assert.throws(
      () => insert.run(5, 1, "completion_check", null, null, null, null, null),
      /CHECK constraint failed/,
      "a completion check with a step_ordinal must be refused",
    );
    assert.throws(
      () => insert.run(6, 3, "execution", "failed", "x", "{}", "2026-11-29", "later"),
      /CHECK constraint failed/,
      "usage on a failed call must be refused",
    );
    assert.throws(
      () => insert.run(7, 1, "execution", null, null, null, null, null),
      /UNIQUE constraint failed/,
      "two execution calls for one step must be refused",
    );
  } finally {
    db.close();
  }
});

Deno.test("foreign keys cascade from a thread down to items, usages and file changes", () => {
  const db = freshSchema();
  try {
    seedRun(db);
    db.exec(
      `INSERT INTO items (id, turn_id, run_id, ordinal, kind, role, status, content, created_at, updated_at)
       VALUES ('itm_1', 'trn_1', 'run_1', 1, 'tool_call', 'assistant', 'completed', '', 'now', 'now');
       INSERT INTO file_changes (tool_call_item_id, record_json) VALUES ('itm_1', '{}');
       INSERT INTO model_calls (run_id, call_ordinal, step_ordinal, input_json, prepared_at,
         outcome, usage_json, activity_date, finished_at)
       VALUES ('run_1', 1, 1, '{}', 'now', 'completed', '{}', '2026-11-29', 'later');
       INSERT INTO model_usages (thread_id, turn_id, run_id, call_ordinal, provider_id, model_id,
         input_tokens, output_tokens, total_tokens, activity_date, completed_at)
       VALUES ('thr_1', 'trn_1', 'run_1', 1, 'p', 'm', 1, 2, 3, '2026-11-29', 'later');`,
    );
    assert.equal(db.prepare("SELECT data_json FROM items").get()?.data_json, "{}");
    db.exec("DELETE FROM threads WHERE id = 'thr_1'");
    for (const table of ["branches", "turns", "runs", "items", "file_changes", "model_usages"]) {
      const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get();
      assert.equal(row?.n, 0, `${table} should be emptied by the cascade`);
    }
  } finally {
    db.close();
  }
});

Deno.test("threads allow one default branch and known title sources only", () => {
  const db = freshSchema();
  try {
    seedRun(db);
    assert.throws(
      () =>
        db.exec(
          "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES ('brn_2', 'thr_1', 'now', 1)",
        ),
      /UNIQUE constraint failed/,
    );
    db.exec(
      "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES ('brn_3', 'thr_1', 'now', 0)",
    );
    assert.throws(
      () => db.exec("UPDATE threads SET title_source = 'guess' WHERE id = 'thr_1'"),
      /CHECK constraint failed/,
    );
  } finally {
    db.close();
  }
});
