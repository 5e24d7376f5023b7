import assert from "node:assert/strict";
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import { createHttpClient } from "./http.ts";
import { KNOWN_THREAD_ID, startFakeRuntime, TEST_TOKEN } from "./_test_server.ts";

const UNKNOWN_THREAD_ID = "thread_ffffffffffffffffffffffffffffffff";

function countingFetch() {
  const bodies: unknown[] = [];
  const fetchRpc = (input: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)));
    return fetch(input, init);
  };
  return { fetch: fetchRpc, bodies };
}

Deno.test("a single HTTP call is typed, authorized by bearer header and validated", async () => {
  const server = startFakeRuntime();
  try {
    const rpc = createHttpClient({ url: server.url, token: TEST_TOKEN });
    const got = await rpc.call("thread.get", { threadId: KNOWN_THREAD_ID });
    assert.equal(got.thread.id, KNOWN_THREAD_ID);
    await assert.rejects(
      rpc.call("thread.get", { threadId: UNKNOWN_THREAD_ID }),
      (error: unknown) =>
        error instanceof RpcError && error.code === RPC_ERROR_CODES.invalidParams &&
        error.reasonCode === "thread_not_found",
    );
    assert.deepEqual(server.httpCalls.map((c) => c.method), ["thread.get", "thread.get"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("HTTP params are refused before sending and invalid results on receipt", async () => {
  const server = startFakeRuntime();
  server.handlers.set("thread.list", () => ({ threads: "nope" }));
  try {
    const { fetch, bodies } = countingFetch();
    const rpc = createHttpClient({ url: server.url, token: TEST_TOKEN, fetch });
    await assert.rejects(
      // @ts-expect-error archived must be a boolean
      rpc.call("thread.list", { archived: "yes" }),
      (error: unknown) =>
        error instanceof RpcError && error.reasonCode === "invalid_params" &&
        error.data.field === "archived",
    );
    assert.equal(bodies.length, 0, "nothing was sent");
    await assert.rejects(
      rpc.call("thread.list"),
      (error: unknown) => error instanceof RpcError && error.code === RPC_ERROR_CODES.internalError,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("a batch is one POST; each call succeeds or fails on its own, in order", async () => {
  const server = startFakeRuntime();
  try {
    const { fetch, bodies } = countingFetch();
    const rpc = createHttpClient({ url: server.url, token: TEST_TOKEN, fetch });
    const [found, missing, list] = await rpc.batch([
      { method: "thread.get", params: { threadId: KNOWN_THREAD_ID } },
      { method: "thread.get", params: { threadId: UNKNOWN_THREAD_ID } },
      { method: "thread.list" },
    ]);
    assert.equal(bodies.length, 1, "one request");
    assert.equal((bodies[0] as unknown[]).length, 3);
    assert.ok(found.ok && found.result.thread.title === "Known");
    assert.ok(!missing.ok && missing.error instanceof RpcError);
    assert.equal(missing.error.reasonCode, "thread_not_found");
    assert.ok(list.ok && list.result.threads.length === 1);
    assert.deepEqual(await rpc.batch([]), [], "an empty batch sends nothing");
    assert.equal(bodies.length, 1);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a batch with one bad member or too many members is refused before sending", async () => {
  const { fetch, bodies } = countingFetch();
  const rpc = createHttpClient({ url: "http://127.0.0.1:9", token: TEST_TOKEN, fetch });
  await assert.rejects(
    rpc.batch([
      { method: "thread.list" },
      // @ts-expect-error threadId is required
      { method: "thread.get", params: {} },
    ]),
    (error: unknown) => error instanceof RpcError && error.data.field === "threadId",
  );
  const tooMany = Array.from({ length: 101 }, () => ({ method: "thread.list" as const }));
  await assert.rejects(
    rpc.batch(tooMany),
    (error: unknown) => error instanceof RpcError && error.reasonCode === "batch_too_large",
  );
  assert.equal(bodies.length, 0);
});

Deno.test("an unauthorized HTTP call fails with http_error and the status", async () => {
  const server = startFakeRuntime();
  try {
    const rpc = createHttpClient({ url: server.url });
    await assert.rejects(
      rpc.call("thread.list"),
      (error: unknown) =>
        error instanceof ClientError && error.code === "http_error" && error.status === 401,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("thread.search is typed: a blank query is refused before sending, results are checked", async () => {
  const server = startFakeRuntime();
  const hit = {
    threadId: KNOWN_THREAD_ID,
    threadTitle: "Plans",
    branchId: "branch_0123456789abcdef0123456789abcdef",
    turnId: "turn_0123456789abcdef0123456789abcdef",
    itemId: "item_0123456789abcdef0123456789abcdef",
    role: "user",
    snippet: "the migration plan",
    highlights: [{ start: 4, end: 13 }],
    createdAt: "2026-10-01T10:00:00.000Z",
    archived: false,
  };
  server.handlers.set("thread.search", (params) => {
    const { query } = params as { query: string };
    return query === "html" ? { results: [{ ...hit, role: "tool" }], nextCursor: null } : {
      results: [hit],
      nextCursor: null,
    };
  });
  try {
    const { fetch, bodies } = countingFetch();
    const rpc = createHttpClient({ url: server.url, token: TEST_TOKEN, fetch });
    await assert.rejects(
      rpc.call("thread.search", { query: "   " }),
      (error: unknown) =>
        error instanceof RpcError && error.reasonCode === "invalid_params" &&
        error.data.field === "query",
    );
    assert.equal(bodies.length, 0, "nothing was sent");
    const page = await rpc.call("thread.search", { query: " migration ", limit: 5 });
    assert.equal(page.results[0]?.snippet, "the migration plan");
    assert.equal(bodies.length, 1, "a valid query is sent (the runtime trims it)");
    await assert.rejects(
      rpc.call("thread.search", { query: "html" }),
      (error: unknown) => error instanceof RpcError && error.code === RPC_ERROR_CODES.internalError,
      "a result with a role search never returns is refused",
    );
  } finally {
    await server.shutdown();
  }
});
