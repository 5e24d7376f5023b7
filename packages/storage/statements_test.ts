import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { cachedStatementCount, statement } from "./_statements.ts";
import { STATEMENT_CACHE_MAX_ENTRIES } from "./limits.ts";

Deno.test("a connection prepares each SQL text once and reuses it", () => {
  const connection = new DatabaseSync(":memory:");
  try {
    const first = statement(connection, "SELECT 1 AS n");
    assert.equal(statement(connection, "SELECT 1 AS n"), first);
    assert.equal(first.get()?.n, 1);
    assert.equal(cachedStatementCount(connection), 1);
  } finally {
    connection.close();
  }
});

Deno.test("two connections never share a prepared statement", () => {
  const one = new DatabaseSync(":memory:");
  const two = new DatabaseSync(":memory:");
  try {
    assert.notEqual(statement(one, "SELECT 1"), statement(two, "SELECT 1"));
  } finally {
    one.close();
    two.close();
  }
});

Deno.test("the cache stays bounded when SQL is built from values, and keeps working", () => {
  const connection = new DatabaseSync(":memory:");
  try {
    for (let n = 0; n < STATEMENT_CACHE_MAX_ENTRIES + 50; n++) {
      assert.equal(statement(connection, `SELECT ${n} AS n`).get()?.n, n);
    }
    assert.equal(cachedStatementCount(connection), STATEMENT_CACHE_MAX_ENTRIES);
    // An evicted text is prepared again on its next use.
    assert.equal(statement(connection, "SELECT 0 AS n").get()?.n, 0);
  } finally {
    connection.close();
  }
});
