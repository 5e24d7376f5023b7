import assert from "node:assert/strict";
import { handlerCalls } from "./_test_handler_calls.ts";
import {
  type MethodName,
  newId,
  type ResultOf,
  RPC_ERROR_CODES,
  type RpcError,
} from "@daedalus/protocol";
import { MemoryStore } from "@daedalus/storage";
import { createMemoryHandlers, type ResolveMemorySourceItem } from "./memory_handlers.ts";
import { ProtectedValues } from "../security/protected_values.ts";

type MemoryMethod = Extract<MethodName, `memory.${string}`>;

const threadId = newId("thread");
const turnId = newId("turn");
const itemId = newId("item");

async function withHandlers(
  fn: (
    call: <M extends MemoryMethod>(method: M, params: unknown) => Promise<ResultOf<M>>,
    refuse: (method: MemoryMethod, params: unknown) => Promise<RpcError>,
    dbPath: string,
  ) => Promise<void>,
  protectedValues?: ProtectedValues,
) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-memory-handlers-" });
  const store = MemoryStore.open(`${dir}/memory.db`);
  const resolveItem: ResolveMemorySourceItem = (id) =>
    id === itemId ? { threadId, turnId, itemId, contentDigest: "sha256:abc" } : null;
  const handlers = createMemoryHandlers({ store, resolveItem, protectedValues });
  const { call, refuse } = handlerCalls(handlers);
  try {
    await fn(call, refuse, `${dir}/memory.db`);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the seed's memory RPC examples round-trip", async () => {
  await withHandlers(async (call) => {
    const created = await call("memory.create", {
      kind: "preference",
      scope: { type: "global", key: null },
      content: "回复尽量简洁",
      clientRequestId: "req-4",
      source: { type: "session_item", itemId },
    });
    assert.equal(created.resultingRevision, 1);
    assert.equal(created.created, true);
    const { memoryId } = created;
    const corrected = await call("memory.correct", {
      memoryId,
      expectedRevision: 1,
      content: "回复尽量简洁，用中文",
      clientRequestId: "req-5",
    });
    assert.deepEqual(corrected, { memoryId, resultingRevision: 2, created: false });
    const page = await call("memory.list", {
      cursor: null,
      limit: 50,
      state: "active",
      scope: { type: "global", key: null },
    });
    assert.deepEqual(page.memories.map((m) => [m.id, m.revision, m.preview]), [
      [memoryId, 2, "回复尽量简洁，用中文"],
    ]);
    assert.equal(page.nextCursor, null);
    const { memory } = await call("memory.get", { memoryId });
    assert.equal(memory.content, "回复尽量简洁，用中文");
    assert.equal(memory.provenance.status, "none");
    const forgotten = await call("memory.forget", {
      memoryId,
      expectedRevision: 2,
      clientRequestId: "req-6",
    });
    assert.deepEqual(forgotten, { memoryId, resultingRevision: 3, created: false });
    const after = await call("memory.get", { memoryId });
    assert.equal(after.memory.content, null);
    assert.equal(after.memory.state, "forgotten");
  });
});

Deno.test("refusals are -32020 with the memory reason code", async () => {
  await withHandlers(async (call, refuse) => {
    const global = { type: "global", key: null };
    const { memoryId } = await call("memory.create", {
      kind: "fact",
      scope: global,
      content: "x",
      clientRequestId: "a",
    });
    const cases: [MemoryMethod, unknown, string][] = [
      [
        "memory.correct",
        { memoryId, expectedRevision: 5, content: "y", clientRequestId: "b" },
        "memory_revision_conflict",
      ],
      [
        "memory.create",
        { kind: "project", scope: global, content: "x", clientRequestId: "a" },
        "memory_idempotency_conflict",
      ],
      ["memory.get", { memoryId: newId("memory") }, "memory_not_found"],
      ["memory.create", {
        kind: "fact",
        scope: global,
        content: "x",
        clientRequestId: "c",
        source: { type: "session_item", itemId: newId("item") },
      }, "memory_source_unavailable"],
    ];
    for (const [method, params, reason] of cases) {
      const error = await refuse(method, params);
      assert.equal(error.code, RPC_ERROR_CODES.memoryOperationFailed, `${method} ${reason}`);
      assert.equal(error.code, -32020);
      assert.equal(error.data.reasonCode, reason);
    }
    await call("memory.forget", { memoryId, expectedRevision: 1, clientRequestId: "d" });
    const gone = await refuse("memory.forget", {
      memoryId,
      expectedRevision: 2,
      clientRequestId: "e",
    });
    assert.equal(gone.data.reasonCode, "memory_forgotten");
    const cursor = await refuse("memory.list", { cursor: "bm90IGEgY3Vyc29y" });
    assert.equal(cursor.code, RPC_ERROR_CODES.invalidParams);
    assert.equal(cursor.data.reasonCode, "invalid_cursor");
  });
});

Deno.test("memory.create and memory.correct refuse a credential as turn.start does", async () => {
  const key = "sk-canary-5f3e2d1c0b9a8877";
  const protectedValues = new ProtectedValues();
  protectedValues.register(key);
  await withHandlers(async (call, refuse, dbPath) => {
    const create = (content: string, clientRequestId: string) => ({
      kind: "preference",
      scope: { type: "global", key: null },
      content,
      clientRequestId,
      source: { type: "session_item", itemId },
    });
    const refusedCreate = await refuse("memory.create", create(`my key is ${key}`, "req-a"));
    assert.equal(refusedCreate.code, RPC_ERROR_CODES.invalidParams);
    assert.equal(refusedCreate.reasonCode, "protected_value");
    assert.equal((refusedCreate.data as { field?: string }).field, "content");
    assert.ok(!refusedCreate.message.includes(key));
    const { memoryId } = await call("memory.create", create("plain words", "req-b"));
    const refusedCorrect = await refuse("memory.correct", {
      memoryId,
      expectedRevision: 1,
      content: `half ${key.slice(4, 16)} of it`,
      clientRequestId: "req-c",
    });
    assert.equal(refusedCorrect.reasonCode, "protected_value");
    const memory = (await call("memory.get", { memoryId })).memory;
    assert.equal(memory.revision, 1, "the refused correction left the memory unchanged");
    for (const file of [dbPath, `${dbPath}-wal`]) {
      const bytes = await Deno.readFile(file).catch(() => new Uint8Array());
      const text = new TextDecoder("latin1").decode(bytes);
      assert.ok(!text.includes(key.slice(4, 16)), `${file} holds a piece of the key`);
    }
  }, protectedValues);
});
