import assert from "node:assert/strict";
import type { CanonicalEvent, TokenUsage } from "@daedalus/protocol";
import { AgUiEncoder, type AgUiEvent } from "./ag_ui_encoder.ts";

const IDS = { threadId: "t1", runId: "r1" };
const AT = 1_764_644_400_123;
const USAGE: TokenUsage = {
  inputTokens: 5,
  cachedInputTokens: null,
  outputTokens: 2,
  reasoningOutputTokens: null,
  totalTokens: 7,
};

function run(events: CanonicalEvent[], ids: ConstructorParameters<typeof AgUiEncoder>[0] = IDS) {
  const encoder = new AgUiEncoder(ids);
  const out = [...encoder.start(AT), ...events.flatMap((e) => encoder.encode(e, AT))];
  return { encoder, out };
}

/** Without timestamps (checked once, separately), so the cases read as the wire's story. */
const bare = (events: AgUiEvent[]) => events.map(({ timestamp: _t, ...rest }) => rest);

const STARTED = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const finished = (outcome: unknown) => ({
  type: "RUN_FINISHED",
  threadId: "t1",
  runId: "r1",
  outcome,
});
const node = (phase: "start" | "end", nodeId = "n1"): CanonicalEvent => ({
  type: "node_lifecycle",
  nodeId,
  nodeType: "model",
  title: "Model call",
  phase,
  metadata: {},
});

const CASES: { name: string; events: CanonicalEvent[]; expected: Record<string, unknown>[] }[] = [
  {
    name: "text, then a server-side tool call with its result, then more text",
    events: [
      node("start"),
      { type: "text_delta", messageId: "m1", delta: "Let me " },
      { type: "text_delta", messageId: "m1", delta: "check." },
      node("end"),
      { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: '{"path":' },
      { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: '"a"}' },
      { type: "tool_call_end", toolCallId: "c1", result: "contents", isError: false },
      node("start", "n2"),
      { type: "text_delta", messageId: "m2", delta: "Done." },
      node("end", "n2"),
      { type: "done", status: "completed", usage: null },
    ],
    expected: [
      STARTED,
      { type: "STEP_STARTED", stepName: "n1" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Let me " },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "check." },
      { type: "STEP_FINISHED", stepName: "n1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      {
        type: "TOOL_CALL_START",
        toolCallId: "c1",
        toolCallName: "read_file",
        parentMessageId: "m1",
      },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"path":' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"a"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      {
        type: "TOOL_CALL_RESULT",
        messageId: "c1:result",
        toolCallId: "c1",
        content: "contents",
        role: "tool",
      },
      { type: "STEP_STARTED", stepName: "n2" },
      { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "Done." },
      { type: "STEP_FINISHED", stepName: "n2" },
      { type: "TEXT_MESSAGE_END", messageId: "m2" },
      finished({ type: "success" }),
    ],
  },
  {
    name: "a call with no result when the run completes is pending (client-side tool)",
    events: [
      { type: "tool_call_start", toolCallId: "c9", name: "confirm", argsDelta: "{}" },
      { type: "done", status: "completed", usage: null },
    ],
    expected: [
      STARTED,
      { type: "TOOL_CALL_START", toolCallId: "c9", toolCallName: "confirm" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c9", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "c9" },
      finished({ type: "success", pendingToolCallIds: ["c9"] }),
    ],
  },
  {
    name: "reasoning is a REASONING span closed before the answer",
    events: [
      { type: "reasoning_delta", messageId: "m1", delta: "think" },
      { type: "text_delta", messageId: "m1", delta: "answer" },
      { type: "done", status: "completed", usage: null },
    ],
    expected: [
      STARTED,
      { type: "REASONING_START", messageId: "m1:reasoning" },
      { type: "REASONING_MESSAGE_START", messageId: "m1:reasoning", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "m1:reasoning", delta: "think" },
      { type: "REASONING_MESSAGE_END", messageId: "m1:reasoning" },
      { type: "REASONING_END", messageId: "m1:reasoning" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "answer" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      finished({ type: "success" }),
    ],
  },
  {
    name: "a provider failure is RUN_ERROR, and nothing follows it",
    events: [
      { type: "text_delta", messageId: "m1", delta: "par" },
      { type: "error", code: "provider_rate_limit", message: "slow down", recoverable: false },
      { type: "done", status: "failed", usage: null },
    ],
    expected: [
      STARTED,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "par" },
      { type: "RUN_ERROR", message: "slow down", code: "provider_rate_limit" },
    ],
  },
  {
    name: "a failed run without an error event still ends in RUN_ERROR",
    events: [{ type: "done", status: "failed", usage: null }],
    expected: [STARTED, { type: "RUN_ERROR", message: "The run failed.", code: "run_failed" }],
  },
  {
    name: "a cancelled run (abort) finishes cancelled, closing what is open",
    events: [
      node("start"),
      { type: "text_delta", messageId: "m1", delta: "x" },
      { type: "done", status: "cancelled", usage: null },
    ],
    expected: [
      STARTED,
      { type: "STEP_STARTED", stepName: "n1" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "STEP_FINISHED", stepName: "n1" },
      finished({ type: "cancelled" }),
    ],
  },
  {
    name: "an approval wait ends the AG-UI run with an interrupt outcome",
    events: [
      { type: "tool_call_start", toolCallId: "c1", name: "run_command", argsDelta: "{}" },
      { type: "interrupt", interruptId: "ap1", nodeName: "c1", message: "Run it?", data: {} },
      { type: "text_delta", messageId: "m", delta: "after" },
    ],
    expected: [
      STARTED,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "run_command" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      finished({
        type: "interrupt",
        interrupts: [{ id: "ap1", reason: "approval", message: "Run it?", toolCallId: "c1" }],
      }),
    ],
  },
  {
    name:
      "an ask_user question ends the AG-UI run as a question interrupt with its answer's schema",
    events: [
      {
        type: "interrupt",
        interruptId: "ap2",
        nodeName: "c9",
        message: "Ask: port?",
        data: {
          decisions: ["allow_once", "deny"],
          question: { text: "Which port?", choices: ["80", "8080"] },
        },
      },
    ],
    expected: [
      STARTED,
      finished({
        type: "interrupt",
        interrupts: [{
          id: "ap2",
          reason: "question",
          message: "Which port?",
          toolCallId: "c9",
          responseSchema: {
            type: "object",
            properties: {
              answer: { type: "string", enum: ["80", "8080"] },
              decision: { type: "string", enum: ["allow_once", "deny"] },
            },
          },
        }],
      }),
    ],
  },
  {
    name: "a client-side wait ends the AG-UI run successfully with its calls pending",
    events: [
      { type: "tool_call_start", toolCallId: "c1", name: "get_weather", argsDelta: "{}" },
      { type: "tool_call_start", toolCallId: "c2", name: "echo", argsDelta: "{}" },
      { type: "tool_call_end", toolCallId: "c2", result: "ok", isError: false },
      {
        type: "interrupt",
        interruptId: "r/client_tools/9",
        nodeName: null,
        message: "Waiting for the client's tool results",
        data: { reason: "client_tool", toolCallIds: ["c1"] },
      },
    ],
    expected: [
      STARTED,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "get_weather" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "echo" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c2", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "c2" },
      {
        type: "TOOL_CALL_RESULT",
        messageId: "c2:result",
        toolCallId: "c2",
        content: "ok",
        role: "tool",
      },
      finished({ type: "success", pendingToolCallIds: ["c1"] }),
    ],
  },
  {
    name: "files and custom events are CUSTOM; sub-agents are SUBAGENT_*; soft errors are left out",
    events: [
      { type: "custom", name: "daedalus.file_change", payload: { path: "a" } },
      {
        type: "file_output",
        fileId: "f",
        kind: "document",
        mimeType: "text/plain",
        url: "data:,x",
        name: "x.txt",
      },
      { type: "subagent_start", runId: "s1", agentName: "research", taskDescription: "t" },
      { type: "subagent_end", runId: "s1", agentName: "research", status: "completed" },
      { type: "subagent_start", runId: "s2", agentName: "write", taskDescription: "t" },
      { type: "subagent_end", runId: "s2", agentName: "write", status: "failed" },
      { type: "error", code: "retry", message: "retrying", recoverable: true },
    ],
    expected: [
      STARTED,
      { type: "CUSTOM", name: "daedalus.file_change", value: { path: "a" } },
      {
        type: "CUSTOM",
        name: "file_output",
        value: {
          fileId: "f",
          kind: "document",
          mimeType: "text/plain",
          url: "data:,x",
          name: "x.txt",
        },
      },
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "research" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "write" },
      { type: "SUBAGENT_ERROR", subagentRunId: "s2", message: "write failed" },
    ],
  },
];

for (const { name, events, expected } of CASES) {
  Deno.test(`canonical → AG-UI: ${name}`, () => {
    const { out } = run(events);
    assert.deepEqual(bare(out), expected, `${name}: got ${JSON.stringify(bare(out), null, 1)}`);
  });
}

Deno.test("canonical → AG-UI: every event has an integer timestamp", () => {
  const { out } = run([{ type: "done", status: "completed", usage: null }]);
  const encoder = new AgUiEncoder(IDS);
  const fractional = encoder.start(AT + 0.7);
  for (const event of [...out, ...fractional]) {
    assert.ok(Number.isInteger(event.timestamp), `${event.type}: ${event.timestamp}`);
  }
});

Deno.test("canonical → AG-UI: RUN_FINISHED reports the summed usage when the model is known", () => {
  const { out, encoder } = run([
    { type: "usage", usage: USAGE },
    { type: "usage", usage: USAGE },
    { type: "done", status: "completed", usage: null },
  ], { ...IDS, model: { provider: "p", model: "m" } });
  assert.deepEqual(out.at(-1)!.usage, [
    { provider: "p", model: "m", inputTokens: 10, outputTokens: 4, totalTokens: 14 },
  ]);
  assert.ok(encoder.ended);
  assert.equal(
    run([{ type: "usage", usage: USAGE }, { type: "done", status: "completed", usage: null }])
      .out.at(-1)!.usage,
    undefined,
    "usage without a model",
  );
});
