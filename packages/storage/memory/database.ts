/**
 * Opens memory.db on its own connection: creates the schema in an empty file, refuses
 * any other schema without touching the file, then sets WAL, `synchronous=NORMAL`,
 * `foreign_keys=ON` and `secure_delete=ON` (forgotten content is zeroed on disk).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { ConnectionTransactions } from "../_transactions.ts";
import { pragma } from "./_sqlite.ts";
import { MemoryDatabaseOpenError, MemorySchemaIncompatibleError } from "./errors.ts";
import { MEMORY_BUSY_TIMEOUT_MS } from "./limits.ts";
import { createMemorySchema, describeMemorySchemaDrift } from "./schema.ts";

/** Options of {@linkcode openMemoryDatabase}. */
export interface OpenMemoryDatabaseOptions {
  /** Create the file and its schema when it does not exist. Default `true`. */
  create?: boolean;
}

/** An open memory.db: one connection and synchronous write transactions. */
export interface MemoryDatabase {
  /** The path the database was opened from. */
  readonly path: string;
  /** The connection, for preparing statements. Do not begin or commit on it. */
  readonly connection: DatabaseSync;
  /**
   * Runs `fn` in `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws; a nested call
   * is a savepoint inside the outer transaction.
   *
   * @param fn synchronous work
   * @returns what `fn` returned, once committed
   * @throws whatever `fn` threw, after rolling back
   */
  transaction<T>(fn: () => T): T;
  /**
   * Runs `fn` in a deferred transaction: one consistent snapshot for several reads.
   *
   * @param fn synchronous reads
   * @returns what `fn` returned
   */
  readTransaction<T>(fn: () => T): T;
  /** Closes the connection; a second call does nothing. */
  close(): void;
}

/**
 * Opens (and when empty, creates) memory.db.
 *
 * @param path the database file, or `:memory:` in tests
 * @param options `create` (default `true`)
 * @returns the open database
 * @throws {MemorySchemaIncompatibleError} when the schema or version differs; the
 *   message starts with "memory database schema is incompatible; restore a compatible backup"
 * @throws {MemoryDatabaseOpenError} when the file is missing (and may not be created),
 *   unreadable, or not a database
 * @example
 * ```ts
 * const db = openMemoryDatabase(`${home}/memory.db`);
 * db.close();
 * ```
 */
export function openMemoryDatabase(
  path: string,
  options: OpenMemoryDatabaseOptions = {},
): MemoryDatabase {
  const { create } = { create: true, ...options };
  if (path !== ":memory:" && !create && !fileExists(path)) {
    throw new MemoryDatabaseOpenError(path, `Memory database not found at ${path}`);
  }
  let connection: DatabaseSync;
  try {
    connection = new DatabaseSync(path);
  } catch (error) {
    throw new MemoryDatabaseOpenError(path, `Cannot open memory database at ${path}`, {
      cause: error,
    });
  }
  try {
    connection.exec(`PRAGMA busy_timeout = ${MEMORY_BUSY_TIMEOUT_MS}`);
    if (isEmpty(connection)) createSchemaOnce(connection, path);
    const differences = describeMemorySchemaDrift(connection, userVersion(connection));
    if (differences.length > 0) throw new MemorySchemaIncompatibleError(path, differences);
    applyConnectionPragmas(connection, path);
    return new OpenMemoryDatabase(path, connection);
  } catch (error) {
    connection.close();
    if (error instanceof MemorySchemaIncompatibleError) throw error;
    if (error instanceof MemoryDatabaseOpenError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new MemoryDatabaseOpenError(path, `Cannot read memory database at ${path}: ${detail}`, {
      cause: error,
    });
  }
}

class OpenMemoryDatabase implements MemoryDatabase {
  readonly path: string;
  readonly connection: DatabaseSync;
  readonly #transactions: ConnectionTransactions;

  constructor(path: string, connection: DatabaseSync) {
    this.path = path;
    this.connection = connection;
    this.#transactions = new ConnectionTransactions(
      connection,
      () => new TypeError("A memory.db transaction callback must not return a promise"),
    );
  }

  transaction<T>(fn: () => T): T {
    return this.#transactions.write(fn);
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
    throw new MemoryDatabaseOpenError(path, `Cannot inspect memory database at ${path}`, {
      cause: error,
    });
  }
}

function userVersion(connection: DatabaseSync): number {
  return Number(pragma(connection, "user_version") ?? 0);
}

function isEmpty(connection: DatabaseSync): boolean {
  const row = connection.prepare("SELECT count(*) AS n FROM sqlite_master").get();
  return Number(row?.n ?? 0) === 0 && userVersion(connection) === 0;
}

/** The emptiness test is repeated under the write lock so two racing openers run the DDL once. */
function createSchemaOnce(connection: DatabaseSync, path: string): void {
  applyConnectionPragmas(connection, path);
  connection.exec("BEGIN IMMEDIATE");
  try {
    if (isEmpty(connection)) createMemorySchema(connection);
    connection.exec("COMMIT");
  } catch (error) {
    if (connection.isTransaction) connection.exec("ROLLBACK");
    throw error;
  }
}

function applyConnectionPragmas(connection: DatabaseSync, path: string): void {
  connection.exec("PRAGMA foreign_keys = ON");
  connection.exec("PRAGMA secure_delete = ON");
  const mode = pragma(connection, "journal_mode = WAL");
  if (mode !== "wal" && !(path === ":memory:" && mode === "memory")) {
    throw new MemoryDatabaseOpenError(path, `Memory database refused WAL mode (got ${mode})`);
  }
  connection.exec("PRAGMA synchronous = NORMAL");
}
