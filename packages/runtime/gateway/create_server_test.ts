import assert from "node:assert/strict";
import { ChatClient } from "dify-client";
import { HttpAgent } from "@ag-ui/client";
import { type AgentRequest, createServer } from "./create_server.ts";

/** A toy agent: a tool call and an answer; "boom" throws; "slow" streams until stopped. */
async function* toyAgent(request: AgentRequest) {
  if (request.query === "boom") throw new Error("the toy broke");
  if (request.query === "slow") {
    for (let i = 0; i < 100 && !request.signal.aborted; i++) {
      yield `tick ${i} `;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return;
  }
  yield { type: "tool_call_start" as const, toolCallId: "t1", name: "lookup", argsDelta: "{}" };
  yield { type: "tool_call_end" as const, toolCallId: "t1", result: "42", isError: false };
  yield `You said ${request.query}; I remember ${request.messages.length} messages.`;
}

async function withServer(fn: (base: string) => Promise<void>) {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    createServer(toyAgent).fetch,
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

async function text(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream) {
    out += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return out;
}

const dataLines = (body: string) =>
  body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));

Deno.test("createServer: dify-client streams a toy agent, continues, gets errors, stops", async () => {
  await withServer(async (base) => {
    const dify = new ChatClient("unused", `${base}/v1`);
    const first = dataLines(await text((await dify.createChatMessage({}, "hi", "u", true)).data));
    assert.deepEqual(first.map((d) => d.event), [
      "agent_thought",
      "agent_thought",
      "agent_message",
      "message_end",
    ]);
    assert.equal(first[1].observation, "42");
    const conversation = first[0].conversation_id;
    const second = await dify.createChatMessage({}, "again", "u", false, conversation);
    assert.equal(second.data.answer, "You said again; I remember 2 messages.");
    const failed = dataLines(
      await text((await dify.createChatMessage({}, "boom", "u", true)).data),
    );
    assert.deepEqual(failed.at(-1), { ...failed.at(-1), event: "error", message: "the toy broke" });

    const slow = await dify.createChatMessage({}, "slow", "u", true);
    const chunks = (slow.data as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    let body = "";
    let taskId: string | undefined;
    while (!taskId) {
      const next = await chunks.next();
      if (next.done) throw new Error("ended before data");
      body += new TextDecoder().decode(next.value);
      taskId = /"task_id":"([^"]+)"/.exec(body)?.[1];
    }
    const stopped = await dify.sendRequest("POST", `/chat-messages/${taskId}/stop`, { user: "u" });
    assert.deepEqual(stopped.data, { result: "success" });
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      body += new TextDecoder().decode(next.value);
    }
    const end = dataLines(body).at(-1);
    assert.equal(end.event, "message_end");
    assert.ok(!body.includes("tick 99"), "the agent was not stopped");
  });
});

Deno.test("createServer: HttpAgent runs the toy agent; a throw is RUN_ERROR", async () => {
  await withServer(async (base) => {
    const agent = new HttpAgent({ url: `${base}/ag-ui`, threadId: "th" });
    agent.addMessage({ id: "u1", role: "user", content: "hello" });
    const result = await agent.runAgent({ runId: "r1" });
    const assistant = result.newMessages.filter((m) => m.role === "assistant");
    assert.ok(
      assistant.some((m) => m.role === "assistant" && m.toolCalls?.[0]?.function.name === "lookup"),
      JSON.stringify(result.newMessages),
    );
    assert.ok(result.newMessages.some((m) => m.role === "tool" && m.content === "42"));
    assert.ok(
      assistant.some((m) => String(m.content ?? "").startsWith("You said hello")),
      JSON.stringify(assistant),
    );
    const failing = new HttpAgent({ url: `${base}/ag-ui`, threadId: "th2" });
    failing.addMessage({ id: "u2", role: "user", content: "boom" });
    const errors: string[] = [];
    await failing.runAgent({ runId: "r2" }, {
      onRunErrorEvent: ({ event }) => {
        errors.push(event.message);
      },
    });
    assert.deepEqual(errors, ["the toy broke"]);
  });
});
