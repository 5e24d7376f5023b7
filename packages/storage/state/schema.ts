/**
 * The canonical schema of state.db: the append-only `events` journal and the
 * projections derived from it (seed 000 §8, "state.db schema 16", restarted here at
 * version 1). The DDL of version 1 plus the forward migrations after it is the single
 * definition: a new file is created by running both, so a migrated file and a new one
 * hold the very same `sqlite_master` text, and the drift check compares a live file
 * against what they produce in a fresh in-memory database.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { readSchemaObjects, type SchemaObject } from "./_sqlite.ts";
import { backfillJournalChain } from "./journal_chain.ts";
import { JOURNAL_CHAIN_BACKFILL_BATCH_ROWS } from "../limits.ts";
import {
  fillSearchIndex,
  MESSAGE_SEARCH_DDL,
  MESSAGE_SEARCH_SECURE_DELETE,
} from "./search_index.ts";

/**
 * The schema version this code writes and accepts, stored in `PRAGMA user_version`.
 * An older version from {@linkcode STATE_SCHEMA_MIGRATABLE_FROM} on that matches its own
 * schema exactly is migrated forward on open (database.ts); any other version means
 * "reset required".
 */
export const STATE_SCHEMA_VERSION = 10;

/**
 * The oldest version that is migrated forward on open; older files need a reset.
 * Version 3 changed what `run_configs` rows and the queued `run.state_changed` hold (the
 * config's large parts by reference, {@linkcode STATE_SCHEMA_MIGRATIONS}), so a
 * version-2 journal cannot be replayed into version-3 projections.
 */
export const STATE_SCHEMA_MIGRATABLE_FROM = 3;

/** One forward migration: the statements that turn version `toVersion - 1` into `toVersion`. */
export interface StateSchemaMigration {
  /** The version the statements produce. */
  toVersion: number;
  /** DDL, run in order inside one transaction. */
  statements: readonly string[];
  /** Fills the new columns of existing rows after the DDL, in the same transaction. */
  backfill?: (connection: DatabaseSync) => void;
}

/**
 * The migrations after version 1, oldest first. Only additive statements (ADD COLUMN
 * of a nullable column, a new table): the journal stays the source of truth, and a
 * rebuild derives the new columns from it. The chain also builds every newer schema
 * from the version-1 DDL, so it keeps steps that no file is migrated by any more
 * ({@linkcode STATE_SCHEMA_MIGRATABLE_FROM}).
 */
export const STATE_SCHEMA_MIGRATIONS: readonly StateSchemaMigration[] = Object.freeze([
  // 2: a failed Run's error message (the provider's words), from run.state_changed.
  { toVersion: 2, statements: ["ALTER TABLE runs ADD COLUMN error_message TEXT"] },
  // 3: RunConfig parts stored once by content hash, referred to by run_configs rows.
  {
    toVersion: 3,
    statements: [
      `CREATE TABLE run_config_parts (
    kind TEXT NOT NULL CHECK (kind IN ('tool_schemas', 'identity', 'skills')),
    hash TEXT NOT NULL CHECK (hash GLOB 'sha256:*'),
    content_json TEXT NOT NULL,
    PRIMARY KEY(kind, hash)
  )`,
    ],
  },
  // 4: approvals (a tool call waiting for the user), from approval.requested/resolved.
  {
    toVersion: 4,
    statements: [
      `CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    thread_id TEXT NOT NULL,
    tool_call_item_id TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'allowed', 'denied', 'cancelled')),
    created_at TEXT NOT NULL,
    client_request_id TEXT,
    record_json TEXT NOT NULL
  )`,
      `CREATE INDEX approvals_thread_idx ON approvals(thread_id, created_at DESC, id DESC)`,
      `CREATE INDEX approvals_run_pending_idx ON approvals(run_id) WHERE status = 'pending'`,
    ],
  },
  // 5: the fallback model a Run continued on (run.model_fallback); null while it stayed.
  {
    toVersion: 5,
    statements: [
      "ALTER TABLE runs ADD COLUMN fallback_provider_id TEXT",
      "ALTER TABLE runs ADD COLUMN fallback_model_id TEXT",
    ],
  },
  // 6: the journal's hash chain (journal_chain.ts), computed for the rows already there.
  // Nullable because ADD COLUMN cannot add a NOT NULL column without a default; the
  // append path always fills them and `storage verify` reports a row that lacks them.
  {
    toVersion: 6,
    statements: [
      "ALTER TABLE events ADD COLUMN prev_hash TEXT",
      "ALTER TABLE events ADD COLUMN payload_hash TEXT",
      "ALTER TABLE events ADD COLUMN hash TEXT",
    ],
    backfill: (connection) => {
      backfillJournalChain(connection, JOURNAL_CHAIN_BACKFILL_BATCH_ROWS);
    },
  },
  // 7: branches that fork a thread at a turn (branch.created), the turn tree (each turn's
  // previous turn in its branch's history, which finds a turn's siblings for the branch
  // switcher), the thread's active branch and its own settings (compaction). Every
  // column is null on rows written before: one branch per thread, turns in ordinal order.
  {
    toVersion: 7,
    statements: [
      "ALTER TABLE branches ADD COLUMN parent_branch_id TEXT",
      "ALTER TABLE branches ADD COLUMN fork_turn_id TEXT",
      "ALTER TABLE branches ADD COLUMN client_request_id TEXT",
      `CREATE UNIQUE INDEX branches_client_request_id_idx
    ON branches(client_request_id) WHERE client_request_id IS NOT NULL`,
      "ALTER TABLE turns ADD COLUMN parent_turn_id TEXT",
      "CREATE INDEX turns_parent_idx ON turns(thread_id, parent_turn_id)",
      "ALTER TABLE threads ADD COLUMN active_branch_id TEXT",
      "ALTER TABLE threads ADD COLUMN settings_json TEXT",
    ],
  },
  // 8: the message search index (search_index.ts), filled from the items already stored
  // so an older home can search its conversations at once.
  {
    toVersion: 8,
    statements: [MESSAGE_SEARCH_DDL, MESSAGE_SEARCH_SECURE_DELETE],
    backfill: fillSearchIndex,
  },
  // 9: who started a thread the owner did not (a gateway app key: its id and name then),
  // from thread.created. Null on rows written before: the owner's own threads.
  { toVersion: 9, statements: ["ALTER TABLE threads ADD COLUMN source_json TEXT"] },
  // 10: a thread's compactions without walking its whole journal. Every Run reads them
  // (thread_compactions.ts); through events_thread_seq_idx that visited every event of the
  // thread, so a turn's cost grew with the conversation's length.
  {
    toVersion: 10,
    statements: [
      `CREATE INDEX events_thread_compacted_idx ON events(thread_id, seq)
    WHERE event_type = 'thread.compacted'`,
    ],
  },
]);

/**
 * The DDL of state.db in execution order: each table followed by its indexes.
 * `process_sessions` refers to `items`, which comes later; SQLite resolves foreign keys
 * when rows are written, not when tables are created, so the order is valid.
 */
export const STATE_SCHEMA_STATEMENTS: readonly string[] = Object.freeze([
  `CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    schema_version INTEGER NOT NULL CHECK (schema_version >= 1),
    event_type TEXT NOT NULL,
    thread_id TEXT,
    branch_id TEXT,
    turn_id TEXT,
    run_id TEXT,
    item_id TEXT,
    created_at TEXT NOT NULL,
    payload_json TEXT NOT NULL
  )`,
  `CREATE INDEX events_thread_seq_idx ON events(thread_id, seq)`,
  `CREATE INDEX events_run_seq_idx ON events(run_id, seq)`,
  `CREATE UNIQUE INDEX events_one_settled_per_run
    ON events(run_id) WHERE event_type = 'run.settled'`,
  `CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    title TEXT,
    title_source TEXT CHECK (title_source IN ('provisional', 'user', 'auto')),
    default_branch_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    archived_at TEXT,
    client_request_id TEXT,
    workspace_json TEXT
  )`,
  `CREATE UNIQUE INDEX threads_client_request_id_idx
    ON threads(client_request_id) WHERE client_request_id IS NOT NULL`,
  `CREATE INDEX threads_active_catalog_order_idx
    ON threads(updated_at DESC, id ASC) WHERE archived_at IS NULL`,
  `CREATE INDEX threads_archived_catalog_order_idx
    ON threads(updated_at DESC, id ASC) WHERE archived_at IS NOT NULL`,
  `CREATE TABLE branches (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    is_default INTEGER NOT NULL CHECK (is_default IN (0, 1))
  )`,
  `CREATE UNIQUE INDEX branches_default_thread_idx
    ON branches(thread_id) WHERE is_default = 1`,
  `CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    branch_id TEXT NOT NULL REFERENCES branches(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE(branch_id, ordinal)
  )`,
  `CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    provider_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    started_at TEXT,
    settled_at TEXT,
    reason_code TEXT,
    client_request_id TEXT,
    execution_policy TEXT NOT NULL DEFAULT 'full_access'
  )`,
  `CREATE UNIQUE INDEX runs_client_request_id_idx
    ON runs(client_request_id) WHERE client_request_id IS NOT NULL`,
  `CREATE INDEX runs_turn_history_idx
    ON runs(turn_id, created_at ASC, id ASC)`,
  `CREATE TABLE run_configs (
    run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    config_json TEXT NOT NULL
  )`,
  `CREATE TABLE context_revisions (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    record_json TEXT NOT NULL,
    PRIMARY KEY(run_id, revision)
  )`,
  `CREATE TABLE process_sessions (
    process_id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    record_json TEXT NOT NULL,
    UNIQUE(run_id, item_id)
  )`,
  `CREATE TABLE model_calls (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    call_ordinal INTEGER NOT NULL CHECK (call_ordinal >= 1),
    step_ordinal INTEGER CHECK (step_ordinal IS NULL OR step_ordinal >= 1),
    input_json TEXT NOT NULL,
    prepared_at TEXT NOT NULL,
    purpose TEXT NOT NULL DEFAULT 'execution'
        CHECK (purpose IN ('execution', 'compression', 'completion_check')),
    outcome TEXT CHECK (outcome IN ('completed', 'failed', 'cancelled')),
    reason_code TEXT,
    response_model_id TEXT,
    request_id TEXT,
    usage_json TEXT,
    activity_date TEXT,
    finished_at TEXT,
    PRIMARY KEY(run_id, call_ordinal),
    CHECK ((purpose = 'execution' AND step_ordinal IS NOT NULL)
           OR (purpose IN ('compression', 'completion_check') AND step_ordinal IS NULL)),
    CHECK (
        (outcome IS NULL AND reason_code IS NULL AND response_model_id IS NULL
         AND request_id IS NULL AND usage_json IS NULL AND activity_date IS NULL
         AND finished_at IS NULL)
        OR
        (outcome = 'completed' AND reason_code IS NULL AND finished_at IS NOT NULL)
        OR
        (outcome IN ('failed', 'cancelled') AND reason_code IS NOT NULL
         AND finished_at IS NOT NULL)
    ),
    CHECK (
        (usage_json IS NULL AND activity_date IS NULL)
        OR
        (outcome = 'completed' AND usage_json IS NOT NULL AND activity_date IS NOT NULL)
    )
  )`,
  `CREATE UNIQUE INDEX model_calls_execution_step_idx
    ON model_calls(run_id, step_ordinal) WHERE purpose = 'execution'`,
  `CREATE TABLE model_usages (
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    call_ordinal INTEGER NOT NULL CHECK (call_ordinal >= 1),
    step_ordinal INTEGER CHECK (step_ordinal IS NULL OR step_ordinal >= 1),
    provider_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
    cached_input_tokens INTEGER CHECK (cached_input_tokens >= 0),
    output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
    reasoning_output_tokens INTEGER CHECK (reasoning_output_tokens >= 0),
    total_tokens INTEGER NOT NULL CHECK (total_tokens >= 0),
    activity_date TEXT NOT NULL,
    completed_at TEXT NOT NULL,
    PRIMARY KEY(run_id, call_ordinal),
    FOREIGN KEY(run_id, call_ordinal)
        REFERENCES model_calls(run_id, call_ordinal) ON DELETE CASCADE
  )`,
  `CREATE INDEX model_usages_completed_at_idx
    ON model_usages(completed_at ASC, run_id ASC, call_ordinal ASC)`,
  `CREATE INDEX model_usages_activity_date_idx
    ON model_usages(activity_date ASC, run_id ASC, call_ordinal ASC)`,
  `CREATE TABLE items (
    id TEXT PRIMARY KEY,
    turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    kind TEXT NOT NULL,
    role TEXT,
    status TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    data_json TEXT NOT NULL DEFAULT '{}',
    UNIQUE(run_id, ordinal)
  )`,
  `CREATE INDEX items_turn_context_idx
    ON items(turn_id, ordinal ASC)`,
  `CREATE TABLE file_changes (
    tool_call_item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    record_json TEXT NOT NULL
  )`,
]);

/**
 * Creates every table and index and sets `user_version`. Runs inside the caller's
 * transaction; it neither begins nor commits one.
 *
 * @param connection an open, empty database
 * @param version the version to create (older ones for migration tests); default the current
 * @throws the SQLite error when an object already exists
 */
export function createStateSchema(
  connection: DatabaseSync,
  version: number = STATE_SCHEMA_VERSION,
): void {
  for (const statement of STATE_SCHEMA_STATEMENTS) connection.exec(statement);
  migrateStateSchema(connection, 1, version);
}

/**
 * Runs the migrations from one version to a later one and sets `user_version`. Runs
 * inside the caller's transaction; it neither begins nor commits one.
 *
 * @param connection a database at version `from`
 * @param from its version
 * @param to the version wanted (≤ {@linkcode STATE_SCHEMA_VERSION})
 */
export function migrateStateSchema(connection: DatabaseSync, from: number, to: number): void {
  for (const migration of STATE_SCHEMA_MIGRATIONS) {
    if (migration.toVersion <= from || migration.toVersion > to) continue;
    for (const statement of migration.statements) connection.exec(statement);
    migration.backfill?.(connection);
  }
  connection.exec(`PRAGMA user_version = ${to}`);
}

const expectedObjects = new Map<number, readonly SchemaObject[]>();

/**
 * The schema objects a correct state.db holds, as SQLite itself records them. Built
 * once in an in-memory database and cached, so the comparison sees exactly what
 * `sqlite_master` would show for a file created by {@linkcode createStateSchema}.
 *
 * @param version the schema version; default the current
 * @returns the expected objects, ordered by type and name
 */
export function expectedStateSchemaObjects(
  version: number = STATE_SCHEMA_VERSION,
): readonly SchemaObject[] {
  const cached = expectedObjects.get(version);
  if (cached !== undefined) return cached;
  const scratch = new DatabaseSync(":memory:");
  try {
    createStateSchema(scratch, version);
    const objects = Object.freeze(readSchemaObjects(scratch).map((o) => Object.freeze(o)));
    expectedObjects.set(version, objects);
    return objects;
  } finally {
    scratch.close();
  }
}

/**
 * Compares a live database with the expected schema, reading only.
 *
 * @param connection the database to inspect
 * @param userVersion its `PRAGMA user_version`
 * @param expectedVersion the version to compare with; default the current
 * @returns one description per difference (`version 3, expected 1`,
 *   `missing index threads_active_catalog_order_idx`, `unexpected table foo`,
 *   `changed table items`); empty when the schema matches
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * const db = new DatabaseSync(":memory:");
 * createStateSchema(db);
 * describeStateSchemaDrift(db, 2); // []
 * ```
 */
export function describeStateSchemaDrift(
  connection: DatabaseSync,
  userVersion: number,
  expectedVersion: number = STATE_SCHEMA_VERSION,
): string[] {
  const differences: string[] = [];
  if (userVersion !== expectedVersion) {
    differences.push(`version ${userVersion}, expected ${expectedVersion}`);
  }
  const live = new Map(readSchemaObjects(connection).map((o) => [objectKey(o), o]));
  for (const expected of expectedStateSchemaObjects(expectedVersion)) {
    const actual = live.get(objectKey(expected));
    live.delete(objectKey(expected));
    if (actual === undefined) {
      differences.push(`missing ${expected.type} ${expected.name}`);
    } else if (actual.sql !== expected.sql || actual.tableName !== expected.tableName) {
      differences.push(`changed ${expected.type} ${expected.name}`);
    }
  }
  for (const extra of live.values()) differences.push(`unexpected ${extra.type} ${extra.name}`);
  return differences;
}

function objectKey(object: SchemaObject): string {
  return `${object.type} ${object.name}`;
}
