import assert from "node:assert/strict";
import { newId } from "@daedalus/protocol";
import { MemoryError } from "./errors.ts";
import { MemoryStore, type ResolveItem } from "./store.ts";

const GLOBAL = { type: "global", key: null } as const;
const item = newId("item");
const resolveItem: ResolveItem = (itemId) =>
  itemId === item
    ? { threadId: newIdOnce.thread, turnId: newIdOnce.turn, itemId, contentDigest: "sha256:i" }
    : null;
const newIdOnce = { thread: newId("thread"), turn: newId("turn") };

function withStore(fn: (store: MemoryStore) => void) {
  let tick = 0;
  const store = MemoryStore.open(":memory:", {
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
  try {
    fn(store);
  } finally {
    store.close();
  }
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof MemoryError, `expected a MemoryError, got ${error}`);
    return error.code;
  }
  assert.fail("the call should have been refused");
}

Deno.test("create, correct, forget follow the seed's revision flow", () => {
  withStore((store) => {
    const created = store.create({
      kind: "preference",
      scope: GLOBAL,
      content: "  回复尽量简洁 ",
      clientRequestId: "req-4",
      source: { type: "session_item", itemId: item },
    }, { resolveItem });
    assert.deepEqual({ ...created, memoryId: "" }, {
      memoryId: "",
      resultingRevision: 1,
      created: true,
    });
    const { memoryId } = created;
    assert.equal(store.get(memoryId, { resolveItem }).content, "回复尽量简洁");
    assert.equal(store.get(memoryId, { resolveItem }).provenance.status, "available");
    assert.equal(store.get(memoryId).provenance.status, "unavailable");

    const corrected = store.correct({
      memoryId,
      expectedRevision: 1,
      content: "回复尽量简洁，用中文",
      clientRequestId: "req-5",
    });
    assert.deepEqual(corrected, { memoryId, resultingRevision: 2, created: false });
    const memory = store.get(memoryId);
    assert.equal(memory.revision, 2);
    assert.equal(memory.provenance.sourceKind, "user_explicit");
    assert.equal(memory.provenance.status, "none");

    const forgotten = store.forget({ memoryId, expectedRevision: 2, clientRequestId: "req-6" });
    assert.deepEqual(forgotten, { memoryId, resultingRevision: 3, created: false });
    const tomb = store.get(memoryId);
    assert.equal(tomb.state, "forgotten");
    assert.equal(tomb.content, null);
    assert.ok(tomb.forgottenAt);
  });
});

Deno.test("forget erases every revision's content and digest and the FTS row", () => {
  withStore((store) => {
    const { memoryId } = store.create({
      kind: "fact",
      scope: GLOBAL,
      content: "secret-ish fact",
      clientRequestId: "a",
      source: { type: "session_item", itemId: item },
    }, { resolveItem });
    store.correct({ memoryId, expectedRevision: 1, content: "second text", clientRequestId: "b" });
    store.forget({ memoryId, expectedRevision: 2, clientRequestId: "c" });
    const c = store.database.connection;
    const rows = c.prepare(
      `SELECT revision, content, content_digest, content_redacted_at, source_item_digest
       FROM memory_revisions WHERE memory_id = ? ORDER BY revision`,
    ).all(memoryId);
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.equal(row.content, null, `revision ${row.revision} kept content`);
      assert.equal(row.content_digest, null, `revision ${row.revision} kept its digest`);
      assert.equal(row.source_item_digest, null);
    }
    assert.ok(rows[0].content_redacted_at && rows[1].content_redacted_at);
    assert.equal(rows[2].content_redacted_at, null);
    const fts = c.prepare("SELECT count(*) AS n FROM memory_fts WHERE memory_id = ?").get(memoryId);
    assert.equal(fts?.n, 0);
  });
});

Deno.test("idempotency: replays return the first result, other requests conflict", () => {
  withStore((store) => {
    const input = { kind: "fact", scope: GLOBAL, content: "x", clientRequestId: "r1" } as const;
    const first = store.create(input);
    assert.deepEqual(store.create({ ...input, content: "other text" }), first);
    assert.equal(store.list().memories.length, 1);
    assert.equal(
      refusal(() => store.create({ ...input, kind: "project" })),
      "memory_idempotency_conflict",
    );
    assert.equal(
      refusal(() =>
        store.correct({
          memoryId: first.memoryId,
          expectedRevision: 1,
          content: "y",
          clientRequestId: "r1",
        })
      ),
      "memory_idempotency_conflict",
    );
    const correct = {
      memoryId: first.memoryId,
      expectedRevision: 1,
      content: "y",
      clientRequestId: "r2",
    };
    assert.deepEqual(store.correct(correct), store.correct(correct));
    const forget = { memoryId: first.memoryId, expectedRevision: 2, clientRequestId: "r3" };
    assert.deepEqual(store.forget(forget), store.forget(forget));
  });
});

Deno.test("revision conflicts, forgotten and missing memories are refused with reason codes", () => {
  withStore((store) => {
    const { memoryId } = store.create({
      kind: "fact",
      scope: GLOBAL,
      content: "x",
      clientRequestId: "a",
    });
    assert.equal(
      refusal(() =>
        store.correct({ memoryId, expectedRevision: 2, content: "y", clientRequestId: "b" })
      ),
      "memory_revision_conflict",
    );
    assert.equal(
      refusal(() =>
        store.forget({ memoryId: newId("memory"), expectedRevision: 1, clientRequestId: "c" })
      ),
      "memory_not_found",
    );
    assert.equal(refusal(() => store.get(newId("memory"))), "memory_not_found");
    store.forget({ memoryId, expectedRevision: 1, clientRequestId: "d" });
    assert.equal(
      refusal(() => store.forget({ memoryId, expectedRevision: 2, clientRequestId: "e" })),
      "memory_forgotten",
    );
    assert.equal(
      refusal(() =>
        store.correct({ memoryId, expectedRevision: 2, content: "z", clientRequestId: "f" })
      ),
      "memory_forgotten",
    );
  });
});

Deno.test("sources must resolve; content is bounded", () => {
  withStore((store) => {
    const base = { kind: "fact", scope: GLOBAL, content: "x" } as const;
    const missing = { type: "session_item", itemId: newId("item") } as const;
    assert.equal(
      refusal(() =>
        store.create({ ...base, clientRequestId: "a", source: missing }, { resolveItem })
      ),
      "memory_source_unavailable",
    );
    assert.equal(
      refusal(() =>
        store.create({
          ...base,
          clientRequestId: "b",
          source: { type: "session_item", itemId: item },
        })
      ),
      "memory_source_unavailable",
    );
    assert.equal(
      refusal(() => store.create({ ...base, content: "x".repeat(2049), clientRequestId: "c" })),
      "invalid_params",
    );
    assert.equal(
      refusal(() => store.create({ ...base, content: "   ", clientRequestId: "d" })),
      "invalid_params",
    );
    store.create({ ...base, content: "x".repeat(2048), clientRequestId: "e" });
    const auto = store.create({
      ...base,
      clientRequestId: "f",
      source: { type: "session_item", itemId: item, sourceKind: "auto_extracted" },
    }, { resolveItem });
    assert.equal(store.get(auto.memoryId, { resolveItem }).provenance.sourceKind, "auto_extracted");
  });
});

Deno.test("list pages by updated_at desc with a cursor, filters and short previews", () => {
  withStore((store) => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      ids.push(
        store.create({
          kind: i % 2 === 0 ? "fact" : "project",
          scope: i < 5 ? GLOBAL : { type: "workspace", key: "ws" },
          content: `memory ${i} ${"long ".repeat(60)}`,
          clientRequestId: `c${i}`,
        }).memoryId,
      );
    }
    store.correct({
      memoryId: ids[0],
      expectedRevision: 1,
      content: "now newest",
      clientRequestId: "x",
    });
    const first = store.list({ limit: 3 });
    assert.deepEqual(first.memories.map((m) => m.id), [ids[0], ids[6], ids[5]]);
    assert.ok(first.hasMore && first.nextCursor);
    assert.ok(first.memories.every((m) => m.preview.length <= 160));
    const second = store.list({ limit: 3, cursor: first.nextCursor });
    assert.deepEqual(second.memories.map((m) => m.id), [ids[4], ids[3], ids[2]]);
    const third = store.list({ limit: 3, cursor: second.nextCursor });
    assert.deepEqual(third.memories.map((m) => m.id), [ids[1]]);
    assert.equal(third.nextCursor, null);
    assert.equal(third.hasMore, false);
    assert.deepEqual(
      store.list({ scope: { type: "workspace", key: "ws" } }).memories.map((m) => m.id),
      [ids[6], ids[5]],
    );
    assert.equal(store.list({ kind: "project" }).memories.length, 3);
    store.forget({ memoryId: ids[1], expectedRevision: 1, clientRequestId: "y" });
    const forgotten = store.list({ state: "forgotten" }).memories;
    assert.deepEqual(forgotten.map((m) => [m.id, m.preview]), [[ids[1], ""]]);
    assert.equal(
      refusal(() => store.list({ kind: "fact", cursor: first.nextCursor })),
      "invalid_cursor",
    );
    assert.equal(refusal(() => store.list({ cursor: "garbage!" })), "invalid_cursor");
  });
});
