/**
 * Typed readers over `node:sqlite` rows for the memory modules. A deliberate copy of the
 * few helpers memory.db needs, so memory.db never depends on state.db's files.
 *
 * @module
 */
import type { DatabaseSync, SQLOutputValue } from "node:sqlite";

/** A row as `node:sqlite` returns it. */
export type Row = Record<string, SQLOutputValue>;

/** Reads a column that must hold text; throws a `TypeError` naming it otherwise. */
export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== "string") {
    throw new TypeError(`Expected text in column ${column}, got ${typeof value}`);
  }
  return value;
}

/** Reads a column that must hold text or NULL. */
export function nullableText(row: Row, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : text(row, column);
}

/** Reads a column that must hold an integer or a real (bm25 scores). */
export function numeric(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "number") {
    throw new TypeError(`Expected a number in column ${column}, got ${typeof value}`);
  }
  return value;
}

/** Runs `PRAGMA <statement>` and returns the first column of its first row. */
export function pragma(connection: DatabaseSync, statement: string): SQLOutputValue {
  const row = connection.prepare(`PRAGMA ${statement}`).get();
  if (row === undefined) return null;
  return Object.values(row)[0] ?? null;
}

/** Collapses whitespace so formatting never counts as drift. */
export function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, " ").trim();
}

/** One row of `sqlite_master`, SQL normalized. */
export interface SchemaObject {
  /** `table`, `index`, `view` or `trigger`. */
  type: string;
  /** The object's name. */
  name: string;
  /** The table it belongs to. */
  tableName: string;
  /** Its normalized `CREATE …` text ("" for objects without SQL). */
  sql: string;
}

/** Lists `sqlite_master` without SQLite's own objects (`sqlite_*`). */
export function readSchemaObjects(connection: DatabaseSync): SchemaObject[] {
  return connection.prepare(
    `SELECT type, name, tbl_name, sql FROM sqlite_master
     WHERE substr(name, 1, 7) <> 'sqlite_' ORDER BY type, name`,
  ).all().map((row) => ({
    type: text(row, "type"),
    name: text(row, "name"),
    tableName: text(row, "tbl_name"),
    sql: normalizeSql(nullableText(row, "sql") ?? ""),
  }));
}
