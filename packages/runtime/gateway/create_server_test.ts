import assert from "node:assert/strict";
import { ChatClient } from "dify-client";
import { HttpAgent } from "@ag-ui/client";
import { Hono } from "hono";
import { type AgentRequest, type AgentServer, createServer } from "./create_server.ts";

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

async function withServer(
  fn: (base: string) => Promise<void>,
  app: { fetch: AgentServer["fetch"] } = createServer(toyAgent),
) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
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

/** A rejected axios call's status and JSON body (dify-client rejects non-2xx answers). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, data: response.data };
    throw error;
  }
  throw new Error("the call was not refused");
}

Deno.test("createServer: with keys, mounted, dify-client reads parameters, conversations and messages per user, deletes", async () => {
  const server = createServer(toyAgent, {
    apiKeys: ["app-good"],
    difyPrefix: "/dify/v1",
    parameters: { opening_statement: "Welcome", suggested_questions: ["What is 42?"] },
  });
  const outer = new Hono();
  outer.get("/", (c) => c.text("the host app"));
  outer.route("/agent", server);
  await withServer(async (base) => {
    const dify = new ChatClient("app-good", `${base}/agent/dify/v1`);
    const parameters = await dify.getApplicationParameters("alice");
    assert.equal(parameters.data.opening_statement, "Welcome");
    assert.deepEqual(parameters.data.suggested_questions, ["What is 42?"]);
    assert.deepEqual(parameters.data.user_input_form, []);

    const first = await dify.createChatMessage({ topic: "t" }, "first", "alice", false);
    const conversation = first.data.conversation_id as string;
    await dify.createChatMessage({}, "second", "alice", false, conversation);
    const other = await dify.createChatMessage({}, "alone", "alice", false);
    const bobs = await dify.createChatMessage({}, "bob's", "bob", false);

    const listed = await dify.getConversations("alice");
    assert.equal(listed.data.has_more, false);
    assert.deepEqual(
      listed.data.data.map((c: { id: string }) => c.id),
      [other.data.conversation_id, conversation],
      "alice's conversations, most recently updated first",
    );
    const updated = listed.data.data[1];
    assert.deepEqual(
      { ...updated, created_at: 0, updated_at: 0 },
      {
        id: conversation,
        name: "first",
        inputs: { topic: "t" },
        status: "normal",
        introduction: "Welcome",
        created_at: 0,
        updated_at: 0,
      },
    );
    const paged = await dify.getConversations("alice", null, 1);
    assert.equal(paged.data.has_more, true);
    assert.equal(paged.data.data.length, 1);
    // dify-client names its cursor first_id; it pages as Dify's last_id.
    const next = await dify.getConversations("alice", other.data.conversation_id, 1);
    assert.deepEqual(next.data.data.map((c: { id: string }) => c.id), [conversation]);
    assert.equal(next.data.has_more, false);
    const oldestFirst = await dify.sendRequest("GET", "/conversations", null, {
      user: "alice",
      sort_by: "created_at",
    });
    assert.equal(oldestFirst.data.data[0].id, conversation);

    const messages = await dify.getConversationMessages("alice", conversation);
    assert.equal(messages.data.has_more, false);
    assert.deepEqual(messages.data.data.map((m: { query: string }) => m.query), [
      "first",
      "second",
    ]);
    const [message] = messages.data.data;
    assert.equal(message.id, first.data.message_id);
    assert.equal(message.conversation_id, conversation);
    assert.equal(message.answer, "You said first; I remember 0 messages.");
    assert.equal(message.feedback, null);
    assert.deepEqual(message.message_files, []);
    assert.equal(typeof message.created_at, "number");
    assert.equal(message.agent_thoughts.length, 1);
    assert.deepEqual({ ...message.agent_thoughts[0], created_at: 0 }, {
      id: "t1",
      chain_id: null,
      message_id: first.data.message_id,
      position: 1,
      thought: "",
      tool: "lookup",
      tool_input: JSON.stringify({ lookup: {} }),
      created_at: 0,
      observation: "42",
      message_files: [],
    });
    const older = await dify.getConversationMessages(
      "alice",
      conversation,
      messages.data.data[1].id,
      1,
    );
    assert.deepEqual(older.data.data.map((m: { query: string }) => m.query), ["first"]);

    const notBobs = await refusal(dify.getConversationMessages("bob", conversation));
    assert.deepEqual(notBobs, {
      status: 404,
      data: { code: "not_found", message: "Conversation Not Exists.", status: 404 },
    });
    const noContinuation = await refusal(
      dify.createChatMessage({}, "hijack", "bob", false, conversation),
    );
    assert.equal(noContinuation.status, 404, "bob continued alice's conversation");
    assert.equal((await refusal(dify.deleteConversation(conversation, "bob"))).status, 404);
    assert.deepEqual(
      (await dify.getConversations("bob")).data.data.map((c: { id: string }) => c.id),
      [
        bobs.data.conversation_id,
      ],
    );

    assert.deepEqual((await dify.deleteConversation(conversation, "alice")).data, {
      result: "success",
    });
    assert.deepEqual(
      (await dify.getConversations("alice")).data.data.map((c: { id: string }) => c.id),
      [other.data.conversation_id],
    );
    assert.equal((await refusal(dify.getConversationMessages("alice", conversation))).status, 404);

    for (const key of ["app-bad", "app-goo", ""]) {
      const wrong = new ChatClient(key, `${base}/agent/dify/v1`);
      assert.deepEqual(await refusal(wrong.getApplicationParameters("alice")), {
        status: 401,
        data: {
          code: "unauthorized",
          message: key === ""
            ? "Authorization header must be provided and start with 'Bearer'"
            : "Access token is invalid",
          status: 401,
        },
      }, `key ${JSON.stringify(key)}`);
    }
    const refusedStream = await refusal(new ChatClient("app-bad", `${base}/agent/dify/v1`)
      .createChatMessage({}, "hi", "alice", true));
    assert.equal(refusedStream.status, 401);
    assert.equal((await fetch(`${base}/`)).status, 200, "the host app's own route");
    assert.equal(await (await fetch(`${base}/agent/v1/parameters`)).text(), "404 Not Found");
  }, outer);
});

Deno.test("createServer: Dify's bad reads are Dify's errors", async () => {
  await withServer(async (base) => {
    const cases: { path: string; status: number; message: string }[] = [
      { path: "/conversations", status: 400, message: "Arg user must be provided." },
      { path: "/conversations?user=u&limit=0", status: 400, message: "limit: 1 to 100" },
      { path: "/conversations?user=u&limit=101", status: 400, message: "limit: 1 to 100" },
      {
        path: "/conversations?user=u&sort_by=name",
        status: 400,
        message: "sort_by: one of created_at, -created_at, updated_at, -updated_at",
      },
      {
        path: `/conversations?user=u&last_id=${crypto.randomUUID()}`,
        status: 404,
        message: "Last Conversation Not Exists.",
      },
      { path: "/messages?user=u", status: 400, message: "conversation_id is required" },
      {
        path: "/messages?user=u&conversation_id=x",
        status: 404,
        message: "Conversation Not Exists.",
      },
    ];
    for (const { path, status, message } of cases) {
      const response = await fetch(`${base}/v1${path}`);
      const body = await response.json();
      assert.deepEqual([response.status, body.message], [status, message], path);
      assert.equal(body.status, status, path);
    }
    const stop = await fetch(`${base}/v1/chat-messages/nope/stop`, {
      method: "POST",
      body: JSON.stringify({ user: "u" }),
    });
    assert.equal(stop.status, 404);
  });
});

Deno.test("createServer: HttpAgent with a key reaches /ag-ui/:agent; a wrong key is a 401", async () => {
  const agents: (string | undefined)[] = [];
  const server = createServer(async function* (request) {
    agents.push(request.agent);
    yield `agent ${request.agent ?? "(none)"} heard ${request.query}`;
  }, { apiKeys: async (key) => await Promise.resolve(key === "app-ag") });
  await withServer(async (base) => {
    const headers = { Authorization: "Bearer app-ag" };
    const named = new HttpAgent({ url: `${base}/ag-ui/weather`, threadId: "t1", headers });
    named.addMessage({ id: "u1", role: "user", content: "hi" });
    const result = await named.runAgent({ runId: "r1" });
    assert.ok(
      result.newMessages.some((m) =>
        m.role === "assistant" && m.content === "agent weather heard hi"
      ),
      JSON.stringify(result.newMessages),
    );
    const plain = new HttpAgent({ url: `${base}/ag-ui`, threadId: "t2", headers });
    plain.addMessage({ id: "u2", role: "user", content: "yo" });
    await plain.runAgent({ runId: "r2" });
    assert.deepEqual(agents, ["weather", undefined]);

    const wrong = new HttpAgent({
      url: `${base}/ag-ui/weather`,
      threadId: "t3",
      headers: { Authorization: "Bearer app-nope" },
    });
    wrong.addMessage({ id: "u3", role: "user", content: "hi" });
    const failures: string[] = [];
    await assert.rejects(
      wrong.runAgent({ runId: "r3" }, {
        onRunFailed: ({ error }) => {
          failures.push(error.message);
        },
      }),
      /HTTP 401/,
    );
    assert.match(failures.join(), /Access token is invalid/);
    assert.deepEqual(agents, ["weather", undefined], "a refused request reached the agent");
  }, server);
});

Deno.test("createServer: the README's example runs with deno run and answers both clients", async () => {
  const example = new URL("../examples/create_server.ts", import.meta.url);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", example.pathname, "0"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Deno.serve says where it listens on stderr.
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let out = "";
    let port: string | undefined;
    while (!port) {
      const next = await lines.read();
      if (next.done) throw new Error(`the example ended: ${out}`);
      out += next.value;
      port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    }
    const base = `http://127.0.0.1:${port}`;
    const { EXAMPLE_API_KEY } = await import("../examples/create_server.ts");
    const dify = new ChatClient(EXAMPLE_API_KEY, `${base}/v1`);
    const events = dataLines(
      await text((await dify.createChatMessage({}, "hello", "me", true)).data),
    );
    assert.deepEqual(events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1]), [
      "agent_thought",
      "agent_message",
      "message_end",
    ]);
    assert.equal(events[1].tool, "clock");
    const parameters = await dify.getApplicationParameters("me");
    assert.match(parameters.data.opening_statement, /time/);
    const agent = new HttpAgent({
      url: `${base}/ag-ui`,
      threadId: "t",
      headers: { Authorization: `Bearer ${EXAMPLE_API_KEY}` },
    });
    agent.addMessage({ id: "u", role: "user", content: "hi" });
    const result = await agent.runAgent({ runId: "r" });
    assert.ok(
      result.newMessages.some((m) => m.role === "tool"),
      JSON.stringify(result.newMessages),
    );
  } finally {
    child.kill("SIGTERM");
    await lines.cancel().catch(() => {});
    await child.status;
  }
});

Deno.test("createServer: the README shows the example file's code as it is", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const example = await Deno.readTextFile(new URL("../examples/create_server.ts", import.meta.url));
  const block = /\n {2}```ts\n( {2}import \{ type AgentRequest, createServer \}[\s\S]*?)\n {2}```\n/
    .exec(
      readme,
    )?.[1];
  assert.ok(block, "the README has no createServer example block");
  const unindented = block.split("\n").map((line) => line.replace(/^ {2}/, "")).join("\n");
  assert.ok(
    example.endsWith(`${unindented}\n`),
    "README.md's createServer example differs from examples/create_server.ts: copy the file's code into it",
  );
});

Deno.test("createServer: a key check that throws refuses; a blocking failure is Dify's 500", async () => {
  const server = createServer(toyAgent, {
    apiKeys: (key) => {
      if (key === "app-throws") throw new Error("database down");
      return key === "app-ok";
    },
  });
  await withServer(async (base) => {
    const thrown = await refusal(new ChatClient("app-throws", `${base}/v1`).getConversations("u"));
    assert.deepEqual(thrown, {
      status: 401,
      data: { code: "unauthorized", message: "Access token is invalid", status: 401 },
    });
    const dify = new ChatClient("app-ok", `${base}/v1`);
    const failed = await refusal(dify.createChatMessage({}, "boom", "u", false));
    assert.deepEqual(failed, {
      status: 500,
      data: { code: "internal_server_error", message: "the toy broke", status: 500 },
    });
    const scheme = await fetch(`${base}/ag-ui`, {
      method: "POST",
      headers: { Authorization: "Basic app-ok" },
      body: "{}",
    });
    assert.deepEqual([scheme.status, await scheme.json()], [401, {
      error: "Authorization scheme must be 'Bearer'",
      code: "unauthorized",
    }]);
  }, server);
});
