import assert from "node:assert/strict";
import { id, page, record, row } from "./_memory_fixtures.ts";
import {
  DEFAULT_MEMORY_FILTER,
  emptyMemoryList,
  knownWorkspaceKeys,
  listParams,
  matchesFilter,
  MEMORY_PAGE_SIZE,
  mergePage,
  summaryOf,
  upsertMemory,
} from "./memory_list.ts";

Deno.test("memory list: the filter becomes memory.list params; 'all' sends nothing", () => {
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

Deno.test("memory list: filters match state, kind and the exact scope", () => {
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

Deno.test("memory list: pages append in order and never show a memory twice", () => {
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

Deno.test("memory list: a changed memory moves to its place, or leaves a list it no longer fits", () => {
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

Deno.test("memory list: a row that sorts past the loaded pages waits for its page", () => {
  const list = { ...emptyMemoryList(), items: [row(9), row(5)], hasMore: true, nextCursor: "c" };
  assert.deepEqual(upsertMemory(list, row(2)).items.map((m) => m.id), [id(9), id(5)]);
  const complete = { ...list, hasMore: false, nextCursor: null };
  assert.deepEqual(upsertMemory(complete, row(2)).items.map((m) => m.id), [id(9), id(5), id(2)]);
});

Deno.test("memory list: a record's list row previews its content as the runtime does", () => {
  const long = "word ".repeat(100);
  const summary = summaryOf(record(1, { content: `  line one\n\n${long}` }));
  assert.equal(summary.preview.length, 160);
  assert.ok(summary.preview.startsWith("line one word"));
  assert.ok(summary.preview.endsWith("…"));
  assert.equal(summaryOf(record(1, { content: null, state: "forgotten" })).preview, "");
  const emoji = summaryOf(record(1, { content: "😀".repeat(100) })).preview;
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), "no lone surrogate before the ellipsis");
});

Deno.test("memory list: the scope filter offers the workspace keys it has seen", () => {
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
