/**
 * Small, typed readers over `node:sqlite` rows, shared by the state modules. Rows come
 * back as `Record<string, SQLOutputValue>`; these helpers narrow them without casts.
 *
 * @module
 */
import type { DatabaseSync, SQLOutputValue } from "node:sqlite";

/** One row of `sqlite_master`, with its SQL whitespace-normalized. */
export interface SchemaObject {
  /** `table`, `index`, `view` or `trigger`. */
  type: string;
  /** The object's name. */
  name: string;
  /** The table the object belongs to (its own name for a table). */
  tableName: string;
  /** The `CREATE …` text with every run of whitespace collapsed to one space. */
  sql: string;
}

/** Collapses every run of whitespace to one space so formatting never counts as drift. */
export function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, " ").trim();
}

/** Reads a column that must hold text; throws a `TypeError` naming it otherwise. */
export function textColumn(row: Record<string, SQLOutputValue>, column: string): string {
  const value = row[column];
  if (typeof value !== "string") {
    throw new TypeError(`Expected text in column ${column}, got ${typeof value}`);
  }
  return value;
}

/** Reads a column that must hold text or NULL. */
export function nullableTextColumn(
  row: Record<string, SQLOutputValue>,
  column: string,
): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : textColumn(row, column);
}

/** Reads a column that must hold an integer; throws a `TypeError` naming it otherwise. */
export function integerColumn(row: Record<string, SQLOutputValue>, column: string): number {
  const value = row[column];
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TypeError(`Expected an integer in column ${column}, got ${typeof value}`);
  }
  return value;
}

/** Reads a column that must hold an integer or NULL. */
export function nullableIntegerColumn(
  row: Record<string, SQLOutputValue>,
  column: string,
): number | null {
  const value = row[column];
  return value === null || value === undefined ? null : integerColumn(row, column);
}

/** Runs `PRAGMA <statement>` and returns the first column of its first row. */
export function pragmaValue(connection: DatabaseSync, statement: string): SQLOutputValue {
  const row = connection.prepare(`PRAGMA ${statement}`).get();
  if (row === undefined) return null;
  const first = Object.values(row)[0];
  return first === undefined ? null : first;
}

/** Runs `PRAGMA <statement>` and returns its integer result. */
export function pragmaInteger(connection: DatabaseSync, statement: string): number {
  const value = pragmaValue(connection, statement);
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "number") {
    throw new TypeError(`Expected an integer from PRAGMA ${statement}, got ${typeof value}`);
  }
  return value;
}

/** Runs `PRAGMA <statement>` and returns its text result. */
export function pragmaText(connection: DatabaseSync, statement: string): string {
  const value = pragmaValue(connection, statement);
  if (typeof value !== "string") {
    throw new TypeError(`Expected text from PRAGMA ${statement}, got ${typeof value}`);
  }
  return value;
}

/**
 * Lists the user-visible schema objects: everything in `sqlite_master` except SQLite's
 * own (`sqlite_sequence`, `sqlite_stat*`, `sqlite_autoindex_*`), which follow from the
 * DDL and carry no SQL of their own worth comparing.
 */
export function readSchemaObjects(connection: DatabaseSync): SchemaObject[] {
  const rows = connection.prepare(
    `SELECT type, name, tbl_name, sql FROM sqlite_master
     WHERE substr(name, 1, 7) <> 'sqlite_'
     ORDER BY type = 'table' DESC, type, name`,
  ).all();
  return rows.map((row) => ({
    type: textColumn(row, "type"),
    name: textColumn(row, "name"),
    tableName: textColumn(row, "tbl_name"),
    sql: normalizeSql(nullableTextColumn(row, "sql") ?? ""),
  }));
}

/** Counts every object in `sqlite_master`, SQLite's own included. */
export function countSchemaObjects(connection: DatabaseSync): number {
  const row = connection.prepare("SELECT count(*) AS n FROM sqlite_master").get();
  return row === undefined ? 0 : integerColumn(row, "n");
}
