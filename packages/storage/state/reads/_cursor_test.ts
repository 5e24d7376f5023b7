import assert from "node:assert/strict";
import {
  decodeCatalogCursor,
  decodeHistoryCursor,
  encodeCatalogCursor,
  encodeHistoryCursor,
} from "./_cursor.ts";
import { fixtureId } from "./_fixtures.ts";
import { ReadError } from "./errors.ts";

const SCOPE = { threadId: fixtureId("thread", 1), branchId: fixtureId("branch", 1) };

function encodeJson(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function expectInvalidCursor(fn: () => unknown): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ReadError, `expected a ReadError, got ${String(error)}`);
    assert.equal(error.code, "invalid_cursor");
    assert.equal(error.field, "cursor");
    return true;
  });
}

Deno.test("cursors round-trip and stay URL-safe", () => {
  const position = { updatedAt: "2026-03-01T10:00:00.000Z", id: fixtureId("thread", 255) };
  const catalog = encodeCatalogCursor("archived", position);
  assert.match(catalog, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCatalogCursor(catalog, "archived"), position);
  const history = encodeHistoryCursor(SCOPE, 42);
  assert.match(history, /^[A-Za-z0-9_-]+$/);
  assert.equal(decodeHistoryCursor(history, SCOPE), 42);
});

Deno.test("history cursors refuse tampered positions and other branches", () => {
  const body = { v: 1, s: "turns", t: SCOPE.threadId, b: SCOPE.branchId, o: 3 };
  assert.equal(decodeHistoryCursor(encodeJson(body), SCOPE), 3);
  for (const o of [0, -1, 1.5, "3", null]) {
    expectInvalidCursor(() => decodeHistoryCursor(encodeJson({ ...body, o }), SCOPE));
  }
  expectInvalidCursor(() => decodeHistoryCursor(encodeJson({ ...body, t: "thread_1" }), SCOPE));
  expectInvalidCursor(() =>
    decodeHistoryCursor(encodeJson(body), { ...SCOPE, branchId: fixtureId("branch", 2) })
  );
  expectInvalidCursor(() => decodeHistoryCursor(encodeJson({ ...body, s: "active" }), SCOPE));
});
