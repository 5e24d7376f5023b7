import assert from "node:assert/strict";
import type { CanonicalEvent } from "@daedalus/protocol";
import { agentEvents, type AgentOutcome, type AgentRequest } from "./create_server_agent.ts";

const request = (signal = new AbortController().signal): AgentRequest => ({
  query: "q",
  conversationId: "c",
  messages: [],
  inputs: {},
  signal,
});

async function run(
  items: () => AsyncIterable<string | CanonicalEvent>,
  signal?: AbortSignal,
): Promise<{ events: CanonicalEvent[]; ends: AgentOutcome[] }> {
  const ends: AgentOutcome[] = [];
  const events: CanonicalEvent[] = [];
  for await (const event of agentEvents(items, request(signal), "m", (o) => ends.push(o))) {
    events.push(event);
  }
  return { events, ends };
}

const completed: CanonicalEvent = { type: "done", status: "completed", usage: null };

Deno.test("agentEvents: what an agent yields becomes canonical events", async () => {
  const cases: {
    name: string;
    agent: () => AsyncIterable<string | CanonicalEvent>;
    events: CanonicalEvent[];
    answer: string;
  }[] = [
    {
      name: "strings are text deltas of the message id; empty ones are dropped; done is added",
      agent: async function* () {
        yield "a";
        yield "";
        yield "b";
      },
      events: [
        { type: "text_delta", messageId: "m", delta: "a" },
        { type: "text_delta", messageId: "m", delta: "b" },
        completed,
      ],
      answer: "ab",
    },
    {
      name: "events pass as they are and their text counts",
      agent: async function* () {
        yield { type: "tool_call_start", toolCallId: "t", name: "x", argsDelta: "{}" };
        yield { type: "text_delta", messageId: "own", delta: "c" };
      },
      events: [
        { type: "tool_call_start", toolCallId: "t", name: "x", argsDelta: "{}" },
        { type: "text_delta", messageId: "own", delta: "c" },
        completed,
      ],
      answer: "c",
    },
    {
      name: "the agent's own done ends the stream; nothing after it is read",
      agent: async function* () {
        yield "d";
        yield { type: "done", status: "completed", usage: null };
        yield "never";
      },
      events: [{ type: "text_delta", messageId: "m", delta: "d" }, completed],
      answer: "d",
    },
    {
      name: "a throw is a fatal error after what was said",
      agent: async function* () {
        yield "e";
        throw new Error("broke");
      },
      events: [
        { type: "text_delta", messageId: "m", delta: "e" },
        { type: "error", code: "agent_error", message: "broke", recoverable: false },
      ],
      answer: "e",
    },
    {
      name: "a thrown non-Error is said as text",
      agent: async function* () {
        yield* [];
        throw "plain";
      },
      events: [{ type: "error", code: "agent_error", message: "plain", recoverable: false }],
      answer: "",
    },
  ];
  for (const { name, agent, events, answer } of cases) {
    const got = await run(agent);
    assert.deepEqual(got.events, events, name);
    assert.deepEqual(got.ends, [{ answer }], `${name}: onEnd`);
  }
});

Deno.test("agentEvents: an aborted signal stops reading and the stream ends cancelled", async () => {
  const controller = new AbortController();
  const got = await run(async function* () {
    yield "before ";
    controller.abort();
    yield "after";
  }, controller.signal);
  assert.deepEqual(got.events, [
    { type: "text_delta", messageId: "m", delta: "before " },
    { type: "done", status: "cancelled", usage: null },
  ]);
  assert.deepEqual(got.ends, [{ answer: "before " }]);
});

Deno.test("agentEvents: a consumer that stops reading still ends the call once", async () => {
  const ends: AgentOutcome[] = [];
  const events = agentEvents(
    async function* () {
      yield "one ";
      yield "two";
    },
    request(),
    "m",
    (o) => ends.push(o),
  );
  for await (const _ of events) break;
  assert.deepEqual(ends, [{ answer: "one " }]);
});
