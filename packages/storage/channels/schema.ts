/**
 * The schema of channels.db (seed 000 §8, schema 1): owner bindings, update cursors and
 * the outbox. No foreign keys into state.db (a separate file; thread ids are plain text).
 * One addition to the seed's outbox: `parts_sent`, how many pieces of a split reply
 * Telegram has accepted, so a restart resumes a long reply at its next piece.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** The DDL of channels.db in execution order. */
export const CHANNELS_SCHEMA_STATEMENTS: readonly string[] = Object.freeze([
  `CREATE TABLE channel_bindings (
    channel_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    branch_id TEXT NOT NULL,
    owner_user_id TEXT,
    owner_username TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, account_id, chat_id)
  )`,
  `CREATE UNIQUE INDEX channel_bindings_thread_idx ON channel_bindings(channel_id, thread_id)`,
  `CREATE TABLE channel_cursors (
    channel_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    next_update_id INTEGER NOT NULL CHECK (next_update_id >= 0),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, account_id)
  )`,
  `CREATE TABLE channel_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    run_id TEXT,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    parts_sent INTEGER NOT NULL DEFAULT 0 CHECK (parts_sent >= 0),
    next_attempt_at TEXT,
    telegram_message_id INTEGER,
    last_error_code TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX channel_outbox_run_idx ON channel_outbox(channel_id, account_id, run_id)
    WHERE run_id IS NOT NULL`,
  `CREATE INDEX channel_outbox_due_idx ON channel_outbox(status, next_attempt_at)`,
]);

/**
 * Creates the schema in an empty database and stamps its version.
 *
 * @param connection an empty database, inside a write transaction
 * @param version the version to stamp
 */
export function createChannelsSchema(connection: DatabaseSync, version: number): void {
  for (const statement of CHANNELS_SCHEMA_STATEMENTS) connection.exec(statement);
  connection.exec(`PRAGMA user_version = ${version}`);
}

/** The names of the tables and indexes schema 1 has, sorted. */
export const CHANNELS_SCHEMA_OBJECTS: readonly string[] = Object.freeze([
  "channel_bindings",
  "channel_bindings_thread_idx",
  "channel_cursors",
  "channel_outbox",
  "channel_outbox_due_idx",
  "channel_outbox_run_idx",
]);
