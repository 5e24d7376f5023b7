import assert from "node:assert/strict";
import { ExtractionCursors, type ExtractionPosition } from "./cursors.ts";
import { MemoryStore } from "./store.ts";

const first: ExtractionPosition = {
  turnOrdinal: 1,
  runCreatedAt: "2026-01-01T00:00:00.000Z",
  runId: "run_a",
  itemOrdinal: 2,
  itemId: "item_a",
};
const later: ExtractionPosition = { ...first, turnOrdinal: 2, runId: "run_b", itemId: "item_b" };

async function withCursors(fn: (cursors: ExtractionCursors, path: string) => void) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/memory.db`;
  const store = MemoryStore.open(path);
  try {
    fn(new ExtractionCursors(store.database), path);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a thread never refined has an empty cursor", async () => {
  await withCursors((cursors) => {
    assert.deepEqual(cursors.read("thread_x"), {
      threadId: "thread_x",
      position: null,
      attemptedAt: null,
      extractedAt: null,
    });
  });
});

Deno.test("an attempt records its time without a position", async () => {
  await withCursors((cursors) => {
    cursors.recordAttempt("thread_x", "2026-01-01T00:00:01.000Z");
    const cursor = cursors.read("thread_x");
    assert.equal(cursor.position, null);
    assert.equal(cursor.attemptedAt, "2026-01-01T00:00:01.000Z");
    assert.equal(cursor.extractedAt, null);
  });
});

Deno.test("advance stores the position, survives reopening and never moves back", async () => {
  await withCursors((cursors, path) => {
    cursors.recordAttempt("thread_x", "2026-01-01T00:00:01.000Z");
    cursors.advance("thread_x", later, "2026-01-01T00:00:02.000Z");
    cursors.advance("thread_x", first, "2026-01-01T00:00:03.000Z");
    const reopened = MemoryStore.open(path);
    try {
      const cursor = new ExtractionCursors(reopened.database).read("thread_x");
      assert.deepEqual(cursor.position, later, "the cursor moved backwards");
      assert.equal(cursor.attemptedAt, "2026-01-01T00:00:01.000Z");
      assert.equal(cursor.extractedAt, "2026-01-01T00:00:03.000Z");
    } finally {
      reopened.close();
    }
    assert.deepEqual(cursors.read("thread_y").position, null, "another thread was touched");
  });
});
