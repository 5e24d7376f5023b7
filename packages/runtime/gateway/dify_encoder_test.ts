import assert from "node:assert/strict";
import type { CanonicalEvent, TokenUsage } from "@daedalus/protocol";
import { DifyEncoder, difyUsage } from "./dify_encoder.ts";

const IDS = {
  taskId: "task-1",
  messageId: "msg-1",
  conversationId: "8c1f0f0e-0000-4000-8000-000000000001",
  createdAt: 1_764_644_400,
};
const COMMON = {
  task_id: IDS.taskId,
  message_id: IDS.messageId,
  conversation_id: IDS.conversationId,
  created_at: IDS.createdAt,
};
const USAGE: TokenUsage = {
  inputTokens: 30,
  cachedInputTokens: null,
  outputTokens: 12,
  reasoningOutputTokens: null,
  totalTokens: 42,
};
const START = 1_000_000;

function encodeAll(events: CanonicalEvent[], at = START + 1500) {
  const encoder = new DifyEncoder(IDS, START);
  return { encoder, objects: events.flatMap((event) => encoder.encode(event, at)) };
}

const thought = (position: number, id: string, observation: string, input: string) => ({
  event: "agent_thought",
  ...COMMON,
  id,
  position,
  thought: "",
  observation,
  tool: "read_file",
  tool_labels: { read_file: { en_US: "read_file", zh_Hans: "read_file" } },
  tool_input: input,
  message_files: [],
});

/** Each case: canonical events and the Dify objects they must become. */
const CASES: { name: string; events: CanonicalEvent[]; expected: Record<string, unknown>[] }[] = [
  {
    name: "an answer after a tool call: thought upserted by id, message_end with usage",
    events: [
      { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: '{"path":"a"}' },
      { type: "tool_call_end", toolCallId: "c1", result: "text of a", isError: false },
      { type: "usage", usage: USAGE },
      { type: "text_delta", messageId: "item_x", delta: "It " },
      { type: "text_delta", messageId: "item_x", delta: "says." },
      { type: "done", status: "completed", usage: null },
    ],
    expected: [
      thought(1, "c1", "", '{"read_file":{"path":"a"}}'),
      thought(1, "c1", "text of a", '{"read_file":{"path":"a"}}'),
      { event: "agent_message", ...COMMON, id: IDS.messageId, answer: "It " },
      { event: "agent_message", ...COMMON, id: IDS.messageId, answer: "says." },
      {
        event: "message_end",
        ...COMMON,
        id: IDS.messageId,
        metadata: { usage: difyUsage(USAGE, 1.5), retriever_resources: [] },
        files: [],
      },
    ],
  },
  {
    name: "two calls get positions 1 and 2; streamed arguments accumulate under one id",
    events: [
      { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: '{"pa' },
      { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: 'th":"a"}' },
      { type: "tool_call_start", toolCallId: "c2", name: "read_file", argsDelta: "" },
    ],
    expected: [
      thought(1, "c1", "", '{"read_file":"{\\"pa"}'),
      thought(1, "c1", "", '{"read_file":{"path":"a"}}'),
      thought(2, "c2", "", '{"read_file":{}}'),
    ],
  },
  {
    name: "a fatal error is Dify's error object and ends the stream",
    events: [
      { type: "text_delta", messageId: "m", delta: "Hi" },
      { type: "error", code: "provider_rate_limit", message: "slow down", recoverable: false },
      { type: "done", status: "failed", usage: null },
    ],
    expected: [
      { event: "agent_message", ...COMMON, id: IDS.messageId, answer: "Hi" },
      {
        event: "error",
        ...COMMON,
        status: 500,
        code: "provider_rate_limit",
        message: "slow down",
      },
    ],
  },
  {
    name: "recoverable errors, nodes and results of unknown calls are left out",
    events: [
      { type: "error", code: "x", message: "retrying", recoverable: true },
      {
        type: "node_lifecycle",
        nodeId: "n",
        nodeType: "model",
        title: "t",
        phase: "start",
        metadata: {},
      },
      { type: "tool_call_end", toolCallId: "never-started", result: "r", isError: false },
    ],
    expected: [],
  },
  {
    name: "reasoning, files, sub-agents, interrupts and custom events as seed 002 maps them",
    events: [
      { type: "reasoning_delta", messageId: "m", delta: "hmm" },
      {
        type: "file_output",
        fileId: "f1",
        kind: "image",
        mimeType: "image/png",
        url: "https://x/y.png",
        name: null,
      },
      { type: "subagent_start", runId: "r2", agentName: "research", taskDescription: "look" },
      { type: "subagent_end", runId: "r2", agentName: "research", status: "completed" },
      { type: "interrupt", interruptId: "ap1", nodeName: "c1", message: "Allow?", data: {} },
      { type: "custom", name: "daedalus.file_change", payload: { path: "a", event: "x" } },
      { type: "custom", name: "tick", payload: 3 },
    ],
    expected: [
      { event: "reasoning_chunk", ...COMMON, reasoning: "hmm" },
      {
        event: "message_file",
        ...COMMON,
        id: "f1",
        type: "image",
        belongs_to: "assistant",
        url: "https://x/y.png",
      },
      {
        event: "subagent_start",
        ...COMMON,
        agent_name: "research",
        run_id: "r2",
        task_description: "look",
      },
      {
        event: "subagent_end",
        ...COMMON,
        agent_name: "research",
        run_id: "r2",
        status: "completed",
      },
      {
        event: "workflow_paused",
        ...COMMON,
        message: "Allow?",
        node_name: "c1",
        interrupt_id: "ap1",
        data: {},
      },
      // A payload's own `event` field cannot rename the event.
      { event: "daedalus.file_change", ...COMMON, path: "a" },
      { event: "tick", ...COMMON, payload: 3 },
    ],
  },
  {
    name: "nothing follows message_end",
    events: [
      { type: "done", status: "cancelled", usage: USAGE },
      { type: "text_delta", messageId: "m", delta: "late" },
    ],
    expected: [{
      event: "message_end",
      ...COMMON,
      id: IDS.messageId,
      metadata: { usage: difyUsage(USAGE, 1.5), retriever_resources: [] },
      files: [],
    }],
  },
];

for (const { name, events, expected } of CASES) {
  Deno.test(`canonical → Dify: ${name}`, () => {
    const { objects } = encodeAll(events);
    assert.deepEqual(objects, expected, `${name}: got ${JSON.stringify(objects, null, 1)}`);
    for (const object of objects) {
      for (const key of ["event", "task_id", "message_id", "conversation_id", "created_at"]) {
        assert.ok(key in object, `${name}: ${object.event} lacks ${key}`);
      }
    }
  });
}

Deno.test("canonical → Dify: usage events are summed when done carries none", () => {
  const { objects } = encodeAll([
    { type: "usage", usage: USAGE },
    { type: "usage", usage: USAGE },
    { type: "done", status: "completed", usage: null },
  ]);
  const usage = (objects[0].metadata as { usage: Record<string, unknown> }).usage;
  assert.equal(usage.prompt_tokens, 60);
  assert.equal(usage.completion_tokens, 24);
  assert.equal(usage.total_tokens, 84);
  assert.equal(usage.latency, 1.5);
  assert.equal(typeof usage.total_price, "string", "Dify's prices are decimal strings");
});

Deno.test("canonical → Dify: the blocking response has the whole answer and the usage", () => {
  const { encoder } = encodeAll([
    { type: "text_delta", messageId: "m", delta: "Hello " },
    { type: "usage", usage: USAGE },
    { type: "text_delta", messageId: "m", delta: "there" },
    { type: "done", status: "completed", usage: USAGE },
  ]);
  assert.deepEqual(encoder.blockingResponse(START + 2000), {
    event: "message",
    task_id: IDS.taskId,
    id: IDS.messageId,
    message_id: IDS.messageId,
    conversation_id: IDS.conversationId,
    mode: "chat",
    answer: "Hello there",
    metadata: { usage: difyUsage(USAGE, 2), retriever_resources: [] },
    created_at: IDS.createdAt,
  });
});

Deno.test("Dify encoder: error and approval texts go through redaction; a wait is named in the blocking answer", () => {
  const secret = "sk-live-0123456789abcdef";
  const redact = (text: string) => text.replaceAll(secret, "[redacted]");
  const encoder = new DifyEncoder(IDS, START, redact);
  assert.equal(encoder.waiting, null);
  encoder.encode({ type: "text_delta", messageId: "m", delta: "Running it." }, START + 10);
  const [paused] = encoder.encode({
    type: "interrupt",
    interruptId: "ap1",
    nodeName: "c1",
    message: `Run curl -H ${secret}?`,
    data: { target: `curl -H ${secret}` },
  }, START + 20);
  assert.equal(paused?.message, "Run curl -H [redacted]?");
  assert.deepEqual(paused?.data, { target: "curl -H [redacted]" });
  const blocking = encoder.blockingResponse(START + 30) as {
    answer: string;
    metadata: Record<string, unknown>;
  };
  assert.equal(blocking.answer, "Running it.");
  assert.deepEqual(blocking.metadata.waiting, {
    interrupt_id: "ap1",
    reason: "approval_required",
    message: "Run curl -H [redacted]?",
  });
  const [error] = encoder.encode({
    type: "error",
    code: "provider_invalid_request",
    message: `bad key ${secret}`,
    recoverable: false,
  }, START + 40);
  assert.equal(error?.message, "bad key [redacted]");
  const plain = new DifyEncoder(IDS, START).blockingResponse(START) as {
    metadata: Record<string, unknown>;
  };
  assert.equal("waiting" in plain.metadata, false, "a finished answer names a wait");
});
