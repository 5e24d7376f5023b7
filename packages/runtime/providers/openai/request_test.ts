import assert from "node:assert/strict";
import { ProviderError, type ProviderRequest } from "../provider.ts";
import { buildChatCompletionsBody } from "./request.ts";

const base: ProviderRequest = { modelId: "m", messages: [], tools: [], reasoningEffort: null };

Deno.test("maps every role, tool calls and tool results", () => {
  const body = buildChatCompletionsBody({
    ...base,
    messages: [
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", url: "data:image/png;base64,iVBORw0KGgo=" },
        ],
      },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { role: "tool", toolCallId: "c1", content: "file text" },
      { role: "assistant", content: "Done", toolCalls: [] },
    ],
  });
  assert.deepEqual(body.messages, [
    { role: "system", content: "sys" },
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c1", content: "file text" },
    { role: "assistant", content: "Done" },
  ]);
});

Deno.test("streams with usage, omits empty tools and a null effort, never limits output", () => {
  const body = buildChatCompletionsBody(base);
  assert.deepEqual(body, {
    model: "m",
    messages: [],
    stream: true,
    stream_options: { include_usage: true },
  });
  const withTools = buildChatCompletionsBody({
    ...base,
    tools: [{ name: "t", description: "d", parameters: { type: "object" } }],
    reasoningEffort: "low",
  });
  assert.deepEqual(withTools.tools, [
    { type: "function", function: { name: "t", description: "d", parameters: { type: "object" } } },
  ]);
  assert.equal(withTools.reasoning_effort, "low");
  assert.equal("max_tokens" in withTools, false);
  assert.equal("max_completion_tokens" in withTools, false);
});

Deno.test("an image linked instead of inlined is refused as a protocol error", () => {
  assert.throws(
    () =>
      buildChatCompletionsBody({
        ...base,
        messages: [{ role: "user", content: [{ type: "image_url", url: "https://x/y.png" }] }],
      }),
    (error: unknown) => error instanceof ProviderError && error.category === "protocol",
  );
});

const toolTurn = (reasoning: string | undefined): ProviderRequest["messages"] => [
  { role: "user", content: "read a.ts" },
  {
    role: "assistant",
    content: "",
    reasoning,
    toolCalls: [{ id: "c1", name: "read", arguments: '{"path":"a.ts"}' }],
  },
  { role: "tool", toolCallId: "c1", content: "x" },
  {
    role: "assistant",
    content: "",
    reasoning: "",
    toolCalls: [{ id: "c2", name: "list", arguments: "{}" }],
  },
  { role: "tool", toolCallId: "c2", content: "a.ts" },
  { role: "assistant", content: "Done.", reasoning: "all read" },
];

Deno.test("reasoning_content goes back on the messages that carry it once the conversation has reasoning", () => {
  const body = buildChatCompletionsBody({ ...base, messages: toolTurn("Read first.") });
  const assistants = body.messages.filter((m) => m.role === "assistant");
  assert.deepEqual(
    assistants.map((m) => "reasoning_content" in m ? m.reasoning_content : "absent"),
    [
      "Read first.",
      "", // a step without reasoning still carries it, empty, as DeepSeek requires
      "all read", // the answer of a stretch with tool calls carries what history kept
    ],
  );
  const toolless = buildChatCompletionsBody({
    ...base,
    messages: [...toolTurn("Read first."), { role: "user", content: "thanks" }, {
      role: "assistant",
      content: "You're welcome.",
    }],
  });
  assert.ok(!("reasoning_content" in toolless.messages.at(-1)!), "no reasoning kept, none sent");
});

Deno.test("reasoning_content is never sent to a conversation without reasoning, unless the endpoint is DeepSeek's", () => {
  const plain = buildChatCompletionsBody({ ...base, messages: toolTurn(undefined).slice(0, 5) });
  assert.ok(
    plain.messages.every((m) => !("reasoning_content" in m)),
    "a strict server (Cerebras, StepFun) refuses the unknown key",
  );
  const deepseek = buildChatCompletionsBody(
    { ...base, messages: toolTurn(undefined).slice(0, 5) },
    { alwaysSendReasoning: true },
  );
  const sent = deepseek.messages.filter((m) => m.role === "assistant")
    .map((m) => "reasoning_content" in m ? m.reasoning_content : "absent");
  assert.deepEqual(sent, ["", ""]);
});
