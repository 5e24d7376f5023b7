/**
 * A real provider through the whole chain: configure a custom OpenAI-compatible
 * provider over RPC, start a turn, and watch the adapter stream from the fake
 * server into the journal; drift and credential refusal on the way.
 */
import assert from "node:assert/strict";
import { connect } from "@daedalus/client";
import type { JournalEvent } from "@daedalus/protocol";
import { startRuntime } from "@daedalus/runtime";
import { startFakeOpenAI } from "./fixtures/fake_openai.ts";

const KEY = "sk-test-0123456789abcdef";

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: {
    id: "chatcmpl-1",
    model: "local-model",
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  },
});
const finish = (reason: string) => ({
  data: {
    id: "chatcmpl-1",
    model: "local-model",
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
  },
});
const usage = {
  data: {
    id: "chatcmpl-1",
    model: "local-model",
    choices: [],
    usage: { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 },
  },
};

async function setup() {
  const fake = startFakeOpenAI();
  const home = await Deno.makeTempDir({ prefix: "daedalus-real-" });
  const runtime = await startRuntime({
    home,
    workspacesRoot: `${home}/ws`,
    port: 0,
    threadTitles: false,
    memoryRefinement: false,
  });
  const client = await connect({ url: runtime.url, token: runtime.token });
  const events: JournalEvent[] = [];
  client.onEvent((event) => events.push(event));
  return {
    fake,
    client,
    events,
    home,
    async [Symbol.asyncDispose]() {
      await client.close();
      await runtime.shutdown();
      await fake.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

async function settledRun(events: JournalEvent[], runId: string) {
  for (let i = 0; i < 2000; i++) {
    const event = events.find((e) => e.type === "run.settled" && e.runId === runId);
    if (event) return event;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`run ${runId} never settled`);
}

Deno.test("a configured custom provider streams reasoning and text through the adapter", async () => {
  await using t = await setup();
  const configured = await t.client.call("provider.configure", {
    kind: "custom",
    providerId: "local",
    displayName: "Local",
    baseUrl: t.fake.url,
    apiKey: KEY,
    models: [{ id: "local-model", displayName: "Local model", contextWindow: 32768 }],
  });
  assert.equal(configured.provider.credentialConfigured, true);
  assert.ok(!JSON.stringify(configured).includes(KEY), "the key came back in a result");
  const config = await Deno.readTextFile(`${t.home}/config.yaml`);
  assert.match(config, /local-model/);
  assert.equal((await Deno.stat(`${t.home}/config.yaml`)).mode! & 0o777, 0o600);

  t.fake.enqueue({
    sse: [
      chunk({ role: "assistant", reasoning_content: "Thinking" }),
      chunk({ reasoning_content: " hard." }),
      chunk({ content: "Hello" }),
      chunk({ content: " there." }),
      finish("stop"),
      usage,
      { raw: "data: [DONE]\n\n" },
    ],
  });
  const { thread } = await t.client.call("thread.create", { title: "real" });
  const { runId } = await t.client.call("turn.start", {
    threadId: thread.id,
    content: "Say hello",
    providerId: "local",
    modelId: "local-model",
  });
  const settled = await settledRun(t.events, runId);
  assert.deepEqual([settled.payload.status, settled.payload.reasonCode], ["completed", null]);
  const request = t.fake.requests.at(-1)!;
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.headers.authorization, `Bearer ${KEY}`);
  const body = request.body as Record<string, unknown>;
  assert.equal(body.model, "local-model");
  assert.equal(body.stream, true);
  assert.ok(!("max_tokens" in body), "max_tokens must never be sent");
  const messages = body.messages as { role: string; content: string }[];
  assert.equal(messages[0]?.role, "system");
  assert.match(messages[0]!.content, /Daedalus/);
  assert.deepEqual(messages.at(-1), { role: "user", content: "Say hello" });

  const page = await t.client.call("turn.list", { threadId: thread.id });
  const answer = page.turns[0]!.runs[0]!.items.find((i) => i.role === "assistant")!;
  assert.equal(answer.content, "Hello there.");
  assert.equal(answer.data.reasoning, "Thinking hard.");
  const finished = t.events.find((e) => e.type === "model.response_finished" && e.runId === runId)!;
  assert.deepEqual((finished.payload as { usage: { totalTokens: number } }).usage.totalTokens, 57);
  const usage2 = await t.client.call("usage.read", {});
  assert.equal(usage2.summary.lifetimeTokens, 57, "usage comes from the provider's report");
  assert.equal(usage2.dailyUsageBuckets.at(-1)?.tokens, 57);
  // the key never reached the journal
  const replay = await t.client.call("event.replay", { afterSeq: 0, limit: 1000 });
  assert.ok(!JSON.stringify(replay).includes(KEY));
});

Deno.test("provider failures settle the run as provider_<category>; content carrying a key is refused", async () => {
  await using t = await setup();
  await t.client.call("provider.configure", {
    kind: "custom",
    providerId: "local",
    displayName: "Local",
    baseUrl: t.fake.url,
    apiKey: KEY,
    models: [{ id: "local-model" }],
  });
  const { thread } = await t.client.call("thread.create", { title: "fail" });
  t.fake.enqueue({ json: { error: { message: "bad key" } }, status: 401 });
  const { runId } = await t.client.call("turn.start", {
    threadId: thread.id,
    content: "hi",
    providerId: "local",
    modelId: "local-model",
  });
  const settled = await settledRun(t.events, runId);
  assert.deepEqual([settled.payload.status, settled.payload.reasonCode], [
    "failed",
    "provider_authentication",
  ]);
  await assert.rejects(
    () =>
      t.client.call("turn.start", {
        threadId: thread.id,
        content: `my key is ${KEY.slice(2, 14)}`,
        providerId: "local",
        modelId: "local-model",
      }),
    (error: { data?: { reasonCode?: string }; message: string }) =>
      error.data?.reasonCode === "protected_value" && !error.message.includes(KEY.slice(2, 14)),
  );
  await assert.rejects(
    () =>
      t.client.call("turn.start", {
        threadId: thread.id,
        content: "x",
        providerId: "local",
        modelId: "other",
      }),
    (error: { data?: { reasonCode?: string } }) =>
      error.data?.reasonCode === "model_not_configured",
  );
});

Deno.test("a queued run whose provider was removed fails with provider_configuration_changed", async () => {
  await using t = await setup();
  await t.client.call("provider.configure", {
    kind: "custom",
    providerId: "local",
    displayName: "Local",
    baseUrl: t.fake.url,
    models: [{ id: "local-model" }],
  });
  const { thread } = await t.client.call("thread.create", { title: "drift" });
  // The first run stalls on the fake server, so the second stays queued behind it.
  t.fake.enqueue({
    sse: [chunk({ content: "slow" }), { delayMs: 300 }, finish("stop"), usage, {
      raw: "data: [DONE]\n\n",
    }],
  });
  const first = await t.client.call("turn.start", {
    threadId: thread.id,
    content: "one",
    providerId: "local",
    modelId: "local-model",
  });
  const second = await t.client.call("turn.start", {
    threadId: thread.id,
    content: "two",
    providerId: "local",
    modelId: "local-model",
  });
  await t.client.call("provider.remove", { providerId: "local" });
  await settledRun(t.events, first.runId);
  const settled = await settledRun(t.events, second.runId);
  assert.deepEqual([settled.payload.status, settled.payload.reasonCode], [
    "failed",
    "provider_configuration_changed",
  ]);
});
