import assert from "node:assert/strict";
import {
  type CanonicalEvent,
  EventEnvelope,
  type Item,
  type JournalEvent,
  runFailureClass,
  type RunReasonCode,
  type TokenUsage,
} from "@daedalus/protocol";
import {
  canonicalFoldStart,
  canonicalStep,
  journalToCanonical,
  UNFINISHED_CALL_RESULT,
} from "./journal_to_canonical.ts";

const hex = (n: number) => n.toString(16).padStart(32, "0");
const THREAD = `thread_${hex(1)}`;
const BRANCH = `branch_${hex(1)}`;
const TURN = `turn_${hex(1)}`;
const RUN = `run_${hex(1)}`;
const OTHER_RUN = `run_${hex(2)}`;
const ANSWER = `item_${hex(10)}`;
const CALL = `item_${hex(11)}`;
const RESULT = `item_${hex(12)}`;
const AT = "2026-12-02T03:00:00.000Z";
const USAGE: TokenUsage = {
  inputTokens: 100,
  cachedInputTokens: null,
  outputTokens: 20,
  reasoningOutputTokens: 5,
  totalTokens: 120,
};

let seq = 0;

/** A journal event of RUN, validated by the protocol's own envelope schema. */
function journal(
  type: string,
  payload: Record<string, unknown>,
  scope: { itemId?: string | null; runId?: string } = {},
): JournalEvent {
  const runId = scope.runId ?? RUN;
  const itemId = scope.itemId ?? null;
  const mirrored: Record<string, unknown> = { turnId: TURN, runId };
  if (itemId !== null) mirrored.itemId = itemId;
  return EventEnvelope.parse({
    seq: ++seq,
    schemaVersion: 1,
    threadId: THREAD,
    branchId: BRANCH,
    turnId: TURN,
    runId,
    itemId,
    timestamp: AT,
    type,
    payload: { ...payload, ...mirrored },
  });
}

function item(id: string, fields: Partial<Item>): Item {
  return {
    id,
    turnId: TURN,
    runId: RUN,
    ordinal: 1,
    kind: "message",
    role: "assistant",
    status: "completed",
    content: "",
    data: {},
    createdAt: AT,
    updatedAt: AT,
    ...fields,
  };
}

const itemEvent = (type: "item.started" | "item.completed", it: Item, runId = RUN) =>
  journal(type, { item: it }, { itemId: it.id, runId });

const clientCall = item(CALL, {
  kind: "tool_call",
  status: "running",
  data: { toolId: "get_weather", arguments: {}, clientTool: true },
});
const serverCall = item(RESULT, {
  kind: "tool_call",
  status: "running",
  data: { toolId: "echo", arguments: {} },
});

/** RUN's `run.state_changed` running → waiting. */
function waiting(): JournalEvent {
  return journal("run.state_changed", {
    status: "waiting",
    previousStatus: "running",
    run: {
      id: RUN,
      turnId: TURN,
      threadId: THREAD,
      branchId: BRANCH,
      providerId: "p",
      modelId: "m",
      executionPolicy: "full_access",
      status: "waiting",
      reasonCode: null,
      failureClass: null,
      modelCalls: 1,
      compactions: 0,
      createdAt: AT,
      startedAt: AT,
      settledAt: null,
    },
  });
}
const deltaEvent = (text: string, field?: "content" | "reasoning", itemId = ANSWER) =>
  journal("item.delta", field ? { delta: text, field } : { delta: text }, { itemId });
const settledEvent = (
  status: "completed" | "failed" | "cancelled",
  reasonCode: RunReasonCode | null = null,
  errorMessage: string | null = null,
) =>
  journal("run.settled", {
    status,
    reasonCode,
    failureClass: reasonCode ? runFailureClass(reasonCode) : null,
    errorMessage,
  });
const inputPrepared = (callOrdinal: number) =>
  journal("model.input_prepared", {
    callOrdinal,
    stepOrdinal: callOrdinal,
    purpose: "execution",
    contextRevision: null,
    stepInput: {},
  });
const responseFinished = (callOrdinal: number, usage: TokenUsage | null) =>
  journal("model.response_finished", {
    callOrdinal,
    outcome: "completed",
    usage,
    responseModelId: "m-1",
    requestId: null,
  });
const approvalFields = {
  approvalId: `approval_${hex(1)}`,
  threadId: THREAD,
  toolCallItemId: CALL,
  tool: "run_command",
  summary: "Run `rm -rf build`",
  target: "rm -rf build",
  risk: "process",
  reasonCode: "high_risk_command",
  budget: null,
  rule: null,
  decisions: ["allow_once", "deny"],
  createdAt: AT,
};

const callItem = (status: Item["status"]) =>
  item(CALL, {
    kind: "tool_call",
    status,
    data: { toolId: "read_file", callId: "c1", arguments: { path: "a.ts" } },
  });
const resultItem = (status: Item["status"], isError = false) =>
  item(RESULT, {
    kind: "tool_result",
    role: "tool",
    status,
    content: isError ? "no such file" : "export {}",
    data: { toolCallItemId: CALL, isError },
  });

const modelStart = (n: number): CanonicalEvent => ({
  type: "node_lifecycle",
  nodeId: `${RUN}/model_call/${n}`,
  nodeType: "model",
  title: `Model call ${n}`,
  phase: "start",
  metadata: { purpose: "execution", stepOrdinal: n },
});
const modelEnd = (n: number): CanonicalEvent => ({
  type: "node_lifecycle",
  nodeId: `${RUN}/model_call/${n}`,
  nodeType: "model",
  title: `Model call ${n}`,
  phase: "end",
  metadata: { outcome: "completed", responseModelId: "m-1" },
});

/** Each case: a Run's journal and the canonical events it must translate to. */
const CASES: { name: string; journal: () => JournalEvent[]; expected: CanonicalEvent[] }[] = [
  {
    name: "a streamed answer: deltas, usage, done with the usage",
    journal: () => [
      inputPrepared(1),
      itemEvent("item.started", item(ANSWER, { status: "streaming" })),
      deltaEvent("thinking", "reasoning"),
      deltaEvent("Hel"),
      deltaEvent("lo", "content"),
      itemEvent(
        "item.completed",
        item(ANSWER, { content: "Hello", data: { reasoning: "thinking" } }),
      ),
      responseFinished(1, USAGE),
      settledEvent("completed"),
    ],
    expected: [
      modelStart(1),
      { type: "reasoning_delta", messageId: ANSWER, delta: "thinking" },
      { type: "text_delta", messageId: ANSWER, delta: "Hel" },
      { type: "text_delta", messageId: ANSWER, delta: "lo" },
      modelEnd(1),
      { type: "usage", usage: USAGE },
      { type: "done", status: "completed", usage: USAGE },
    ],
  },
  {
    name: "an answer recorded whole (no deltas) goes out as one delta of each text",
    journal: () => [
      itemEvent("item.completed", item(ANSWER, { content: "All", data: { reasoning: "r" } })),
      settledEvent("completed"),
    ],
    expected: [
      { type: "reasoning_delta", messageId: ANSWER, delta: "r" },
      { type: "text_delta", messageId: ANSWER, delta: "All" },
      { type: "done", status: "completed", usage: null },
    ],
  },
  {
    name: "a partly streamed answer sends only the rest on completion",
    journal: () => [
      deltaEvent("Hello "),
      itemEvent("item.completed", item(ANSWER, { content: "Hello world" })),
    ],
    expected: [
      { type: "text_delta", messageId: ANSWER, delta: "Hello " },
      { type: "text_delta", messageId: ANSWER, delta: "world" },
    ],
  },
  {
    name: "user messages and other runs' events are not translated",
    journal: () => [
      itemEvent("item.completed", item(`item_${hex(20)}`, { role: "user", content: "hi" })),
      itemEvent("item.completed", item(`item_${hex(21)}`, { content: "theirs" }), OTHER_RUN),
      journal("run.settled", {
        status: "completed",
        reasonCode: null,
        failureClass: null,
        errorMessage: null,
      }, { runId: OTHER_RUN }),
    ],
    expected: [],
  },
  {
    name: "a tool call with its result; a second sighting of the call is not a new start",
    journal: () => [
      itemEvent("item.started", callItem("running")),
      itemEvent("item.completed", resultItem("completed")),
      itemEvent("item.completed", callItem("completed")),
      settledEvent("completed"),
    ],
    expected: [
      {
        type: "tool_call_start",
        toolCallId: CALL,
        name: "read_file",
        argsDelta: '{"path":"a.ts"}',
      },
      { type: "tool_call_end", toolCallId: CALL, result: "export {}", isError: false },
      { type: "done", status: "completed", usage: null },
    ],
  },
  {
    name: "a failed tool result ends its call as an error",
    journal: () => [
      itemEvent("item.started", callItem("running")),
      itemEvent("item.completed", resultItem("completed", true)),
    ],
    expected: [
      {
        type: "tool_call_start",
        toolCallId: CALL,
        name: "read_file",
        argsDelta: '{"path":"a.ts"}',
      },
      { type: "tool_call_end", toolCallId: CALL, result: "no such file", isError: true },
    ],
  },
  {
    name: "a call without a result ends when its Run settles (cancelled)",
    journal: () => [
      itemEvent("item.started", callItem("running")),
      settledEvent("cancelled", "cancelled"),
    ],
    expected: [
      {
        type: "tool_call_start",
        toolCallId: CALL,
        name: "read_file",
        argsDelta: '{"path":"a.ts"}',
      },
      { type: "tool_call_end", toolCallId: CALL, result: UNFINISHED_CALL_RESULT, isError: true },
      { type: "done", status: "cancelled", usage: null },
    ],
  },
  {
    name: "a failed Run: error with its reason code and message, then done",
    journal: () => [settledEvent("failed", "provider_rate_limit", "429 from upstream")],
    expected: [
      {
        type: "error",
        code: "provider_rate_limit",
        message: "429 from upstream",
        recoverable: false,
      },
      { type: "done", status: "failed", usage: null },
    ],
  },
  {
    name: "a failed Run without a message says its code",
    journal: () => [settledEvent("failed", "agent_error")],
    expected: [
      {
        type: "error",
        code: "agent_error",
        message: "The run failed (agent_error).",
        recoverable: false,
      },
      { type: "done", status: "failed", usage: null },
    ],
  },
  {
    name: "usage of several calls is summed into done; a call without usage adds nothing",
    journal: () => [
      responseFinished(1, USAGE),
      responseFinished(2, null),
      responseFinished(3, { ...USAGE, cachedInputTokens: 40, reasoningOutputTokens: null }),
      settledEvent("completed"),
    ],
    expected: [
      modelEnd(1),
      { type: "usage", usage: USAGE },
      modelEnd(2),
      modelEnd(3),
      { type: "usage", usage: { ...USAGE, cachedInputTokens: 40, reasoningOutputTokens: null } },
      {
        type: "done",
        status: "completed",
        usage: {
          inputTokens: 200,
          cachedInputTokens: 40,
          outputTokens: 40,
          reasoningOutputTokens: 5,
          totalTokens: 240,
        },
      },
    ],
  },
  {
    name: "an approval wait is an interrupt; its answer a custom event",
    journal: () => [
      journal("approval.requested", {
        ...approvalFields,
        status: "pending",
        decision: null,
        message: null,
        resolvedAt: null,
      }),
      journal("approval.resolved", {
        ...approvalFields,
        status: "denied",
        decision: "deny",
        message: null,
        resolvedAt: AT,
      }),
    ],
    expected: [
      {
        type: "interrupt",
        interruptId: approvalFields.approvalId,
        nodeName: CALL,
        message: "Run `rm -rf build`",
        data: {
          tool: "run_command",
          target: "rm -rf build",
          risk: "process",
          reasonCode: "high_risk_command",
          decisions: ["allow_once", "deny"],
        },
      },
      {
        type: "custom",
        name: "daedalus.approval_resolved",
        payload: { approvalId: approvalFields.approvalId, status: "denied", decision: "deny" },
      },
    ],
  },
  {
    name: "an ask_user question is an interrupt carrying the question",
    journal: () => [
      journal("approval.requested", {
        ...approvalFields,
        tool: "ask_user",
        summary: "Which port?",
        target: null,
        risk: "read",
        reasonCode: "user_question",
        decisions: ["allow_once", "deny"],
        question: { text: "Which port?", choices: ["8080", "9090"] },
        status: "pending",
        decision: null,
        message: null,
        resolvedAt: null,
      }),
    ],
    expected: [
      {
        type: "interrupt",
        interruptId: approvalFields.approvalId,
        nodeName: CALL,
        message: "Which port?",
        data: {
          tool: "ask_user",
          target: null,
          risk: "read",
          reasonCode: "user_question",
          decisions: ["allow_once", "deny"],
          question: { text: "Which port?", choices: ["8080", "9090"] },
        },
      },
    ],
  },
  {
    name: "a wait for an approval is not a client wait, even with client-side calls open",
    journal: () => [
      itemEvent("item.started", clientCall),
      journal("approval.requested", {
        ...approvalFields,
        status: "pending",
        decision: null,
        message: null,
        resolvedAt: null,
      }),
      waiting(),
    ],
    expected: [
      { type: "tool_call_start", toolCallId: CALL, name: "get_weather", argsDelta: "{}" },
      {
        type: "interrupt",
        interruptId: approvalFields.approvalId,
        nodeName: CALL,
        message: "Run `rm -rf build`",
        data: {
          tool: "run_command",
          target: "rm -rf build",
          risk: "process",
          reasonCode: "high_risk_command",
          decisions: ["allow_once", "deny"],
        },
      },
    ],
  },
  {
    name: "file changes, progress, fallbacks, compactions and steers are custom events",
    journal: () => [
      journal("file.change_recorded", {
        toolCallItemId: CALL,
        path: "a.ts",
        operation: "edit",
        additions: 2,
        deletions: 1,
      }),
      journal("item.progress", { progress: 1, total: 4, message: "step" }, { itemId: CALL }),
      journal("run.model_fallback", {
        fromProviderId: "p",
        fromModelId: "a",
        toProviderId: "q",
        toModelId: "b",
        reasonCode: "provider_rate_limit",
        callOrdinal: 1,
      }),
      journal("context.compacted", { revision: 2 }),
      journal("run.steered", {
        item: item(`item_${hex(30)}`, { role: "user", content: "faster" }),
      }),
    ],
    expected: [
      {
        type: "custom",
        name: "daedalus.file_change",
        payload: { toolCallId: CALL, path: "a.ts", operation: "edit", additions: 2, deletions: 1 },
      },
      {
        type: "custom",
        name: "daedalus.tool_progress",
        payload: { toolCallId: CALL, progress: 1, total: 4, message: "step" },
      },
      {
        type: "custom",
        name: "daedalus.model_fallback",
        payload: {
          fromProviderId: "p",
          fromModelId: "a",
          toProviderId: "q",
          toModelId: "b",
          reasonCode: "provider_rate_limit",
        },
      },
      { type: "custom", name: "daedalus.context_compacted", payload: { revision: 2 } },
      { type: "custom", name: "daedalus.steered", payload: { content: "faster" } },
    ],
  },
  {
    name: "nothing follows done",
    journal: () => [settledEvent("completed"), deltaEvent("late")],
    expected: [{ type: "done", status: "completed", usage: null }],
  },
];

for (const { name, journal: build, expected } of CASES) {
  Deno.test(`journal → canonical: ${name}`, () => {
    const out = journalToCanonical(RUN, build()).map((e) => e.event);
    assert.deepEqual(out, expected, `${name}: got ${JSON.stringify(out, null, 1)}`);
  });
}

Deno.test("journal → canonical: each event carries its journal seq; a replay resumes after one", () => {
  const events = [
    itemEvent("item.started", item(ANSWER, { status: "streaming" })),
    deltaEvent("a"),
    deltaEvent("b"),
    itemEvent("item.completed", item(ANSWER, { content: "abc" })),
  ];
  const all = journalToCanonical(RUN, events);
  assert.deepEqual(all.map((e) => e.seq), [events[1].seq, events[2].seq, events[3].seq]);
  // The state folds over the skipped events: the completion sends only "c", not "abc".
  const resumed = journalToCanonical(RUN, events, events[2].seq);
  assert.deepEqual(resumed, [
    { seq: events[3].seq, event: { type: "text_delta", messageId: ANSWER, delta: "c" } },
  ]);
});

Deno.test("journal → canonical: the step never mutates the state it is given", () => {
  const start = canonicalFoldStart(RUN);
  const frozen = JSON.stringify(start);
  const first = canonicalStep(start, itemEvent("item.started", callItem("running")));
  canonicalStep(first.state, settledEvent("completed"));
  assert.equal(JSON.stringify(start), frozen);
  assert.deepEqual(first.state.openCalls, [CALL]);
});

Deno.test("journal → canonical: every translated event is a valid canonical event", async () => {
  const { CanonicalEvent } = await import("@daedalus/protocol");
  for (const { name, journal: build } of CASES) {
    for (const { event } of journalToCanonical(RUN, build())) {
      const parsed = CanonicalEvent.safeParse(event);
      assert.ok(parsed.success, `${name}: ${JSON.stringify(event)} is not canonical`);
    }
  }
});

Deno.test("journal → canonical: a Run waiting for its client-side calls is an interrupt naming them", () => {
  const wait = [itemEvent("item.started", clientCall), itemEvent("item.started", serverCall)];
  const changed = waiting();
  const out = journalToCanonical(RUN, [...wait, changed]).map(({ event }) => event);
  assert.deepEqual(out.at(-1), {
    type: "interrupt",
    interruptId: `${RUN}/client_tools/${changed.seq}`,
    nodeName: null,
    message: "Waiting for the client's tool results",
    data: { reason: "client_tool", toolCallIds: [CALL] },
  }, "the interrupt names only the client's call");
  const resumed = journalToCanonical(RUN, [
    ...wait,
    itemEvent("item.completed", { ...serverCall, status: "completed" }),
    waiting(),
  ]).map(({ event }) => event);
  assert.equal(resumed.filter((e) => e.type === "interrupt").length, 1);
  const none = journalToCanonical(RUN, [itemEvent("item.started", serverCall), waiting()]);
  assert.ok(!none.some(({ event }) => event.type === "interrupt"), "a wait with no client call");
});
