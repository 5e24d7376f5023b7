/**
 * Opens state.db: creates the schema in an empty file, refuses any other schema without
 * touching the file, and wraps the one `DatabaseSync` connection with synchronous
 * `BEGIN IMMEDIATE` transactions and the maintenance PRAGMAs.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { ConnectionTransactions } from "../_transactions.ts";
import { forgetChainTail, recheckChainTail } from "./journal_chain.ts";
import {
  countSchemaObjects,
  integerColumn,
  nullableIntegerColumn,
  pragmaInteger,
  pragmaText,
  textColumn,
} from "./_sqlite.ts";
import {
  StateDatabaseNotFoundError,
  StateDatabaseOpenError,
  StateSchemaIncompatibleError,
  StateTransactionError,
} from "./errors.ts";
import {
  createStateSchema,
  describeStateSchemaDrift,
  migrateStateSchema,
  STATE_SCHEMA_MIGRATABLE_FROM,
  STATE_SCHEMA_VERSION,
} from "./schema.ts";

/**
 * How long a statement waits for another connection's lock before `database is locked`.
 * Long enough to ride out a checkpoint or a maintenance command's short write, short
 * enough that a stuck lock surfaces as an error. (Belongs in the package's limits.ts.)
 */
export const STATE_BUSY_TIMEOUT_MS = 5_000;

/** Options of {@linkcode openStateDatabase}. */
export interface OpenStateDatabaseOptions {
  /** Create the file and its schema when it does not exist. Default `true`. */
  create?: boolean;
  /** Open without write access (maintenance `check`); never creates. Default `false`. */
  readOnly?: boolean;
  /**
   * WAL pages after which a commit checkpoints on its own (`PRAGMA wal_autocheckpoint`;
   * SQLite's default is 1,000). An owner that checkpoints between its own work (the
   * runtime: scheduler/idle_checkpoint.ts) sets it higher, so commits rarely pay for one.
   */
  walAutocheckpointPages?: number;
}

/** An open state.db: one connection, serialized access, synchronous transactions. */
export interface StateDatabase {
  /** The path the database was opened from. */
  readonly path: string;
  /** Whether the connection was opened read-only. */
  readonly readOnly: boolean;
  /** The underlying connection, for preparing statements. Do not begin or commit on it. */
  readonly connection: DatabaseSync;
  /** Whether the connection is still open. */
  readonly isOpen: boolean;
  /** Whether a {@linkcode StateDatabase.transaction} callback is running. */
  readonly inTransaction: boolean;
  /**
   * Runs `fn` in one transaction: `BEGIN IMMEDIATE` (plain `BEGIN` when read-only)
   * before, `COMMIT` after, `ROLLBACK` when it throws. A nested call runs inside the
   * outer transaction as a savepoint, so a nested failure that the outer callback
   * catches undoes only the nested writes.
   *
   * @param fn synchronous work; its return value is passed through
   * @returns what `fn` returned, once committed
   * @throws whatever `fn` threw, after rolling back; {@linkcode StateTransactionError}
   *   when `fn` returns a promise
   */
  transaction<T>(fn: () => T): T;
  /**
   * Runs `fn` in a deferred (`BEGIN`) transaction: one consistent snapshot for
   * several reads, without taking the write lock. Inside another transaction it
   * simply runs.
   *
   * @param fn synchronous reads
   * @returns what `fn` returned
   */
  readTransaction<T>(fn: () => T): T;
  /** Closes the connection; a second call does nothing. */
  close(): void;
}

/**
 * Opens (and when empty, creates) state.db.
 *
 * An empty database (no objects, `user_version` 0) gets the whole schema in one
 * transaction. Any other database is checked against the expected schema before a
 * single PRAGMA that could write is issued, so a refused file is left byte-for-byte as
 * it was. Only then are WAL, `synchronous=NORMAL` and `foreign_keys=ON` set. A file of
 * an older, still migratable version (schema.ts `STATE_SCHEMA_MIGRATABLE_FROM`) whose
 * schema is exactly that version's is first migrated forward
 * in one transaction (schema.ts `STATE_SCHEMA_MIGRATIONS`); opened read-only it is
 * refused as incompatible, since migrating writes.
 *
 * @param path the database file (or `:memory:` in tests)
 * @param options `create` (default `true`) and `readOnly` (default `false`)
 * @returns the open database
 * @throws {StateSchemaIncompatibleError} when the schema or version differs
 * @throws {StateDatabaseNotFoundError} when the file is missing and may not be created
 * @throws {StateDatabaseOpenError} when the file cannot be opened or is not a database
 * @example
 * ```ts
 * const db = openStateDatabase(`${home}/state.db`);
 * const count = db.transaction(() => db.connection.prepare("SELECT count(*) AS n FROM events").get());
 * db.close();
 * ```
 */
export function openStateDatabase(
  path: string,
  options: OpenStateDatabaseOptions = {},
): StateDatabase {
  const { create, readOnly, walAutocheckpointPages } = {
    create: true,
    readOnly: false,
    ...options,
  };
  if (path !== ":memory:" && !fileExists(path) && (readOnly || !create)) {
    throw new StateDatabaseNotFoundError(path);
  }
  const connection = connect(path, readOnly);
  try {
    connection.exec(`PRAGMA busy_timeout = ${STATE_BUSY_TIMEOUT_MS}`);
    if (!readOnly && isEmpty(connection)) createSchemaOnce(connection, path);
    if (!readOnly) migrateOlderSchema(connection, path);
    const differences = describeStateSchemaDrift(
      connection,
      pragmaInteger(connection, "user_version"),
    );
    if (differences.length > 0) throw new StateSchemaIncompatibleError(path, differences);
    applyConnectionPragmas(connection, path, readOnly, walAutocheckpointPages);
    return new OpenStateDatabase(path, readOnly, connection);
  } catch (error) {
    connection.close();
    throw asOpenError(path, error);
  }
}

/**
 * Runs `PRAGMA quick_check`: page structure, record formats and NOT NULL / CHECK
 * constraints, without verifying index contents.
 *
 * @param db the database to check
 * @param maxProblems stop after this many problems; default 100
 * @returns the problems found; empty when the database is intact
 */
export function quickCheck(db: StateDatabase, maxProblems = 100): string[] {
  const limit = Math.max(1, Math.trunc(maxProblems));
  const rows = db.connection.prepare(`PRAGMA quick_check(${limit})`).all();
  const messages = rows.map((row) => textColumn(row, "quick_check"));
  return messages.length === 1 && messages[0] === "ok" ? [] : messages;
}

/** One row that refers to a missing parent, from `PRAGMA foreign_key_check`. */
export interface ForeignKeyViolation {
  /** The table holding the orphaned row. */
  table: string;
  /** The orphaned row's rowid (null for WITHOUT ROWID tables). */
  rowid: number | null;
  /** The table the foreign key refers to. */
  parent: string;
  /** The foreign key's index in `PRAGMA foreign_key_list(table)`. */
  foreignKeyId: number;
}

/**
 * Runs `PRAGMA foreign_key_check` over the whole database.
 *
 * @param db the database to check
 * @returns every violation; empty when all references resolve
 */
export function foreignKeyCheck(db: StateDatabase): ForeignKeyViolation[] {
  return db.connection.prepare("PRAGMA foreign_key_check").all().map((row) => ({
    table: textColumn(row, "table"),
    rowid: nullableIntegerColumn(row, "rowid"),
    parent: textColumn(row, "parent"),
    foreignKeyId: integerColumn(row, "fkid"),
  }));
}

/** A WAL checkpoint mode, as `PRAGMA wal_checkpoint(<mode>)` accepts it. */
export type CheckpointMode = "PASSIVE" | "FULL" | "RESTART" | "TRUNCATE";

/** The outcome of {@linkcode checkpoint}. */
export interface CheckpointResult {
  /** Whether a reader or writer kept the checkpoint from completing. */
  busy: boolean;
  /** Frames in the WAL (-1 when the database is not in WAL mode). */
  walFrames: number;
  /** Frames copied into the database file (-1 when not in WAL mode). */
  checkpointedFrames: number;
}

/**
 * Copies the WAL into the database file; `TRUNCATE` also empties the WAL file.
 *
 * @param db an open, writable database
 * @param mode the checkpoint mode; default `PASSIVE`
 * @returns what the checkpoint did
 */
export function checkpoint(db: StateDatabase, mode: CheckpointMode = "PASSIVE"): CheckpointResult {
  const row = db.connection.prepare(`PRAGMA wal_checkpoint(${mode})`).get();
  if (row === undefined) return { busy: false, walFrames: -1, checkpointedFrames: -1 };
  return {
    busy: integerColumn(row, "busy") !== 0,
    walFrames: integerColumn(row, "log"),
    checkpointedFrames: integerColumn(row, "checkpointed"),
  };
}

class OpenStateDatabase implements StateDatabase {
  readonly path: string;
  readonly readOnly: boolean;
  readonly connection: DatabaseSync;
  readonly #transactions: ConnectionTransactions;

  constructor(path: string, readOnly: boolean, connection: DatabaseSync) {
    this.path = path;
    this.readOnly = readOnly;
    this.connection = connection;
    // The journal's tail kept in memory: checked again once per transaction, and dropped
    // with the appends of a failed one.
    this.#transactions = new ConnectionTransactions(
      connection,
      () => new StateTransactionError(),
      {
        onBegin: () => recheckChainTail(connection),
        onRollback: () => forgetChainTail(connection),
      },
    );
  }

  get isOpen(): boolean {
    return this.connection.isOpen;
  }

  get inTransaction(): boolean {
    return this.#transactions.active;
  }

  transaction<T>(fn: () => T): T {
    return this.#transactions.write(fn, !this.readOnly);
  }

  readTransaction<T>(fn: () => T): T {
    return this.#transactions.read(fn);
  }

  close(): void {
    if (this.connection.isOpen) this.connection.close();
  }
}

function fileExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw new StateDatabaseOpenError(path, `Cannot inspect state database at ${path}`, {
      cause: error,
    });
  }
}

function connect(path: string, readOnly: boolean): DatabaseSync {
  try {
    return new DatabaseSync(path, { readOnly });
  } catch (error) {
    throw new StateDatabaseOpenError(path, `Cannot open state database at ${path}`, {
      cause: error,
    });
  }
}

function isEmpty(connection: DatabaseSync): boolean {
  return countSchemaObjects(connection) === 0 && pragmaInteger(connection, "user_version") === 0;
}

/**
 * WAL must be set outside a transaction; the emptiness test is repeated under the
 * write lock so two processes racing to create the file cannot both run the DDL.
 */
function createSchemaOnce(connection: DatabaseSync, path: string): void {
  applyConnectionPragmas(connection, path, false);
  connection.exec("BEGIN IMMEDIATE");
  try {
    if (isEmpty(connection)) createStateSchema(connection);
    connection.exec("COMMIT");
  } catch (error) {
    if (connection.isTransaction) connection.exec("ROLLBACK");
    throw error;
  }
}

/**
 * An older file whose schema is exactly its version's is migrated forward, in one
 * transaction with the version bump, under the write lock (a racing process that
 * migrated first leaves nothing to do). A file older than
 * {@linkcode STATE_SCHEMA_MIGRATABLE_FROM}, or one that matches no known version, is
 * left untouched for the drift check to refuse.
 */
function migrateOlderSchema(connection: DatabaseSync, path: string): void {
  const version = pragmaInteger(connection, "user_version");
  if (version < STATE_SCHEMA_MIGRATABLE_FROM || version >= STATE_SCHEMA_VERSION) return;
  if (describeStateSchemaDrift(connection, version, version).length > 0) return;
  applyConnectionPragmas(connection, path, false);
  connection.exec("BEGIN IMMEDIATE");
  try {
    const current = pragmaInteger(connection, "user_version");
    if (current === version) migrateStateSchema(connection, version, STATE_SCHEMA_VERSION);
    connection.exec("COMMIT");
  } catch (error) {
    if (connection.isTransaction) connection.exec("ROLLBACK");
    throw error;
  }
}

function applyConnectionPragmas(
  connection: DatabaseSync,
  path: string,
  readOnly: boolean,
  walAutocheckpointPages?: number,
): void {
  connection.exec("PRAGMA foreign_keys = ON");
  if (readOnly) return;
  const mode = pragmaText(connection, "journal_mode = WAL");
  if (mode !== "wal" && !(path === ":memory:" && mode === "memory")) {
    throw new StateDatabaseOpenError(path, `State database refused WAL mode (got ${mode})`);
  }
  connection.exec("PRAGMA synchronous = NORMAL");
  if (walAutocheckpointPages !== undefined) {
    if (!Number.isSafeInteger(walAutocheckpointPages) || walAutocheckpointPages < 0) {
      throw new RangeError(`walAutocheckpointPages must be a whole number ≥ 0`);
    }
    connection.exec(`PRAGMA wal_autocheckpoint = ${walAutocheckpointPages}`);
  }
}

function asOpenError(path: string, error: unknown): Error {
  if (
    error instanceof StateSchemaIncompatibleError || error instanceof StateDatabaseOpenError
  ) {
    return error;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new StateDatabaseOpenError(path, `Cannot read state database at ${path}: ${detail}`, {
    cause: error,
  });
}
