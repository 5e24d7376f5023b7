import assert from "node:assert/strict";
import type { Memory, MemorySummary } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  correctMemory,
  createMemory,
  DEFAULT_MEMORY_FILTER,
  emptyMemoryList,
  forgetMemory,
  knownWorkspaceKeys,
  listParams,
  loadMemories,
  loadMoreMemories,
  matchesFilter,
  MEMORY_PAGE_SIZE,
  memoryDetails,
  memoryList,
  mergePage,
  summaryOf,
  upsertMemory,
} from "./memories.ts";

const id = (n: number) => `memory_${n.toString(16).padStart(32, "0")}`;

function row(n: number, overrides: Partial<MemorySummary> = {}): MemorySummary {
  return {
    id: id(n),
    kind: "fact",
    scope: { type: "global", key: null },
    revision: 1,
    state: "active",
    preview: `memory ${n}`,
    createdAt: "2026-03-01T00:00:00.000Z",
    // Higher n = more recently updated, so pages are n descending.
    updatedAt: `2026-03-01T00:00:${String(n).padStart(2, "0")}.000Z`,
    forgottenAt: null,
    ...overrides,
  };
}

function record(n: number, overrides: Partial<Memory> = {}): Memory {
  const { preview: _preview, ...summary } = row(n);
  return {
    ...summary,
    content: `memory ${n}`,
    provenance: {
      sourceKind: "user_explicit",
      threadId: null,
      turnId: null,
      itemId: null,
      status: "none",
    },
    ...overrides,
  };
}

const page = (rows: MemorySummary[], nextCursor: string | null) => ({
  memories: rows,
  nextCursor,
  hasMore: nextCursor !== null,
});

Deno.test("memories: the filter becomes memory.list params; 'all' sends nothing", () => {
  assert.deepEqual(listParams(DEFAULT_MEMORY_FILTER, null), {
    limit: MEMORY_PAGE_SIZE,
    state: "active",
  });
  assert.deepEqual(listParams({ state: "all", kind: "preference", scope: "ws:abc" }, "c2"), {
    limit: MEMORY_PAGE_SIZE,
    cursor: "c2",
    kind: "preference",
    scope: { type: "workspace", key: "ws:abc" },
  });
  assert.deepEqual(listParams({ state: "forgotten", kind: "all", scope: "global" }, null), {
    limit: MEMORY_PAGE_SIZE,
    state: "forgotten",
    scope: { type: "global", key: null },
  });
});

Deno.test("memories: filters match state, kind and the exact scope", () => {
  const workspace = row(1, { scope: { type: "workspace", key: "ws:abc" }, kind: "project" });
  assert.ok(matchesFilter(workspace, { state: "active", kind: "project", scope: "ws:abc" }));
  assert.ok(!matchesFilter(workspace, { state: "active", kind: "all", scope: "ws:other" }));
  assert.ok(!matchesFilter(workspace, { state: "active", kind: "all", scope: "global" }));
  assert.ok(!matchesFilter(workspace, { state: "active", kind: "fact", scope: "all" }));
  assert.ok(!matchesFilter(row(2, { state: "forgotten" }), DEFAULT_MEMORY_FILTER));
  assert.ok(
    matchesFilter(row(2, { state: "forgotten" }), { ...DEFAULT_MEMORY_FILTER, state: "all" }),
  );
});

Deno.test("memories: pages append in order and never show a memory twice", () => {
  const first = mergePage(emptyMemoryList(), page([row(9), row(8)], "c1"), "replace");
  assert.equal(first.hasMore, true);
  const second = mergePage(
    first,
    page([row(8, { revision: 2, preview: "newer" }), row(7)], null),
    "append",
  );
  assert.deepEqual(second.items.map((m) => m.id), [id(9), id(8), id(7)]);
  assert.equal(second.items[1].preview, "newer", "the newer revision wins");
  assert.equal(second.hasMore, false);
  assert.equal(second.nextCursor, null);
  const replaced = mergePage(second, page([row(3)], null), "replace");
  assert.deepEqual(replaced.items.map((m) => m.id), [id(3)]);
});

Deno.test("memories: a changed memory moves to its place, or leaves a list it no longer fits", () => {
  const list = { ...emptyMemoryList(), items: [row(9), row(5), row(3)], status: "ready" as const };
  const corrected = upsertMemory(
    list,
    row(3, { revision: 2, updatedAt: "2026-03-01T00:00:10.000Z" }),
  );
  assert.deepEqual(corrected.items.map((m) => m.id), [id(3), id(9), id(5)]);
  const forgotten = upsertMemory(list, row(5, { state: "forgotten" }));
  assert.deepEqual(forgotten.items.map((m) => m.id), [id(9), id(3)]);
  const created = upsertMemory(list, row(7));
  assert.deepEqual(created.items.map((m) => m.id), [id(9), id(7), id(5), id(3)]);
});

Deno.test("memories: a row that sorts past the loaded pages waits for its page", () => {
  const list = { ...emptyMemoryList(), items: [row(9), row(5)], hasMore: true, nextCursor: "c" };
  assert.deepEqual(upsertMemory(list, row(2)).items.map((m) => m.id), [id(9), id(5)]);
  const complete = { ...list, hasMore: false, nextCursor: null };
  assert.deepEqual(upsertMemory(complete, row(2)).items.map((m) => m.id), [id(9), id(5), id(2)]);
});

Deno.test("memories: a record's list row previews its content as the runtime does", () => {
  const long = "word ".repeat(100);
  const summary = summaryOf(record(1, { content: `  line one\n\n${long}` }));
  assert.equal(summary.preview.length, 160);
  assert.ok(summary.preview.startsWith("line one word"));
  assert.ok(summary.preview.endsWith("…"));
  assert.equal(summaryOf(record(1, { content: null, state: "forgotten" })).preview, "");
  const emoji = summaryOf(record(1, { content: "😀".repeat(100) })).preview;
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), "no lone surrogate before the ellipsis");
});

Deno.test("memories: the scope filter offers the workspace keys it has seen", () => {
  const list = {
    ...emptyMemoryList({ ...DEFAULT_MEMORY_FILTER, scope: "ws:picked" }),
    items: [
      row(1, { scope: { type: "workspace", key: "ws:b" } }),
      row(2),
      row(3, {
        scope: { type: "workspace", key: "ws:a" },
      }),
    ],
  };
  assert.deepEqual(knownWorkspaceKeys(list), ["ws:a", "ws:b", "ws:picked"]);
});

Deno.test("memories: load, then Load more with the cursor and the same filter", async () => {
  memoryList.value = emptyMemoryList();
  const filter = { state: "all" as const, kind: "fact" as const, scope: "all" };
  const fake = fakeCall({
    "memory.list": (params) =>
      params.cursor === "c1" ? page([row(7)], null) : page([row(9), row(8)], "c1"),
  });
  await loadMemories(filter, fake.call);
  assert.deepEqual(memoryList.value.items.map((m) => m.id), [id(9), id(8)]);
  await loadMoreMemories(fake.call);
  assert.deepEqual(memoryList.value.items.map((m) => m.id), [id(9), id(8), id(7)]);
  assert.deepEqual(fake.calls.map((c) => c.params), [
    { limit: MEMORY_PAGE_SIZE, kind: "fact" },
    { limit: MEMORY_PAGE_SIZE, cursor: "c1", kind: "fact" },
  ]);
  await loadMoreMemories(fake.call);
  assert.equal(fake.calls.length, 2, "no request past the last page");
});

Deno.test("memories: a page for an older filter is dropped when the filter changed", async () => {
  memoryList.value = emptyMemoryList();
  let releaseOld: () => void = () => {};
  const slow = fakeCall({
    "memory.list": () =>
      new Promise((resolve) => (releaseOld = () => resolve(page([row(1)], null)))),
  });
  const fast = fakeCall({ "memory.list": () => page([row(2)], null) });
  const old = loadMemories(DEFAULT_MEMORY_FILTER, slow.call);
  await loadMemories({ ...DEFAULT_MEMORY_FILTER, kind: "project" }, fast.call);
  releaseOld();
  await old;
  assert.deepEqual(memoryList.value.items.map((m) => m.id), [id(2)]);
  assert.equal(memoryList.value.filter.kind, "project");
});

Deno.test("memories: a failed Load more keeps the rows and the cursor for a retry", async () => {
  memoryList.value = mergePage(emptyMemoryList(), page([row(9)], "c1"), "replace");
  const fake = fakeCall({
    "memory.list": () => {
      throw rpcFailure("invalid_cursor", "Cursor is not valid");
    },
  });
  await loadMoreMemories(fake.call);
  assert.deepEqual(memoryList.value.items.map((m) => m.id), [id(9)]);
  assert.equal(memoryList.value.nextCursor, "c1");
  assert.equal(memoryList.value.status, "ready");
  assert.equal(memoryList.value.error?.code, "invalid_cursor");
});

Deno.test("memories: create sends the form's fields and shows the new record first", async () => {
  memoryList.value = mergePage(emptyMemoryList(), page([row(5)], null), "replace");
  const fake = fakeCall({
    "memory.create": () => ({ memoryId: id(6), resultingRevision: 1, created: true }),
    "memory.get": () => ({ memory: record(6, { kind: "preference", content: "Likes tea" }) }),
  });
  await createMemory(
    {
      kind: "preference",
      scope: "global",
      content: "Likes tea",
      sourceItemId: null,
      clientRequestId: "req-1",
    },
    fake.call,
  );
  assert.deepEqual(fake.calls[0], {
    method: "memory.create",
    params: {
      kind: "preference",
      scope: { type: "global", key: null },
      content: "Likes tea",
      clientRequestId: "req-1",
    },
  });
  assert.deepEqual(memoryList.value.items.map((m) => m.preview), ["Likes tea", "memory 5"]);
  assert.equal(memoryDetails.value.get(id(6))?.content, "Likes tea");
});

Deno.test("memories: a source Item is sent as a session_item source", async () => {
  memoryList.value = emptyMemoryList();
  const itemId = `item_${"a".repeat(32)}`;
  const fake = fakeCall({
    "memory.create": () => ({ memoryId: id(7), resultingRevision: 1, created: true }),
    "memory.get": () => ({ memory: record(7) }),
  });
  await createMemory(
    { kind: "fact", scope: "ws:abc", content: "x", sourceItemId: itemId, clientRequestId: "r" },
    fake.call,
  );
  assert.deepEqual(fake.calls[0].params.source, { type: "session_item", itemId });
  assert.deepEqual(fake.calls[0].params.scope, { type: "workspace", key: "ws:abc" });
});

Deno.test("memories: correct sends the expected revision and updates the row", async () => {
  memoryList.value = mergePage(emptyMemoryList(), page([row(5)], null), "replace");
  const fake = fakeCall({
    "memory.correct": () => ({ memoryId: id(5), resultingRevision: 2, created: false }),
    "memory.get": () => ({
      memory: record(5, { revision: 2, content: "fixed", updatedAt: "2026-03-02T00:00:00.000Z" }),
    }),
  });
  const corrected = await correctMemory(record(5), "fixed", "req-2", fake.call);
  assert.equal(corrected.revision, 2);
  assert.deepEqual(fake.calls[0].params, {
    memoryId: id(5),
    expectedRevision: 1,
    content: "fixed",
    clientRequestId: "req-2",
  });
  assert.equal(memoryList.value.items[0].preview, "fixed");
  assert.equal(memoryList.value.items[0].revision, 2);
});

Deno.test("memories: a revision conflict rethrows and re-reads the current record", async () => {
  memoryList.value = mergePage(emptyMemoryList(), page([row(5)], null), "replace");
  memoryDetails.value = new Map();
  const fake = fakeCall({
    "memory.correct": () => {
      throw rpcFailure("memory_revision_conflict", "Memory changed");
    },
    "memory.get": () => ({ memory: record(5, { revision: 3, content: "changed elsewhere" }) }),
  });
  await assert.rejects(
    () => correctMemory(record(5), "mine", "req-3", fake.call),
    /Memory changed/,
  );
  assert.equal(memoryDetails.value.get(id(5))?.revision, 3);
});

Deno.test("memories: forgetting removes the row from the active list", async () => {
  memoryList.value = mergePage(emptyMemoryList(), page([row(5), row(4)], null), "replace");
  const fake = fakeCall({
    "memory.forget": () => ({ memoryId: id(5), resultingRevision: 2, created: false }),
    "memory.get": () => ({
      memory: record(5, {
        revision: 2,
        state: "forgotten",
        content: null,
        forgottenAt: "2026-03-02T00:00:00.000Z",
      }),
    }),
  });
  await forgetMemory(row(5), "req-4", fake.call);
  assert.deepEqual(fake.calls[0].params, {
    memoryId: id(5),
    expectedRevision: 1,
    clientRequestId: "req-4",
  });
  assert.deepEqual(memoryList.value.items.map((m) => m.id), [id(4)]);
});
