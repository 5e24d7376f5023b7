import type { DatabaseSync, StatementSync } from "node:sqlite";

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * A prepared statement, cached per connection: preparing is a large share of a
 * small write's cost, and the journal's hot path runs the same few statements.
 */
export function statement(connection: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(connection);
  if (!cache) caches.set(connection, cache = new Map());
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, prepared = connection.prepare(sql));
  return prepared;
}
