import assert from "node:assert/strict";
import {
  type ActiveMemory,
  classifyCandidate,
  MEMORY_MERGE_SIMILARITY_MIN,
  memoryTokenSimilarity,
  normalizeMemoryContent,
} from "./governance.ts";

const GLOBAL = { type: "global", key: null } as const;
const WORKSPACE = { type: "workspace", key: "ws-1" } as const;

const editor: ActiveMemory = {
  id: "memory_b",
  kind: "preference",
  scope: GLOBAL,
  revision: 3,
  content: "Prefers dark mode in the editor",
};
const city: ActiveMemory = {
  id: "memory_a",
  kind: "fact",
  scope: GLOBAL,
  revision: 1,
  content: "Lives in Berlin",
};

Deno.test("normalization folds width, case and whitespace", () => {
  assert.equal(normalizeMemoryContent("  Ｐrefers\tDark \n mode "), "prefers dark mode");
});

Deno.test("similarity is Jaccard over distinct tokens", () => {
  assert.equal(memoryTokenSimilarity("lives in Berlin", "Lives in Munich"), 0.5);
  assert.equal(memoryTokenSimilarity("a b", "a b"), 1);
  assert.equal(memoryTokenSimilarity("", "a"), 0);
  assert.ok(
    memoryTokenSimilarity("我喜欢喝咖啡", "我喜欢喝美式咖啡") >= MEMORY_MERGE_SIMILARITY_MIN,
  );
});

Deno.test("same normalized content, kind and scope is a duplicate", () => {
  const decision = classifyCandidate(
    { content: "prefers  DARK mode in the editor ", kind: "preference", scope: GLOBAL },
    [city, editor],
  );
  assert.deepEqual(decision, { action: "skip_duplicate", memoryId: "memory_b" });
});

Deno.test("the same text in another scope or kind is not a duplicate", () => {
  assert.deepEqual(
    classifyCandidate({ content: editor.content, kind: "preference", scope: WORKSPACE }, [editor]),
    { action: "create" },
  );
  assert.deepEqual(
    classifyCandidate({ content: editor.content, kind: "fact", scope: GLOBAL }, [editor]),
    { action: "create" },
  );
});

Deno.test("an explicit active memoryId is merged at its current revision", () => {
  const decision = classifyCandidate(
    { content: "Works remotely", kind: "fact", scope: GLOBAL, memoryId: "memory_b" },
    [city, editor],
  );
  assert.deepEqual(decision, { action: "merge", memoryId: "memory_b", expectedRevision: 3 });
});

Deno.test("an unknown memoryId falls back to similarity", () => {
  const decision = classifyCandidate(
    { content: "Lives in Munich", kind: "fact", scope: GLOBAL, memoryId: "memory_gone" },
    [city, editor],
  );
  assert.deepEqual(decision, { action: "merge", memoryId: "memory_a", expectedRevision: 1 });
});

Deno.test("a dissimilar candidate is created", () => {
  const decision = classifyCandidate(
    { content: "Has a cat called Miso", kind: "fact", scope: GLOBAL },
    [city, editor],
  );
  assert.deepEqual(decision, { action: "create" });
});
