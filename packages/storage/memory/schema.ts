/**
 * The canonical schema of memory.db (seed 000 §8, "memory.db"), restarted at version 1:
 * records, their revisions, idempotency receipts, the background refinement cursors and
 * the FTS5 recall index. The drift check compares a live file with what these
 * statements produce in a fresh in-memory database.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { readSchemaObjects, type SchemaObject } from "./_sqlite.ts";

/** The schema version this code writes and accepts (`PRAGMA user_version`); no migrations. */
export const MEMORY_SCHEMA_VERSION = 1;

/** The FTS5 table; its shadow tables (`memory_fts_data`, …) are SQLite's own. */
export const MEMORY_FTS_TABLE = "memory_fts";

const SOURCE_RULE = `(source_kind IN ('session_item', 'auto_extracted')
         AND source_thread_id IS NOT NULL
         AND source_turn_id IS NOT NULL
         AND source_item_id IS NOT NULL
         AND (
             (operation IN ('create', 'correct')
              AND content_redacted_at IS NULL
              AND source_item_digest IS NOT NULL)
             OR
             ((operation = 'forget' OR content_redacted_at IS NOT NULL)
              AND source_item_digest IS NULL)
         ))`;

/** The DDL of memory.db in execution order. */
export const MEMORY_SCHEMA_STATEMENTS: readonly string[] = Object.freeze([
  `CREATE TABLE memory_records (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'preference', 'relationship', 'project')),
    scope_type TEXT NOT NULL CHECK (scope_type IN ('global', 'workspace')),
    scope_key TEXT,
    current_revision INTEGER NOT NULL CHECK (current_revision >= 1),
    state TEXT NOT NULL CHECK (state IN ('active', 'forgotten')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    forgotten_at TEXT,
    CHECK (
        (scope_type = 'global' AND scope_key IS NULL)
        OR
        (scope_type = 'workspace' AND scope_key IS NOT NULL AND length(scope_key) BETWEEN 1 AND 200)
    ),
    CHECK (
        (state = 'active' AND forgotten_at IS NULL)
        OR
        (state = 'forgotten' AND forgotten_at IS NOT NULL)
    ),
    FOREIGN KEY(id, current_revision)
        REFERENCES memory_revisions(memory_id, revision)
        DEFERRABLE INITIALLY DEFERRED
  )`,
  `CREATE TABLE memory_revisions (
    memory_id TEXT NOT NULL REFERENCES memory_records(id) ON DELETE RESTRICT,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    operation TEXT NOT NULL CHECK (operation IN ('create', 'correct', 'forget')),
    content TEXT,
    content_digest TEXT,
    content_redacted_at TEXT,
    source_kind TEXT NOT NULL
        CHECK (source_kind IN ('user_explicit', 'session_item', 'auto_extracted')),
    source_thread_id TEXT,
    source_turn_id TEXT,
    source_item_id TEXT,
    source_item_digest TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY(memory_id, revision),
    CHECK (
        (operation IN ('create', 'correct') AND (
            (content IS NOT NULL AND content_digest IS NOT NULL AND content_redacted_at IS NULL)
            OR
            (content IS NULL AND content_digest IS NULL AND content_redacted_at IS NOT NULL)
        ))
        OR
        (operation = 'forget'
         AND content IS NULL
         AND content_digest IS NULL
         AND content_redacted_at IS NULL)
    ),
    CHECK (
        (source_kind = 'user_explicit'
         AND source_thread_id IS NULL
         AND source_turn_id IS NULL
         AND source_item_id IS NULL
         AND source_item_digest IS NULL)
        OR
        ${SOURCE_RULE}
    ),
    CHECK (operation != 'forget' OR source_item_digest IS NULL)
  )`,
  `CREATE TABLE memory_operations (
    client_request_id TEXT PRIMARY KEY,
    method TEXT NOT NULL CHECK (method IN ('memory.create', 'memory.correct', 'memory.forget')),
    non_content_fingerprint TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    resulting_revision INTEGER NOT NULL CHECK (resulting_revision >= 1),
    created_at TEXT NOT NULL,
    UNIQUE(memory_id, resulting_revision),
    FOREIGN KEY(memory_id, resulting_revision)
        REFERENCES memory_revisions(memory_id, revision)
        ON DELETE RESTRICT
  )`,
  `CREATE TABLE memory_extraction_cursors (
    thread_id TEXT PRIMARY KEY,
    last_turn_ordinal INTEGER CHECK (last_turn_ordinal IS NULL OR last_turn_ordinal >= 0),
    last_run_created_at TEXT,
    last_run_id TEXT,
    last_item_ordinal INTEGER CHECK (last_item_ordinal IS NULL OR last_item_ordinal >= 0),
    last_item_id TEXT,
    attempted_at TEXT,
    extracted_at TEXT,
    CHECK (
        (last_turn_ordinal IS NULL AND last_run_created_at IS NULL AND last_run_id IS NULL
         AND last_item_ordinal IS NULL AND last_item_id IS NULL)
        OR
        (last_turn_ordinal IS NOT NULL AND last_run_created_at IS NOT NULL
         AND last_run_id IS NOT NULL AND last_item_ordinal IS NOT NULL
         AND last_item_id IS NOT NULL)
    )
  )`,
  `CREATE INDEX memory_records_state_order_idx
    ON memory_records(state, updated_at DESC, id ASC)`,
  `CREATE INDEX memory_records_scope_order_idx
    ON memory_records(state, scope_type, scope_key, updated_at DESC, id ASC)`,
  `CREATE INDEX memory_records_scope_kind_order_idx
    ON memory_records(state, scope_type, scope_key, kind, updated_at DESC, id ASC)`,
  `CREATE VIRTUAL TABLE memory_fts USING fts5(
    memory_id UNINDEXED,
    tokens,
    tokenize = 'unicode61 remove_diacritics 2'
  )`,
]);

/**
 * Creates every object and sets `user_version`, inside the caller's transaction.
 *
 * @param connection an open, empty database
 * @throws the SQLite error when an object already exists
 */
export function createMemorySchema(connection: DatabaseSync): void {
  for (const statement of MEMORY_SCHEMA_STATEMENTS) connection.exec(statement);
  connection.exec(`PRAGMA user_version = ${MEMORY_SCHEMA_VERSION}`);
}

let expectedObjects: readonly SchemaObject[] | undefined;

/**
 * The objects a correct memory.db holds, as SQLite records them; built once in memory.
 *
 * @returns the expected objects, FTS shadow tables included (compared by name only)
 */
export function expectedMemorySchemaObjects(): readonly SchemaObject[] {
  if (expectedObjects !== undefined) return expectedObjects;
  const scratch = new DatabaseSync(":memory:");
  try {
    createMemorySchema(scratch);
    expectedObjects = Object.freeze(readSchemaObjects(scratch).map((o) => Object.freeze(o)));
    return expectedObjects;
  } finally {
    scratch.close();
  }
}

/**
 * Compares a live memory.db with the expected schema, reading only. FTS5 shadow tables
 * are compared by name: their DDL is SQLite's to write and may differ between versions.
 *
 * @param connection the database to inspect
 * @param userVersion its `PRAGMA user_version`
 * @returns one description per difference; empty when the schema matches
 */
export function describeMemorySchemaDrift(
  connection: DatabaseSync,
  userVersion: number,
): string[] {
  const differences: string[] = [];
  if (userVersion !== MEMORY_SCHEMA_VERSION) {
    differences.push(`version ${userVersion}, expected ${MEMORY_SCHEMA_VERSION}`);
  }
  const live = new Map(readSchemaObjects(connection).map((o) => [objectKey(o), o]));
  for (const expected of expectedMemorySchemaObjects()) {
    const actual = live.get(objectKey(expected));
    live.delete(objectKey(expected));
    if (actual === undefined) {
      differences.push(`missing ${expected.type} ${expected.name}`);
    } else if (!isFtsShadow(expected) && !sameDefinition(actual, expected)) {
      differences.push(`changed ${expected.type} ${expected.name}`);
    }
  }
  for (const extra of live.values()) differences.push(`unexpected ${extra.type} ${extra.name}`);
  return differences;
}

function sameDefinition(actual: SchemaObject, expected: SchemaObject): boolean {
  return actual.sql === expected.sql && actual.tableName === expected.tableName;
}

function isFtsShadow(object: SchemaObject): boolean {
  return object.type === "table" && object.name.startsWith(`${MEMORY_FTS_TABLE}_`);
}

function objectKey(object: SchemaObject): string {
  return `${object.type} ${object.name}`;
}
