import assert from "node:assert/strict";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import { id, page, record, row } from "./_memory_fixtures.ts";
import {
  correctMemory,
  createMemory,
  forgetMemory,
  loadMemories,
  loadMoreMemories,
  memoryDetails,
  memoryList,
} from "./memories.ts";
import {
  DEFAULT_MEMORY_FILTER,
  emptyMemoryList,
  MEMORY_PAGE_SIZE,
  mergePage,
} from "./memory_list.ts";

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
