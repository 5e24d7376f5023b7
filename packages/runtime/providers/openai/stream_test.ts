import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import { REASONING_MAX_CHARS, TOOL_ARGUMENTS_MAX_CHARS } from "./limits.ts";
import { ChatStreamDecoder, toTokenUsage } from "./stream.ts";

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return JSON.stringify({
    id: "chatcmpl-7",
    model: "m-1",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

function isCategory(category: string) {
  return (error: unknown) => error instanceof ProviderError && error.category === category;
}

Deno.test("text and reasoning deltas pass on at once; empty deltas are dropped", () => {
  const decoder = new ChatStreamDecoder();
  assert.deepEqual(decoder.accept(chunk({ role: "assistant", content: "" })), []);
  assert.equal(decoder.hasContent, false);
  assert.deepEqual(decoder.accept(chunk({ reasoning_content: "hmm" })), [
    { type: "reasoning_delta", text: "hmm" },
  ]);
  assert.deepEqual(decoder.accept(chunk({ content: "Hi" })), [{ type: "text_delta", text: "Hi" }]);
  assert.equal(decoder.hasContent, true);
});

Deno.test("tool calls are accumulated by index and emitted in index order at the end", () => {
  const decoder = new ChatStreamDecoder();
  const fragments = [
    { index: 1, id: "call_b", type: "function", function: { name: "grep", arguments: '{"q"' } },
    { index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } },
    { index: 0, function: { arguments: '{"path":' } },
    { index: 1, function: { arguments: ':"x"}' } },
    { index: 0, function: { arguments: '"a.ts"}' } },
  ];
  for (const fragment of fragments) {
    assert.deepEqual(decoder.accept(chunk({ tool_calls: [fragment] })), []);
  }
  assert.equal(decoder.hasContent, true, "a tool fragment is model content");
  decoder.accept(chunk({}, "tool_calls"));
  assert.deepEqual(decoder.complete("req_9", false), [
    { type: "tool_call", id: "call_a", name: "read", arguments: '{"path":"a.ts"}' },
    { type: "tool_call", id: "call_b", name: "grep", arguments: '{"q":"x"}' },
    { type: "finish", responseModelId: "m-1", requestId: "req_9", finishReason: "tool_calls" },
  ]);
});

Deno.test("a tool call without arguments gets {}, one without an id gets one", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ tool_calls: [{ index: 0, function: { name: "now" } }] }));
  decoder.accept(chunk({}, "tool_calls"));
  assert.deepEqual(decoder.complete(null, true)[0], {
    type: "tool_call",
    id: "call_0",
    name: "now",
    arguments: "{}",
  });
});

Deno.test("fragments without an index continue the last call until a new id comes", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ tool_calls: [{ id: "a", function: { name: "x", arguments: "{" } }] }));
  decoder.accept(chunk({ tool_calls: [{ function: { arguments: "}" } }] }));
  decoder.accept(chunk({ tool_calls: [{ id: "b", function: { name: "y", arguments: "{}" } }] }));
  decoder.accept(chunk({}, "stop"));
  const calls = decoder.complete(null, true).filter((event) => event.type === "tool_call");
  assert.deepEqual(calls.map((call) => call.type === "tool_call" && [call.id, call.arguments]), [
    ["a", "{}"],
    ["b", "{}"],
  ]);
});

Deno.test("a tool call without a name is a protocol error", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ tool_calls: [{ index: 0, id: "a", function: { arguments: "{}" } }] }));
  decoder.accept(chunk({}, "tool_calls"));
  assert.throws(() => decoder.complete(null, true), isCategory("protocol"));
});

Deno.test("usage, model and the chunk id (without a header id) reach the closing events", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ content: "x" }, "stop"));
  decoder.accept(JSON.stringify({
    id: "chatcmpl-7",
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
  }));
  assert.deepEqual(decoder.complete(null, false), [
    {
      type: "usage",
      usage: {
        inputTokens: 10,
        cachedInputTokens: null,
        outputTokens: 4,
        reasoningOutputTokens: null,
        totalTokens: 14,
      },
    },
    { type: "finish", responseModelId: "m-1", requestId: "chatcmpl-7", finishReason: "stop" },
  ]);
});

Deno.test("usage reads DeepSeek cache hits and fills a missing total", () => {
  assert.deepEqual(
    toTokenUsage({ prompt_tokens: 8, completion_tokens: 2, prompt_cache_hit_tokens: 6 }),
    {
      inputTokens: 8,
      cachedInputTokens: 6,
      outputTokens: 2,
      reasoningOutputTokens: null,
      totalTokens: 10,
    },
  );
});

Deno.test("the stream must finish: no finish reason and no [DONE] is a retryable protocol error", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ content: "x" }));
  assert.throws(
    () => decoder.complete(null, false),
    (error: unknown) => isCategory("protocol")(error) && (error as ProviderError).retryable,
  );
  assert.equal(decoder.complete(null, true).at(-1)?.type, "finish");
});

Deno.test("malformed chunks are protocol errors", () => {
  const decoder = new ChatStreamDecoder();
  assert.throws(() => decoder.accept("{not json"), isCategory("protocol"));
  assert.throws(() => decoder.accept("[1,2]"), isCategory("protocol"));
});

Deno.test("error frames are classified", () => {
  const frame = (error: unknown) => JSON.stringify({ error });
  const decoder = new ChatStreamDecoder();
  assert.throws(
    () => decoder.accept(frame({ message: "slow down", code: 429 })),
    isCategory("rate_limit"),
  );
  assert.throws(
    () => decoder.accept(frame({ message: "x", code: "context_length_exceeded" })),
    isCategory("context_overflow"),
  );
  assert.throws(
    () => decoder.accept(frame({ message: "oops", type: "server_error" })),
    isCategory("server"),
  );
  assert.throws(() => decoder.accept(frame("something odd")), isCategory("unknown"));
});

Deno.test("reasoning and tool arguments beyond 1,000,000 characters are protocol errors", () => {
  const reasoning = new ChatStreamDecoder();
  reasoning.accept(chunk({ reasoning_content: "r".repeat(REASONING_MAX_CHARS) }));
  assert.throws(() => reasoning.accept(chunk({ reasoning_content: "r" })), isCategory("protocol"));
  const tools = new ChatStreamDecoder();
  const half = "a".repeat(TOOL_ARGUMENTS_MAX_CHARS / 2);
  tools.accept(
    chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "x", arguments: half } }] }),
  );
  tools.accept(
    chunk({ tool_calls: [{ index: 1, id: "b", function: { name: "y", arguments: half } }] }),
  );
  assert.throws(
    () => tools.accept(chunk({ tool_calls: [{ index: 1, function: { arguments: "!" } }] })),
    isCategory("protocol"),
  );
});

Deno.test("a <think> block at the start of content streams as reasoning, split tags included", () => {
  const decoder = new ChatStreamDecoder();
  const events = [
    ...decoder.accept(chunk({ role: "assistant", content: "<thi" })),
    ...decoder.accept(chunk({ content: "nk>Check the file.</th" })),
    ...decoder.accept(chunk({ content: "ink>\n\nIt is " })),
    ...decoder.accept(chunk({ content: "fine." }, "stop")),
    ...decoder.complete(null, true),
  ];
  const text = events.filter((e) => e.type === "text_delta").map((e) => e.text).join("");
  const reasoning = events.filter((e) => e.type === "reasoning_delta").map((e) => e.text).join("");
  assert.equal(text, "It is fine.");
  assert.equal(reasoning, "Check the file.");
});

Deno.test("finish_reason length reaches the finish event, with the cut tool call as it came", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({
    tool_calls: [{
      index: 0,
      id: "c1",
      type: "function",
      function: { name: "write", arguments: '{"pa' },
    }],
  }));
  decoder.accept(chunk({}, "length"));
  const events = decoder.complete(null, true);
  assert.deepEqual(events.at(-1), {
    type: "finish",
    responseModelId: "m-1",
    requestId: "chatcmpl-7",
    finishReason: "length",
  });
});

Deno.test("a whole chat.completion is decoded like a stream: reasoning, <think>, tools, usage", () => {
  const decoder = new ChatStreamDecoder();
  const events = decoder.acceptCompletion({
    id: "chatcmpl-9",
    object: "chat.completion",
    model: "m-2",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: "<think>plan</think>Reading it.",
        reasoning_content: "first",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
          { id: "c2", type: "function", function: { name: "list", arguments: "{}" } },
        ],
      },
      finish_reason: "tool_calls",
    }],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  }, "req-1");
  assert.deepEqual(events.map((e) => e.type), [
    "reasoning_delta",
    "reasoning_delta",
    "text_delta",
    "tool_call",
    "tool_call",
    "usage",
    "finish",
  ]);
  assert.deepEqual(events.filter((e) => e.type === "tool_call").map((e) => e.id), ["c1", "c2"]);
  assert.deepEqual(events.at(-1), {
    type: "finish",
    responseModelId: "m-2",
    requestId: "req-1",
    finishReason: "tool_calls",
  });
  assert.throws(
    () => new ChatStreamDecoder().acceptCompletion({ choices: [] }, null),
    isCategory("protocol"),
  );
});

Deno.test("vLLM's top-level error object mid-stream is an error, with its message", () => {
  const decoder = new ChatStreamDecoder();
  decoder.accept(chunk({ content: "par" }));
  assert.throws(
    () =>
      decoder.accept(JSON.stringify({
        object: "error",
        message: "Engine loop has died",
        type: "InternalServerError",
        param: null,
        code: 500,
      })),
    (error: unknown) =>
      error instanceof ProviderError && error.category === "server" &&
      error.providerMessage === "Engine loop has died",
  );
});
