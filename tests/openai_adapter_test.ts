/**
 * The OpenAI-compatible adapter end to end against a fake Chat Completions server on
 * a real socket: streaming, tool calls, usage, framing, failures, retries, timeouts,
 * cancellation, discovery and credential redaction. Retry waits are observed through
 * the injected sleep, never the clock.
 */
import assert from "node:assert/strict";
import type { ProviderEvent, ProviderRequest } from "@daedalus/runtime";
import { ProviderError } from "@daedalus/runtime";
import {
  createOpenAICompatibleProvider,
  type OpenAICompatibleOptions,
} from "../packages/runtime/providers/openai/adapter.ts";
import { discoverModels } from "../packages/runtime/providers/openai/discovery.ts";
import { type FakeOpenAI, type FakeSseStep, startFakeOpenAI } from "./fixtures/fake_openai.ts";

const API_KEY = "sk-test-Zq8vR2mK4pL9xW3nB7tY";
const HEADER_SECRET = "org-secret-H5jD8sF2aQ6e";

const request: ProviderRequest = {
  modelId: "fake-model",
  messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "Hi" }],
  tools: [],
  reasoningEffort: null,
};

function delta(content: Record<string, unknown>): FakeSseStep {
  return {
    data: {
      id: "chatcmpl-1",
      model: "fake-model-2025",
      choices: [{ index: 0, delta: content, finish_reason: null }],
    },
  };
}

function finishStep(reason = "stop"): FakeSseStep {
  return {
    data: {
      id: "chatcmpl-1",
      model: "fake-model-2025",
      choices: [{ index: 0, delta: {}, finish_reason: reason }],
    },
  };
}

const DONE: FakeSseStep = { raw: "data: [DONE]\n\n" };

function textStream(...texts: string[]): FakeSseStep[] {
  return [...texts.map((content) => delta({ content })), finishStep(), DONE];
}

interface Harness {
  fake: FakeOpenAI;
  sleeps: number[];
  options: (overrides?: Partial<OpenAICompatibleOptions>) => OpenAICompatibleOptions;
}

async function withFake(fn: (harness: Harness) => Promise<void>) {
  const fake = startFakeOpenAI();
  const sleeps: number[] = [];
  const options = (overrides: Partial<OpenAICompatibleOptions> = {}) => ({
    id: "fake",
    baseUrl: fake.url,
    apiKey: API_KEY,
    models: ["fake-model"],
    sleep: (ms: number) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    ...overrides,
  });
  try {
    await fn({ fake, sleeps, options });
  } finally {
    await fake.close();
  }
}

async function collect(
  stream: AsyncIterable<ProviderEvent>,
): Promise<{ events: ProviderEvent[]; error: ProviderError | null }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: null };
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${error}`);
    return { events, error };
  }
}

async function run(harness: Harness, overrides: Partial<OpenAICompatibleOptions> = {}) {
  const provider = createOpenAICompatibleProvider(harness.options(overrides));
  return await collect(provider.stream(request, new AbortController().signal));
}

function texts(events: ProviderEvent[], type: "text_delta" | "reasoning_delta" = "text_delta") {
  return events.flatMap((event) => event.type === type ? [event.text] : []);
}

Deno.test("streams text and finishes with the response model and request id", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      sse: textStream("Hel", "lo", " world"),
      headers: { "x-request-id": "req_42" },
    });
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["Hel", "lo", " world"]);
    assert.deepEqual(events.at(-1), {
      type: "finish",
      responseModelId: "fake-model-2025",
      requestId: "req_42",
      finishReason: "stop",
    });
    const [sent] = harness.fake.requests;
    assert.equal(sent?.method, "POST");
    assert.equal(sent?.path, "/v1/chat/completions");
    assert.equal(sent?.headers.authorization, `Bearer ${API_KEY}`);
    assert.deepEqual(sent?.body, {
      model: "fake-model",
      messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

Deno.test("streams reasoning_content as reasoning deltas", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      sse: [
        delta({ role: "assistant", reasoning_content: "Think" }),
        delta({ reasoning_content: "ing…" }),
        delta({ content: "Answer" }),
        finishStep(),
        DONE,
      ],
    });
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events, "reasoning_delta"), ["Think", "ing…"]);
    assert.deepEqual(texts(events), ["Answer"]);
    assert.deepEqual(events.map((event) => event.type), [
      "reasoning_delta",
      "reasoning_delta",
      "text_delta",
      "finish",
    ]);
  });
});

Deno.test("assembles parallel tool calls from many interleaved fragments", async () => {
  await withFake(async (harness) => {
    const first = JSON.stringify({ path: "src/main.ts", limit: 20 });
    const second = JSON.stringify({ pattern: "TODO", glob: "**/*.ts" });
    const fragments: FakeSseStep[] = [
      delta({
        tool_calls: [{
          index: 0,
          id: "call_a",
          type: "function",
          function: { name: "read", arguments: "" },
        }],
      }),
      delta({
        tool_calls: [{
          index: 1,
          id: "call_b",
          type: "function",
          function: { name: "grep", arguments: "" },
        }],
      }),
    ];
    for (let i = 0; i < Math.max(first.length, second.length); i += 3) {
      const pieces = [
        { index: 0, function: { arguments: first.slice(i, i + 3) } },
        { index: 1, function: { arguments: second.slice(i, i + 3) } },
      ].filter((piece) => piece.function.arguments !== "");
      fragments.push(delta({ tool_calls: i % 2 ? pieces.reverse() : pieces }));
    }
    harness.fake.enqueue({ sse: [...fragments, finishStep("tool_calls"), DONE] });
    const provider = createOpenAICompatibleProvider(harness.options());
    const { events, error } = await collect(provider.stream({
      ...request,
      tools: [{ name: "read", description: "Reads a file", parameters: { type: "object" } }],
      reasoningEffort: "high",
    }, new AbortController().signal));
    assert.equal(error, null);
    assert.deepEqual(events.slice(0, 2), [
      { type: "tool_call", id: "call_a", name: "read", arguments: first },
      { type: "tool_call", id: "call_b", name: "grep", arguments: second },
    ]);
    assert.equal(events.at(-1)?.type, "finish");
    const body = harness.fake.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual(body.tools, [{
      type: "function",
      function: { name: "read", description: "Reads a file", parameters: { type: "object" } },
    }]);
    assert.equal(body.reasoning_effort, "high");
    assert.equal("max_tokens" in body, false);
  });
});

Deno.test("reports the usage chunk as token usage before the finish", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      sse: [
        delta({ content: "Hi" }),
        finishStep(),
        {
          data: {
            id: "chatcmpl-1",
            model: "fake-model-2025",
            choices: [],
            usage: {
              prompt_tokens: 1200,
              completion_tokens: 300,
              total_tokens: 1500,
              prompt_tokens_details: { cached_tokens: 1024 },
              completion_tokens_details: { reasoning_tokens: 120 },
            },
          },
        },
        DONE,
      ],
    });
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(events.slice(-2, -1), [{
      type: "usage",
      usage: {
        inputTokens: 1200,
        cachedInputTokens: 1024,
        outputTokens: 300,
        reasoningOutputTokens: 120,
        totalTokens: 1500,
      },
    }]);
  });
});

Deno.test("a stream without [DONE] is complete when a finish reason came", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({ sse: [delta({ content: "Done" }), finishStep()] });
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["Done"]);
    assert.equal(events.at(-1)?.type, "finish");
  });
});

Deno.test("a stream ending without a finish reason is a protocol error after the stream retries", async () => {
  await withFake(async (harness) => {
    for (let i = 0; i < 6; i++) harness.fake.enqueue({ sse: [delta({ role: "assistant" })] });
    const { events, error } = await run(harness);
    assert.equal(error?.category, "protocol");
    assert.deepEqual(events, []);
    assert.equal(harness.fake.requests.length, 6, "one request and five stream retries");
    assert.equal(harness.sleeps.length, 5);
  });
});

Deno.test("parses CRLF framing, keep-alive comments, ignored fields and multi-line data", async () => {
  await withFake(async (harness) => {
    const chunk = (content: string) =>
      JSON.stringify({ id: "c", model: "m", choices: [{ index: 0, delta: { content } }] });
    harness.fake.enqueue({
      sse: [
        ": keep-alive\r\n\r\n",
        "event: message\r\nid: 1\r\nretry: 10\r\n",
        `data: ${chunk("one")}\r\n\r\n`,
        ":\r\n\r\n",
        // One JSON object split over two data lines (joined with a line feed).
        `data: {"id":"c","model":"m",\r\ndata: "choices":[{"index":0,"delta":{"content":"two"}}]}\r\n\r\n`,
        `data:${chunk("three")}\r\n\r\n`,
        `data: {"id":"c","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\r\n\r\n`,
        "data: [DONE]\r\n\r\n",
      ].join(""),
    });
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["one", "two", "three"]);
  });
});

Deno.test("an error frame mid-stream surfaces classified, without a retry after content", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      sse: [
        delta({ content: "Partial" }),
        { data: { error: { message: "The server is overloaded", type: "server_error" } } },
      ],
    });
    const { events, error } = await run(harness);
    assert.equal(error?.category, "server");
    assert.match(error?.message ?? "", /overloaded/);
    assert.deepEqual(texts(events), ["Partial"]);
    assert.equal(harness.fake.requests.length, 1);
  });
});

Deno.test("401 is an authentication failure and is not retried", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      status: 401,
      json: { error: { message: "Invalid API key", type: "invalid_request_error" } },
      headers: { "x-request-id": "req_401" },
    });
    const { error } = await run(harness);
    assert.equal(error?.category, "authentication");
    assert.equal(error?.status, 401);
    assert.equal(error?.requestId, "req_401");
    assert.equal(error?.retryable, false);
    assert.equal(harness.fake.requests.length, 1);
  });
});

Deno.test("429 waits as retry-after says, then succeeds", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue(
      {
        status: 429,
        json: { error: { message: "Rate limit reached" } },
        headers: { "retry-after": "2" },
      },
      { sse: textStream("after the wait") },
    );
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["after the wait"]);
    assert.deepEqual(harness.sleeps, [2000]);
    assert.equal(harness.fake.requests.length, 2);
  });
});

Deno.test("retry-after longer than the cap waits only the cap, and exhausted retries surface rate_limit", async () => {
  await withFake(async (harness) => {
    for (let i = 0; i < 3; i++) {
      harness.fake.enqueue({
        status: 429,
        json: { error: { message: "Slow down" } },
        headers: { "retry-after": "60" },
      });
    }
    const { error } = await run(harness, { retry: { requestRetries: 2 } });
    assert.equal(error?.category, "rate_limit");
    assert.equal(error?.retryAfterSec, 60);
    assert.deepEqual(harness.sleeps, [5000, 5000]);
  });
});

Deno.test("500 is retried after a jittered backoff, then succeeds", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue(
      { status: 500, json: { error: { message: "Internal error" } } },
      { status: 503, body: "upstream unavailable" },
      { sse: textStream("recovered") },
    );
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["recovered"]);
    assert.equal(harness.sleeps.length, 2);
    const [first = 0, second = 0] = harness.sleeps;
    assert.ok(first >= 180 && first <= 220, `first backoff ${first} is not 200 ms ± 10%`);
    assert.ok(second >= 360 && second <= 440, `second backoff ${second} is not 400 ms ± 10%`);
  });
});

Deno.test("400 context_length_exceeded is a context overflow and is not retried", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      status: 400,
      json: {
        error: {
          message: "This model's maximum context length is 8192 tokens",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      },
    });
    const { error } = await run(harness);
    assert.equal(error?.category, "context_overflow");
    assert.equal(error?.status, 400);
    assert.equal(harness.fake.requests.length, 1);
  });
});

Deno.test("a stream that stalls after content times out (idle) without a retry", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({ sse: [delta({ content: "Before the stall" }), { stall: true }] });
    const { events, error } = await run(harness, { timeouts: { idleMs: 100 } });
    assert.equal(error?.category, "timeout");
    assert.deepEqual(texts(events), ["Before the stall"]);
    assert.equal(harness.fake.requests.length, 1);
  });
});

Deno.test("response headers that never come time out, with request retries", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({ hang: true }, { hang: true });
    const { error } = await run(harness, {
      timeouts: { connectMs: 50, headersMs: 50 },
      retry: { requestRetries: 1 },
    });
    assert.equal(error?.category, "timeout");
    assert.equal(harness.fake.requests.length, 2);
  });
});

Deno.test("a connection cut after content fails without a retry or duplicated text", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue(
      { sse: [delta({ content: "Half an ans" }), { cut: true }] },
      { sse: textStream("Half an answer") },
    );
    const { events, error } = await run(harness);
    assert.equal(error?.category, "network");
    assert.deepEqual(texts(events), ["Half an ans"]);
    assert.equal(harness.fake.requests.length, 1);
    assert.deepEqual(harness.sleeps, []);
  });
});

Deno.test("a connection cut before any content is retried", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue(
      { sse: [delta({ role: "assistant" }), { cut: true }] },
      { sse: textStream("Whole answer") },
    );
    const { events, error } = await run(harness);
    assert.equal(error, null);
    assert.deepEqual(texts(events), ["Whole answer"]);
    assert.equal(harness.fake.requests.length, 2);
    assert.equal(harness.sleeps.length, 1);
  });
});

Deno.test("an event over 1,000,000 characters is a protocol error", async () => {
  await withFake(async (harness) => {
    const huge = "x".repeat(1_000_001);
    harness.fake.enqueue({ sse: [{ raw: `data: ${huge}\n\n` }, finishStep(), DONE] });
    const { error } = await run(harness);
    assert.equal(error?.category, "protocol");
    assert.match(error?.message ?? "", /1000000 characters/);
    assert.equal(harness.fake.requests.length, 1);
  });
});

Deno.test("cancelling the signal stops a stalled stream as cancelled", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({ sse: [delta({ content: "Started" }), { stall: true }] });
    const provider = createOpenAICompatibleProvider(harness.options());
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const failure = await (async () => {
      try {
        for await (const event of provider.stream(request, controller.signal)) {
          events.push(event);
          controller.abort();
        }
      } catch (error) {
        return error;
      }
    })();
    assert.ok(failure instanceof ProviderError);
    assert.equal(failure.category, "cancelled");
    assert.deepEqual(texts(events), ["Started"]);
  });
});

Deno.test("discovery maps /models to ids and context windows", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({
      json: {
        object: "list",
        data: [
          { id: "deepseek-chat", context_length: 65536 },
          { id: "deepseek-reasoner", context_window: 131072 },
          { id: "plain" },
          { object: "model" },
        ],
      },
    });
    const models = await discoverModels({ baseUrl: harness.fake.url, apiKey: API_KEY });
    assert.deepEqual(models, [
      { id: "deepseek-chat", displayName: "deepseek-chat", contextWindow: 65536 },
      { id: "deepseek-reasoner", displayName: "deepseek-reasoner", contextWindow: 131072 },
      { id: "plain", displayName: "plain", contextWindow: null },
    ]);
    assert.equal(harness.fake.requests[0]?.method, "GET");
    assert.equal(harness.fake.requests[0]?.path, "/v1/models");
    assert.equal(harness.fake.requests[0]?.headers.authorization, `Bearer ${API_KEY}`);
  });
});

Deno.test("discovery takes at most 1,000 models", async () => {
  await withFake(async (harness) => {
    const data = Array.from({ length: 1_500 }, (_, i) => ({ id: `model-${i}` }));
    harness.fake.enqueue({ json: { data } });
    const models = await discoverModels({ baseUrl: harness.fake.url });
    assert.equal(models.length, 1_000);
    assert.equal(models.at(-1)?.id, "model-999");
  });
});

Deno.test("discovery refuses a body over 1 MB", async () => {
  await withFake(async (harness) => {
    const data = Array.from({ length: 20_000 }, (_, i) => ({ id: `model-${i}`.padEnd(64, "x") }));
    const body = JSON.stringify({ data });
    assert.ok(body.length > 1024 * 1024);
    harness.fake.enqueue({ body });
    await assert.rejects(
      discoverModels({ baseUrl: harness.fake.url }),
      (error: unknown) => error instanceof ProviderError && error.category === "protocol",
    );
  });
});

Deno.test("discovery classifies failures like model calls", async () => {
  await withFake(async (harness) => {
    harness.fake.enqueue({ status: 403, json: { error: { message: "Forbidden" } } });
    await assert.rejects(
      discoverModels({ baseUrl: harness.fake.url, apiKey: API_KEY }),
      (error: unknown) => error instanceof ProviderError && error.category === "authentication",
    );
  });
});

function assertNoCredential(error: unknown, where: string) {
  const seen = new Set<unknown>();
  const texts: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current);
    texts.push(String(current), JSON.stringify(current) ?? "");
    if (current instanceof Error) {
      texts.push(current.message, current.stack ?? "");
      current = current.cause;
    } else current = undefined;
  }
  texts.push(Deno.inspect(error, { depth: 10, showHidden: true }));
  const all = texts.join("\n");
  for (const secret of [API_KEY, HEADER_SECRET]) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8);
      assert.ok(!all.includes(piece), `${where}: error shows "${piece}" of a credential:\n${all}`);
    }
  }
}

Deno.test("credentials never appear in errors or their causes", async () => {
  await withFake(async (harness) => {
    const headers = { "x-org-token": HEADER_SECRET };
    const echoes = `Incorrect API key provided: ${API_KEY}; org ${HEADER_SECRET}; ` +
      `partial ${API_KEY.slice(3, 15)} and ${HEADER_SECRET.slice(4, 13)}`;
    harness.fake.enqueue(
      { status: 401, json: { error: { message: echoes } } },
      { sse: [{ data: { error: { message: echoes, code: 400 } } }] },
      { status: 400, body: echoes },
      { status: 500, json: { detail: echoes } },
    );
    const noRetry = { headers, retry: { requestRetries: 0, streamRetries: 0 } };
    for (let i = 0; i < 4; i++) {
      const { error } = await run(harness, noRetry);
      assert.ok(error, `call ${i} should fail`);
      assert.match(error.message, /\[redacted\]/, `call ${i} should show the redaction`);
      assertNoCredential(error, `call ${i}`);
    }
    const failingFetch = () =>
      Promise.reject(new TypeError(`connect failed for ${API_KEY} via ${HEADER_SECRET}`));
    const network = await run(harness, { ...noRetry, fetch: failingFetch });
    assert.equal(network.error?.category, "network");
    assertNoCredential(network.error, "network failure");

    harness.fake.enqueue({ status: 401, json: { error: { message: echoes } } });
    const discovery = await discoverModels({ baseUrl: harness.fake.url, apiKey: API_KEY, headers })
      .catch((error: unknown) => error);
    assert.ok(discovery instanceof ProviderError);
    assertNoCredential(discovery, "discovery");

    const invalid = await run(harness, { headers: { "x-bad": `${HEADER_SECRET}\n` } });
    assert.equal(invalid.error?.category, "invalid_request");
    assertNoCredential(invalid.error, "invalid header");
  });
});
