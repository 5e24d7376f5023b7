/**
 * The one prepared-statement cache of the store, per connection, shared by state.db
 * (writes, projections, reads) and memory.db: preparing is a large share of a small
 * statement's cost, and the hot paths run the same few texts.
 *
 * What may be cached: SQL whose text is fixed, or built from a bounded set of shapes
 * (memory.list's optional filters). SQL that embeds values (PRAGMAs with an argument,
 * maintenance over table names) and statements consumed with `iterate()` (a second use
 * of the same statement would reset the open iterator: `iterateJournal`) are prepared
 * where they are used instead.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { STATEMENT_CACHE_MAX_ENTRIES } from "./limits.ts";

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The connection's prepared statement for `sql`, prepared on first use.
 *
 * @param connection the connection
 * @param sql a fixed SQL text (see the module note)
 * @returns the cached statement
 */
export function statement(connection: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(connection);
  if (cache === undefined) caches.set(connection, cache = new Map());
  let prepared = cache.get(sql);
  if (prepared === undefined) {
    // Past the bound the oldest text goes (Map keeps insertion order); in use the
    // bound is never reached, so nothing cheaper than FIFO is worth having.
    if (cache.size >= STATEMENT_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(sql, prepared = connection.prepare(sql));
  }
  return prepared;
}

/**
 * How many statements the connection has cached (tests: the cache stays bounded).
 *
 * @param connection the connection
 * @returns the count
 */
export function cachedStatementCount(connection: DatabaseSync): number {
  return caches.get(connection)?.size ?? 0;
}
