import assert from "node:assert/strict";
import type { MemoryScope } from "@daedalus/protocol";
import { MemoryStore } from "./store.ts";
import {
  fuseByReciprocalRank,
  RECALL_STRATEGY,
  recallMemories,
  recallQueryTokens,
} from "./recall.ts";

const GLOBAL: MemoryScope = { type: "global", key: null };

function withMemories(
  contents: readonly (string | { content: string; scope: MemoryScope })[],
  fn: (store: MemoryStore, ids: string[]) => void,
) {
  const store = MemoryStore.open(":memory:");
  try {
    const ids = contents.map((entry, index) => {
      const { content, scope } = typeof entry === "string"
        ? { content: entry, scope: GLOBAL }
        : entry;
      return store.create({ kind: "fact", scope, content, clientRequestId: `r${index}` }).memoryId;
    });
    fn(store, ids);
  } finally {
    store.close();
  }
}

Deno.test("RRF adds both pools' terms, a missing pool costs nothing, ties go by id", () => {
  const fused = fuseByReciprocalRank([
    { id: "a", bm25: -3, shared: 1 }, // fts 1, overlap 3
    { id: "b", bm25: -2, shared: 3 }, // fts 2, overlap 1
    { id: "c", bm25: -1, shared: 2 }, // fts 3, overlap 2
    { id: "d", bm25: -0.5, shared: 0 }, // fts 4, not in the overlap pool
  ]);
  const score = (...ranks: number[]) => ranks.reduce((sum, rank) => sum + 1 / (60 + rank), 0);
  // b (2, 1) beats a (1, 3): one rank down in BM25 costs less than two in overlap.
  assert.deepEqual(fused.map((entry) => entry.id), ["b", "a", "c", "d"]);
  assert.equal(fused[0].score, score(2, 1));
  assert.equal(fused[1].score, score(1, 3));
  assert.equal(fused[2].score, score(3, 2));
  assert.equal(fused[3].score, score(4));
  assert.deepEqual([fused[3].ftsRank, fused[3].overlapRank], [4, null]);
  // a (1,3) and b (3,1) tie exactly: the smaller id wins.
  const tie = fuseByReciprocalRank([
    { id: "b", bm25: -9, shared: 1 },
    { id: "x", bm25: -5, shared: 2 },
    { id: "a", bm25: -1, shared: 3 },
  ]);
  assert.equal(tie[0].score, tie[1].score);
  assert.deepEqual(tie.slice(0, 2).map((entry) => entry.id), ["a", "b"]);
});

Deno.test("query tokens: Han runs of two or more search by bigram", () => {
  assert.deepEqual(recallQueryTokens("咖啡"), ["咖啡"]);
  assert.deepEqual(recallQueryTokens("茶"), ["茶"]);
  assert.deepEqual(recallQueryTokens("喜欢咖啡 Tea"), ["喜欢", "欢咖", "咖啡", "tea"]);
});

Deno.test("one- and two-character Chinese queries find their memories through the index", () => {
  withMemories(
    ["用户喜欢喝咖啡", "早上喝茶", "周报每周五提交", "deadline friday"],
    (store, ids) => {
      const one = recallMemories(store.database, { query: "茶", workspaceKey: null });
      assert.equal(one.strategy, RECALL_STRATEGY);
      assert.deepEqual(one.memories.map((m) => m.memoryId), [ids[1]]);
      const two = recallMemories(store.database, { query: "咖啡", workspaceKey: null });
      assert.deepEqual(two.memories.map((m) => m.memoryId), [ids[0]]);
      assert.equal(two.memories[0].content, "用户喜欢喝咖啡");
      assert.equal(two.memories[0].revision, 1);
      const sentence = recallMemories(store.database, {
        query: "我每周都写周报",
        workspaceKey: null,
      });
      assert.equal(sentence.memories[0].memoryId, ids[2]);
    },
  );
});

Deno.test("English recall ranks the memory sharing most words first", () => {
  withMemories([
    "The user prefers dark mode in every editor",
    "The user drinks coffee every morning",
    "Release deadline is Friday",
    "Café Zürich meetups on Tuesday",
  ], (store, ids) => {
    const { memories } = recallMemories(store.database, {
      query: "what coffee does the user drink in the morning",
      workspaceKey: null,
    });
    assert.equal(memories[0].memoryId, ids[1]);
    assert.ok(memories.every((m) => m.memoryId !== ids[2]), "an unrelated memory was recalled");
    const accents = recallMemories(store.database, { query: "cafe zurich", workspaceKey: null });
    assert.deepEqual(accents.memories.map((m) => m.memoryId), [ids[3]]);
    assert.equal(
      recallMemories(store.database, { query: "…!?", workspaceKey: null }).memories.length,
      0,
    );
  });
});

Deno.test("recall keeps to active memories of the global scope and the given workspace", () => {
  withMemories([
    "coffee global",
    { content: "coffee in workspace one", scope: { type: "workspace", key: "ws-1" } },
    { content: "coffee in workspace two", scope: { type: "workspace", key: "ws-2" } },
    "coffee forgotten",
  ], (store, ids) => {
    store.forget({ memoryId: ids[3], expectedRevision: 1, clientRequestId: "f" });
    const found = recallMemories(store.database, { query: "coffee", workspaceKey: "ws-1" });
    assert.deepEqual(found.memories.map((m) => m.memoryId).sort(), [ids[0], ids[1]].sort());
    const globalOnly = recallMemories(store.database, { query: "coffee", workspaceKey: null });
    assert.deepEqual(globalOnly.memories.map((m) => m.memoryId), [ids[0]]);
  });
});

Deno.test("the selection stops at 8 memories and 6,000 characters", () => {
  const many = Array.from({ length: 12 }, (_, i) => `tea note ${i}`);
  withMemories(many, (store) => {
    const found = recallMemories(store.database, { query: "tea", workspaceKey: null });
    assert.equal(found.memories.length, 8);
    assert.equal(found.omittedCount, 4);
    assert.equal(found.candidateCount, 12);
  });
  const long = Array.from(
    { length: 4 },
    (_, i) => `tea ${String(i).repeat(1)} ${"x".repeat(1990)}`,
  );
  withMemories(long, (store) => {
    const found = recallMemories(store.database, { query: "tea", workspaceKey: null });
    assert.equal(found.memories.length, 3);
    assert.ok(found.totalChars <= 6000, `selected ${found.totalChars} characters`);
  });
});

Deno.test("a corrected memory is recalled by its new content only", () => {
  withMemories(["likes green tea"], (store, [id]) => {
    store.correct({
      memoryId: id,
      expectedRevision: 1,
      content: "likes black coffee",
      clientRequestId: "c",
    });
    assert.equal(
      recallMemories(store.database, { query: "green", workspaceKey: null }).memories.length,
      0,
    );
    const found = recallMemories(store.database, { query: "coffee", workspaceKey: null }).memories;
    assert.deepEqual(found.map((m) => [m.memoryId, m.revision]), [[id, 2]]);
  });
});

Deno.test("in-pool ties go to the newer index row", () => {
  withMemories(["green tea daily", "green tea daily"], (store, ids) => {
    const { memories } = recallMemories(store.database, { query: "green tea", workspaceKey: null });
    assert.deepEqual(memories.map((m) => m.memoryId), [ids[1], ids[0]]);
    assert.deepEqual([memories[0].ftsRank, memories[0].overlapRank], [1, 1]);
  });
});

Deno.test("overlap counts accented and unaccented words as the same word", () => {
  withMemories(["Zürich café", "cafe opening hours", "zurich office"], (store, ids) => {
    const { memories } = recallMemories(store.database, {
      query: "cafe zurich",
      workspaceKey: null,
    });
    const both = memories.find((m) => m.memoryId === ids[0]);
    assert.equal(both?.overlapRank, 1);
    assert.equal(memories[0].memoryId, ids[0]);
  });
});

Deno.test("cached document counts follow this connection's and another's writes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-recall-" });
  const first = MemoryStore.open(`${dir}/memory.db`);
  const second = MemoryStore.open(`${dir}/memory.db`);
  try {
    const recall = () =>
      recallMemories(first.database, { query: "espresso", workspaceKey: null }).memories;
    assert.equal(recall().length, 0);
    first.create({ kind: "fact", scope: GLOBAL, content: "espresso", clientRequestId: "a" });
    assert.equal(recall().length, 1);
    second.create({ kind: "fact", scope: GLOBAL, content: "espresso twice", clientRequestId: "b" });
    assert.equal(recall().length, 2);
  } finally {
    first.close();
    second.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("all-common queries rank the newest matches and count shared words in them", () => {
  // Over 2,000 documents hold each word: the newest 600 matches form the window.
  const many = Array.from({ length: 2_100 }, (_, i) => `tea milk ${i}`);
  withMemories(many, (store, ids) => {
    const found = recallMemories(store.database, { query: "tea milk", workspaceKey: null });
    assert.equal(found.candidateCount, 600);
    assert.deepEqual(found.memories.map((m) => m.memoryId), ids.slice(-8).reverse());
    assert.deepEqual([found.memories[0].ftsRank, found.memories[0].overlapRank], [1, 1]);
  });
});
