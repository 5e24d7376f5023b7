import assert from "node:assert/strict";
import { ID_PREFIXES, Identifier, newId, ThreadId } from "./mod.ts";

Deno.test("newId mints prefix + 32 lowercase hex, unique", () => {
  const seen = new Set<string>();
  for (const prefix of ID_PREFIXES) {
    const id = newId(prefix);
    assert.match(id, new RegExp(`^${prefix}_[0-9a-f]{32}$`));
    seen.add(id);
  }
  for (let i = 0; i < 1000; i++) seen.add(newId("item"));
  assert.equal(seen.size, ID_PREFIXES.length + 1000);
});

Deno.test("id schemas check the prefix and the digits", () => {
  assert.ok(ThreadId.safeParse(newId("thread")).success);
  assert.ok(!ThreadId.safeParse(newId("turn")).success);
  assert.ok(!ThreadId.safeParse("thread_" + "A".repeat(32)).success);
  assert.ok(!ThreadId.safeParse("thread_" + "a".repeat(31)).success);
});

Deno.test("generic identifiers are 1–200 characters", () => {
  assert.ok(Identifier.safeParse("x".repeat(200)).success);
  assert.ok(!Identifier.safeParse("x".repeat(201)).success);
  assert.ok(!Identifier.safeParse("").success);
});
