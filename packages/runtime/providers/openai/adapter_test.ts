import assert from "node:assert/strict";
import type { ProviderEvent, ProviderRequest } from "../provider.ts";
import { createOpenAICompatibleProvider } from "./adapter.ts";

const request: ProviderRequest = {
  modelId: "m",
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  reasoningEffort: null,
};

/** A body of the given events; left open when `onCancel` is given (the test cancels it). */
function sse(lines: string[], onCancel?: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const line of lines) controller.enqueue(encoder.encode(line));
      if (!onCancel) controller.close();
    },
    cancel: onCancel,
  });
}

const textChunk = (content: string) =>
  `data: ${
    JSON.stringify({ id: "c", model: "m", choices: [{ index: 0, delta: { content } }] })
  }\n\n`;

Deno.test("the provider exposes its id and models and posts to {baseUrl}/chat/completions", async () => {
  const urls: string[] = [];
  const provider = createOpenAICompatibleProvider({
    id: "deepseek",
    baseUrl: "https://api.example.com/v1/",
    models: ["deepseek-chat"],
    headers: { "X-Title": "Daedalus" },
    fetch: (input, init) => {
      urls.push(String(input));
      assert.equal(new Headers(init?.headers).get("x-title"), "Daedalus");
      assert.equal(new Headers(init?.headers).has("authorization"), false);
      return Promise.resolve(
        new Response(
          sse([
            textChunk("ok"),
            'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
          ]),
        ),
      );
    },
  });
  assert.equal(provider.id, "deepseek");
  assert.deepEqual(provider.models, ["deepseek-chat"]);
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, new AbortController().signal)) {
    events.push(event);
  }
  assert.deepEqual(urls, ["https://api.example.com/v1/chat/completions"]);
  assert.deepEqual(events.map((event) => event.type), ["text_delta", "finish"]);
});

Deno.test("a consumer that stops early cancels the response body", async () => {
  let cancelled = false;
  const provider = createOpenAICompatibleProvider({
    id: "p",
    baseUrl: "http://x",
    models: ["m"],
    fetch: () =>
      Promise.resolve(
        new Response(sse([textChunk("one"), textChunk("two")], () => {
          cancelled = true;
        })),
      ),
  });
  for await (const event of provider.stream(request, new AbortController().signal)) {
    assert.equal(event.type, "text_delta");
    break;
  }
  assert.equal(cancelled, true);
});

Deno.test("a JSON error body with status 200 is classified, not parsed as a stream", async () => {
  const provider = createOpenAICompatibleProvider({
    id: "p",
    baseUrl: "http://x",
    models: ["m"],
    retry: { streamRetries: 0, requestRetries: 0 },
    fetch: () =>
      Promise.resolve(
        Response.json({ error: { message: "quota exhausted", code: "insufficient_quota" } }),
      ),
  });
  await assert.rejects(
    async () => {
      for await (const _ of provider.stream(request, new AbortController().signal)) { /* none */ }
    },
    (error: unknown) =>
      error instanceof Error && "category" in error && error.category === "rate_limit",
  );
});

Deno.test("a response header carrying the key is redacted where it is read", async () => {
  const apiKey = "sk-canary-00112233445566778899";
  const answer = (status: number, body: BodyInit) =>
    Promise.resolve(
      new Response(body, {
        status,
        headers: {
          "content-type": status === 200 ? "text/event-stream" : "application/json",
          "x-request-id": `req-${apiKey}`,
        },
      }),
    );
  const provider = (status: number, body: () => BodyInit) =>
    createOpenAICompatibleProvider({
      id: "p",
      baseUrl: "http://x",
      models: ["m"],
      apiKey,
      retry: { requestRetries: 0, streamRetries: 0 },
      fetch: () => answer(status, body()),
    });
  const events: ProviderEvent[] = [];
  const ok = provider(200, () =>
    sse([
      textChunk("ok"),
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
    ]));
  for await (const event of ok.stream(request, new AbortController().signal)) events.push(event);
  const finish = events.find((event) => event.type === "finish");
  assert.deepEqual(finish, {
    type: "finish",
    responseModelId: "m",
    requestId: "req-[redacted]",
    finishReason: "stop",
  });
  const failing = provider(400, () => JSON.stringify({ error: { message: `bad key ${apiKey}` } }));
  await assert.rejects(
    async () => {
      for await (const _ of failing.stream(request, new AbortController().signal)) { /* none */ }
    },
    (error: { message: string; requestId?: string }) => {
      assert.equal(error.requestId, "req-[redacted]");
      assert.ok(!error.message.includes(apiKey), error.message);
      return true;
    },
  );
});
