import assert from "node:assert/strict";
import {
  ALL_METHODS,
  decodeInbound,
  METHOD_NAMES,
  newId,
  parseParams,
  parseResult,
  RPC_ERROR_CODES,
  RpcError,
} from "./mod.ts";

const threadId = newId("thread");
const branchId = newId("branch");
const runId = newId("run");
const itemId = newId("item");
const memoryId = newId("memory");
const processId = newId("process");

/** The params of the seed's examples (seed 000 §7), with real-shaped ids. */
const SEED_EXAMPLES: Record<string, unknown> = {
  "thread.create": { title: "新对话", clientRequestId: "req-1" },
  "thread.rename": { threadId, title: "改个名字" },
  "thread.get": { threadId },
  "thread.list": { cursor: null, limit: 50, archived: false },
  "turn.start": {
    threadId,
    branchId,
    content: "帮我写一篇周报",
    providerId: "deepseek",
    modelId: "deepseek-v4-flash",
    clientRequestId: "req-2",
  },
  "turn.list": { threadId, branchId, cursor: null, limit: 50 },
  "run.cancel": { runId },
  "run.steer": { runId, content: "补充一点数据", expectedRunId: runId, clientRequestId: "req-3" },
  "event.replay": { afterSeq: 100, limit: 500 },
  "provider.list": {},
  "provider.configure": {
    kind: "custom",
    providerId: "local",
    displayName: "Local",
    baseUrl: "http://127.0.0.1:11434/v1",
    headers: {},
    models: [{ id: "qwen3:32b", displayName: "Qwen3 32B", contextWindow: 32768 }],
  },
  "provider.discover_models": { kind: "deepseek", apiKey: "sk-test" },
  "model.set_limits": {
    providerId: "deepseek",
    modelId: "deepseek-v4-flash",
    contextWindow: 500000,
    reasoningEfforts: ["low", "high", "max"],
    reasoningEffort: "high",
  },
  "skill.set_enabled": { name: "weekly-report", enabled: false },
  "settings.read": {},
  "settings.update": { threadTitles: false },
  "memory.create": {
    kind: "preference",
    scope: { type: "global", key: null },
    content: "回复尽量简洁",
    clientRequestId: "req-4",
    source: { type: "session_item", itemId },
  },
  "memory.forget": { memoryId, expectedRevision: 2, clientRequestId: "req-6" },
  "memory.list": { cursor: null, limit: 50, state: "active", scope: { type: "global", key: null } },
  "file.preview": { threadId, path: "report.md", offset: 1 },
  "file.change.get": { threadId, toolCallItemId: itemId },
  "process.read": { threadId, processId, cursor: 0 },
  "usage.read": {},
  "model.set_fallback": {
    providerId: "deepseek",
    modelId: "deepseek-v4-pro",
    fallback: { providerId: "deepseek", modelId: "deepseek-v4-flash" },
  },
  "breaker.list": {},
  "gateway.key.create": {
    name: "Dify front end",
    profile: { providerId: "deepseek", modelId: "deepseek-chat", permission: "read_only" },
  },
  "gateway.key.list": {},
  "gateway.key.revoke": { keyId: "gwkey_0123456789abcdef0123456789abcdef" },
  "channel.list": {},
  "channel.configure": {
    channel: "telegram",
    enabled: true,
    token: "123456:AAF_example-token-000000000",
    defaultProviderId: "deepseek",
    defaultModelId: "deepseek-chat",
  },
  "channel.test": { channel: "telegram" },
  "channel.reset_binding": { channel: "telegram" },
  "runtime.shutdown": {},
};

Deno.test("the registry has every method of seed 000 §7", () => {
  assert.equal(METHOD_NAMES.length, 72);
  assert.ok("initialize" in ALL_METHODS);
  for (const name of Object.keys(SEED_EXAMPLES)) assert.ok(name in ALL_METHODS, name);
});

Deno.test("the seed's example params are accepted", () => {
  for (const [name, params] of Object.entries(SEED_EXAMPLES)) {
    assert.doesNotThrow(() => parseParams(name as keyof typeof ALL_METHODS, params), name);
  }
});

/** Sends raw text through the same path the server uses: strict decode, then params. */
function viaWire(text: string): RpcError {
  try {
    const { entries } = decodeInbound(text);
    const entry = entries[0];
    if (!entry) throw new Error("no entry");
    if (!entry.ok) return entry.error;
    parseParams(entry.call.method as keyof typeof ALL_METHODS, entry.call.params);
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error(`accepted: ${text}`);
}

const request = (method: string, params: string) =>
  `{"jsonrpc":"2.0","id":7,"method":"${method}","params":${params}}`;

Deno.test("an unknown field is -32602 unknown_field naming the field", () => {
  const error = viaWire(request("thread.get", `{"threadId":"${threadId}","verbose":true}`));
  assert.equal(error.code, RPC_ERROR_CODES.invalidParams);
  assert.equal(error.reasonCode, "unknown_field");
  assert.equal(error.data.field, "verbose");
  assert.match(error.message, /verbose/);

  const nested = viaWire(
    request(
      "memory.create",
      JSON.stringify({
        ...SEED_EXAMPLES["memory.create"] as object,
        scope: { type: "global", key: null, extra: 1 },
      }),
    ),
  );
  assert.equal(nested.reasonCode, "unknown_field");
  assert.equal(nested.data.field, "scope.extra");
});

Deno.test("a wrong type is -32602 invalid_params naming the field", () => {
  const error = viaWire(request("thread.list", `{"limit":"50"}`));
  assert.equal(error.code, RPC_ERROR_CODES.invalidParams);
  assert.equal(error.reasonCode, "invalid_params");
  assert.equal(error.data.field, "limit");
  assert.match(error.message, /"limit"/);

  const deep = viaWire(
    request(
      "provider.configure",
      JSON.stringify({
        ...SEED_EXAMPLES["provider.configure"] as object,
        models: [{ id: "m", contextWindow: -1 }],
      }),
    ),
  );
  assert.equal(deep.data.field, "models[0].contextWindow");
});

Deno.test("an integer beyond 2^53 − 1 is -32700 unsafe_integer", () => {
  const error = viaWire(request("event.replay", `{"afterSeq":9007199254740993}`));
  assert.equal(error.code, RPC_ERROR_CODES.parseError);
  assert.equal(error.reasonCode, "unsafe_integer");
  // in-process callers that skip the codec are still refused by the schema
  assert.throws(
    () => parseParams("event.replay", { afterSeq: 2 ** 60 }),
    (e: unknown) => e instanceof RpcError && e.reasonCode === "invalid_params",
  );
});

Deno.test("NaN is -32700 non_finite_number", () => {
  const error = viaWire(request("event.replay", `{"afterSeq":NaN}`));
  assert.equal(error.code, RPC_ERROR_CODES.parseError);
  assert.equal(error.reasonCode, "non_finite_number");
  assert.throws(
    () => parseParams("event.replay", { afterSeq: NaN }),
    (e: unknown) => e instanceof RpcError && e.data.field === "afterSeq",
  );
});

Deno.test("too-deep nesting is -32700 nesting_too_deep", () => {
  const deep = "[".repeat(70) + "]".repeat(70);
  const error = viaWire(request("thread.create", `{"title":${deep}}`));
  assert.equal(error.code, RPC_ERROR_CODES.parseError);
  assert.equal(error.reasonCode, "nesting_too_deep");
});

Deno.test("envelopes: a bad request is -32600 and keeps its id; batches answer per entry", () => {
  const bad = decodeInbound('{"jsonrpc":"1.0","id":3,"method":"x"}');
  const entry = bad.entries[0];
  assert.ok(entry && !entry.ok);
  assert.equal(entry.id, 3);
  assert.equal(entry.error.code, RPC_ERROR_CODES.invalidRequest);

  const batch = decodeInbound(`[${request("usage.read", "{}")},{"nope":1}]`);
  assert.equal(batch.batch, true);
  assert.deepEqual(batch.entries.map((e) => e.ok), [true, false]);
  assert.throws(
    () => decodeInbound("[]"),
    (e: unknown) => e instanceof RpcError && e.code === -32600,
  );
});

Deno.test("strings are bounded: titles are one line, identifiers ≤ 200", () => {
  assert.throws(() => parseParams("thread.create", { title: "a\nb" }), RpcError);
  assert.throws(() => parseParams("thread.create", { clientRequestId: "x".repeat(201) }), RpcError);
  assert.throws(
    () =>
      parseParams("turn.start", {
        ...SEED_EXAMPLES["turn.start"] as object,
        attachments: Array.from(
          { length: 9 },
          () => ({ kind: "text", path: "/a", mimeType: "text/plain" }),
        ),
      }),
    (e: unknown) => e instanceof RpcError && e.data.field === "attachments",
  );
});

Deno.test("results: the seed's examples pass, a wrong field names itself", () => {
  assert.deepEqual(parseResult("run.cancel", { accepted: true, runId, status: "running" }), {
    accepted: true,
    runId,
    status: "running",
  });
  assert.throws(
    () => parseResult("run.cancel", { accepted: true, runId, status: "sleeping" }),
    /status/,
  );
  const usage = {
    summary: {
      lifetimeTokens: 123456,
      peakDailyTokens: 20000,
      longestRunningTurnSec: 754,
      currentStreakDays: 3,
      longestStreakDays: 9,
    },
    dailyUsageBuckets: [{ startDate: "2026-09-30", tokens: 8000 }],
  };
  assert.ok(parseResult("usage.read", usage));
});

Deno.test("thread.search trims its query and bounds the query and the page", () => {
  assert.deepEqual(parseParams("thread.search", { query: "  迁移计划 \n" }), { query: "迁移计划" });
  assert.deepEqual(
    parseParams("thread.search", { query: "a", limit: 50, cursor: null }),
    { query: "a", limit: 50, cursor: null },
  );
  const refused: [string, unknown, string][] = [
    ["blank query", { query: "   " }, "query"],
    ["no query", {}, "query"],
    ["201 characters", { query: "x".repeat(201) }, "query"],
    ["limit 0", { query: "a", limit: 0 }, "limit"],
    ["limit 51", { query: "a", limit: 51 }, "limit"],
    ["empty cursor", { query: "a", cursor: "" }, "cursor"],
  ];
  for (const [name, params, field] of refused) {
    assert.throws(
      () => parseParams("thread.search", params),
      (e: unknown) =>
        e instanceof RpcError && e.reasonCode === "invalid_params" && e.data.field === field,
      name,
    );
  }
  assert.doesNotThrow(() => parseParams("thread.search", { query: ` ${"x".repeat(200)} ` }));
});
