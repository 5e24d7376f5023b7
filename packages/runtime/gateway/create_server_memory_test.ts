import assert from "node:assert/strict";
import { MemoryConversations, type StoredMessage } from "./create_server_memory.ts";
import {
  CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS,
  CREATE_SERVER_CONVERSATIONS_MAX,
  CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX,
} from "./limits.ts";

const message = (id: string, createdAt = 1): StoredMessage => ({
  id,
  query: `q-${id}`,
  answer: `a-${id}`,
  inputs: {},
  agentThoughts: [],
  createdAt,
});

const ids = <T extends { id: string }>(page: { ok: true; data: T[] } | { ok: false }) =>
  page.ok ? page.data.map((x) => x.id) : page;

Deno.test("MemoryConversations: a conversation is its user's only", () => {
  const store = new MemoryConversations();
  store.create("c1", "alice", "hello", { lang: "en" }, 10);
  assert.equal(store.get("c1", "alice")?.inputs.lang, "en");
  assert.equal(store.get("c1", "bob"), null, "bob sees alice's conversation");
  assert.equal(store.get("c2", "alice"), null, "an unknown id was found");
  assert.equal(store.delete("c1", "bob"), false, "bob deleted alice's conversation");
  assert.ok(store.get("c1", "alice"), "bob's delete removed it");
  assert.deepEqual(ids(store.list("bob", { limit: 20, sortBy: "-updated_at" })), []);
  assert.equal(store.delete("c1", "alice"), true);
  assert.equal(store.get("c1", "alice"), null, "deleted but still there");
  store.addMessage("c1", message("m1"), 11);
  assert.equal(store.size, 0, "a message revived a deleted conversation");
});

Deno.test("MemoryConversations: the name is the first query, shortened by characters", () => {
  const store = new MemoryConversations();
  const long = "é".repeat(CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS + 5);
  assert.equal(
    store.create("c1", "u", long, {}, 1).name.length,
    CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS,
  );
  assert.equal(store.create("c2", "u", "short", {}, 1).name, "short");
});

Deno.test("MemoryConversations: past the limit the least recently used conversation goes", () => {
  const store = new MemoryConversations({ conversations: 3 });
  for (const id of ["a", "b", "c"]) store.create(id, "u", id, {}, 1);
  store.addMessage("a", message("m"), 2); // a is now the most recently used
  store.create("d", "u", "d", {}, 3);
  assert.equal(store.size, 3);
  assert.equal(store.get("b", "u"), null, "b (least recently used) was kept");
  for (const id of ["a", "c", "d"]) assert.ok(store.get(id, "u"), `${id} was dropped`);
});

Deno.test("MemoryConversations: past the limit the oldest messages go, and the history with them", () => {
  const store = new MemoryConversations({ messagesPerConversation: 2 });
  const conversation = store.create("c", "u", "q", {}, 1);
  for (const id of ["m1", "m2", "m3"]) store.addMessage("c", message(id), 2);
  assert.deepEqual(conversation.messages.map((m) => m.id), ["m2", "m3"]);
  assert.deepEqual(store.history(conversation), [
    { role: "user", content: "q-m2" },
    { role: "assistant", content: "a-m2" },
    { role: "user", content: "q-m3" },
    { role: "assistant", content: "a-m3" },
  ]);
});

Deno.test("MemoryConversations: the default limits are limits.ts's", () => {
  const store = new MemoryConversations();
  for (let i = 0; i <= CREATE_SERVER_CONVERSATIONS_MAX; i++) store.create(`c${i}`, "u", "q", {}, 1);
  assert.equal(store.size, CREATE_SERVER_CONVERSATIONS_MAX);
  assert.equal(store.get("c0", "u"), null);
  const kept = store.get("c1", "u")!;
  for (let i = 0; i <= CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX; i++) {
    store.addMessage("c1", message(`m${i}`), 2);
  }
  assert.equal(kept.messages.length, CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX);
  assert.equal(kept.messages[0].id, "m1");
});

Deno.test("MemoryConversations: list sorts as sort_by says and pages after last_id", () => {
  const store = new MemoryConversations();
  store.create("a", "u", "a", {}, 100);
  store.create("b", "u", "b", {}, 200);
  store.create("c", "u", "c", {}, 200); // same second as b: made later
  store.create("x", "other", "x", {}, 300);
  store.addMessage("a", message("m"), 300); // a updated last
  const cases = [
    { sortBy: "-updated_at", want: ["a", "c", "b"] },
    { sortBy: "updated_at", want: ["b", "c", "a"] },
    { sortBy: "-created_at", want: ["c", "b", "a"] },
    { sortBy: "created_at", want: ["a", "b", "c"] },
  ] as const;
  for (const { sortBy, want } of cases) {
    assert.deepEqual(ids(store.list("u", { limit: 20, sortBy })), want, sortBy);
    const first = store.list("u", { limit: 2, sortBy });
    assert.deepEqual(first.ok && [ids(first), first.hasMore], [want.slice(0, 2), true], sortBy);
    const next = store.list("u", { limit: 2, sortBy, lastId: want[1] });
    assert.deepEqual(next.ok && [ids(next), next.hasMore], [[want[2]], false], sortBy);
  }
  assert.deepEqual(store.list("u", { limit: 2, sortBy: "-updated_at", lastId: "x" }), {
    ok: false,
    message: "Last Conversation Not Exists.",
  }, "another user's conversation served as a cursor");
});

Deno.test("MemoryConversations: messages page back from first_id, oldest first in a page", () => {
  const store = new MemoryConversations();
  const conversation = store.create("c", "u", "q", {}, 1);
  for (const id of ["m1", "m2", "m3", "m4", "m5"]) store.addMessage("c", message(id), 2);
  const cases = [
    { firstId: undefined, limit: 2, want: ["m4", "m5"], hasMore: true },
    { firstId: "m4", limit: 2, want: ["m2", "m3"], hasMore: true },
    { firstId: "m2", limit: 2, want: ["m1"], hasMore: false },
    { firstId: "m1", limit: 2, want: [], hasMore: false },
    { firstId: undefined, limit: 20, want: ["m1", "m2", "m3", "m4", "m5"], hasMore: false },
  ];
  for (const { firstId, limit, want, hasMore } of cases) {
    const page = store.messages(conversation, { firstId, limit });
    assert.deepEqual(page.ok && [ids(page), page.hasMore], [want, hasMore], `first_id ${firstId}`);
  }
  assert.deepEqual(store.messages(conversation, { firstId: "nope", limit: 2 }), {
    ok: false,
    message: "First Message Not Exists.",
  });
});
