import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { openRuntimeCore, type RuntimeCore } from "../runtime_core.ts";
import {
  createScriptedProvider,
  type Script,
  type ScriptedProvider,
} from "../providers/scripted.ts";
import { type GatewayEnv, gatewayKeyAuth } from "./key_auth.ts";
import { ConversationOwners } from "./conversation_owners.ts";
import { difyRoutes } from "./dify_routes.ts";
import { difyFileRoutes } from "./dify_files.ts";
import { DIFY_PING_FRAME } from "./dify_sse.ts";

const echoTool = defineTool({
  id: "echo",
  description: "Echoes its text",
  params: z.object({ text: z.string().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: `echo: ${params.text}` }),
});

const USAGE = {
  inputTokens: 10,
  cachedInputTokens: null,
  outputTokens: 4,
  reasoningOutputTokens: null,
  totalTokens: 14,
};

interface Setup {
  core: RuntimeCore;
  provider: ScriptedProvider;
  key: string;
  chat: (body: Record<string, unknown>, key?: string) => Promise<Response>;
  stop: (taskId: string, user: string) => Promise<Response>;
  upload: (form: FormData, key?: string) => Promise<Response>;
}

async function withGateway(script: Script, fn: (setup: Setup) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-dify-" });
  // A "vision" model id takes images (providers/model_defaults.ts).
  const provider = createScriptedProvider({
    script,
    models: ["scripted-model", "scripted-vision"],
  });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider],
    tools: [echoTool],
    threadTitles: false,
    memoryRefinement: false,
  });
  try {
    const { key } = await core.gateway.keys.create("test", {
      providerId: "scripted",
      modelId: "scripted-model",
      permission: "full_access",
    });
    const app = new Hono<GatewayEnv>();
    app.use(
      "/dify/v1/*",
      gatewayKeyAuth({ keys: core.gateway.keys, limiter: core.gateway.limiter }),
    );
    const owners = await ConversationOwners.open(`${home}/gateway_conversations.json`);
    app.route(
      "/dify/v1",
      difyRoutes({ dispatcher: core.dispatcher, store: core.store, live: core.hub, owners }),
    );
    app.route("/dify/v1", difyFileRoutes({ attachmentsDir: `${home}/attachments`, owners }));
    const post = (path: string, body: unknown, bearer = key) =>
      app.request(`/dify/v1${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    await fn({
      core,
      provider,
      key,
      chat: async (body, bearer) => await post("/chat-messages", body, bearer),
      stop: async (taskId, user) => await post(`/chat-messages/${taskId}/stop`, { user }),
      upload: async (form, bearer = key) =>
        await app.request("/dify/v1/files/upload", {
          method: "POST",
          headers: { Authorization: `Bearer ${bearer}` },
          body: form,
        }),
    });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function sse(response: Response) {
  const text = await response.text();
  const frames = text.split("\n\n").filter((f) => f !== "").map((f) => `${f}\n\n`);
  const data = frames.filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));
  return { frames, data };
}

Deno.test("Dify streaming: ping, agent_thought upserts, agent_message, message_end with usage", async () => {
  await withGateway([
    { toolCalls: [{ name: "echo", arguments: { text: "hi" } }], usage: USAGE },
    { text: ["The echo ", "said hi."], usage: USAGE },
  ], async ({ chat }) => {
    const response = await chat({
      inputs: {},
      query: "echo hi",
      user: "u1",
      response_mode: "streaming",
      files: null,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("Content-Type") ?? "", /^text\/event-stream/);
    const { frames, data } = await sse(response);
    assert.equal(frames[0], DIFY_PING_FRAME);
    assert.deepEqual(data.map((d) => d.event), [
      "agent_thought",
      "agent_thought",
      "agent_message",
      "agent_message",
      "message_end",
    ]);
    assert.equal(data[0].id, data[1].id, "the thought was not upserted by id");
    assert.equal(data[1].position, 1);
    assert.equal(data[1].tool, "echo");
    assert.equal(data[1].tool_input, '{"echo":{"text":"hi"}}');
    assert.equal(data[1].observation, "echo: hi");
    assert.equal(data[2].answer + data[3].answer, "The echo said hi.");
    assert.equal(data[4].metadata.usage.total_tokens, 28);
    const ids = new Set(data.map((d) => `${d.task_id}|${d.message_id}|${d.conversation_id}`));
    assert.equal(ids.size, 1, "the objects disagree on their ids");
    for (const d of data) assert.equal(typeof d.created_at, "number");
  });
});

Deno.test("Dify blocking and continuation; someone else's conversation is 404", async () => {
  await withGateway([{ text: ["first"] }, { text: ["second"] }], async ({ chat, core }) => {
    const first = await chat({ query: "one", user: "u1", response_mode: "blocking" });
    assert.equal(first.status, 200);
    const answer = await first.json();
    assert.equal(answer.event, "message");
    assert.equal(answer.answer, "first");
    assert.equal(answer.id, answer.message_id);
    const second = await chat({
      query: "two",
      user: "u1",
      response_mode: "blocking",
      conversation_id: answer.conversation_id,
    });
    const continued = await second.json();
    assert.equal(continued.answer, "second");
    assert.equal(continued.conversation_id, answer.conversation_id, "a new conversation");
    for (
      const body of [
        { query: "x", user: "u2", conversation_id: answer.conversation_id },
        { query: "x", user: "u1", conversation_id: "00000000-0000-4000-8000-000000000000" },
      ]
    ) {
      const refused = await chat(body);
      assert.equal(refused.status, 404, JSON.stringify(body));
      assert.deepEqual(await refused.json(), {
        code: "not_found",
        message: "Conversation Not Exists.",
        status: 404,
      });
    }
    // The owner's own threads are not reachable through the gateway.
    const { thread } = (await core.dispatcher.dispatch("thread.create", {}, {
      id: "t",
      transport: "http",
    })).result as { thread: { id: string } };
    const hex = thread.id.slice("thread_".length);
    const ownerConversation = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${
      hex.slice(16, 20)
    }-${hex.slice(20)}`;
    assert.equal(
      (await chat({ query: "x", user: "u1", conversation_id: ownerConversation })).status,
      404,
    );
  });
});

Deno.test("Dify: bad bodies are 400 invalid_param, a wrong key 401; nothing is started", async () => {
  await withGateway([{ text: ["never"] }], async ({ chat, core }) => {
    const bad = await chat({ user: "u1" });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "invalid_param");
    const wrong = await chat({ query: "q", user: "u1" }, `app-${"0".repeat(40)}`);
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).message, "Access token is invalid");
    const threads = (await core.dispatcher.dispatch("thread.list", {}, {
      id: "t",
      transport: "http",
    })).result as { threads: unknown[] };
    assert.deepEqual(threads.threads, [], "a refused request made a thread");
  });
});

Deno.test("Dify stop mid-stream: the user must match; the stream ends with message_end", async () => {
  await withGateway(
    [{ text: ["partial", " more", " never"], delayMs: 200 }],
    async ({ chat, stop }) => {
      const response = await chat({ query: "long", user: "u1", response_mode: "streaming" });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let taskId: string | null = null;
      while (taskId === null) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended before any data");
        text += decoder.decode(value, { stream: true });
        const match = /"task_id":"(run_[0-9a-f]{32})"/.exec(text);
        if (match) taskId = match[1];
      }
      assert.equal((await stop(taskId, "someone-else")).status, 404);
      const stopped = await stop(taskId, "u1");
      assert.deepEqual(await stopped.json(), { result: "success" });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const data = text.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) =>
        JSON.parse(f.slice(6))
      );
      assert.equal(data.at(-1).event, "message_end");
      assert.ok(!text.includes("never"), "the stopped run went on");
    },
  );
});

Deno.test("Dify inputs reach the model before the query", async () => {
  await withGateway([{ text: ["ok"], usage: USAGE }], async ({ chat, provider }) => {
    const response = await chat({
      inputs: { city: "Paris", days: 3 },
      query: "Plan my trip",
      user: "u1",
      response_mode: "blocking",
    });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).answer, "ok");
    const seen = JSON.stringify(provider.requests[0]?.messages ?? provider.requests[0]);
    assert.ok(
      seen.includes('Inputs: {\\"city\\":\\"Paris\\",\\"days\\":3}\\n\\nPlan my trip'),
      `the model did not see the inputs: ${seen.slice(0, 2000)}`,
    );
  });
});

Deno.test("Dify files: an uploaded image reaches the model as an image part; remote_url is 400", async () => {
  await withGateway(
    [{ text: ["a cat"], usage: USAGE }],
    async ({ core, chat, upload, provider }) => {
      const { key } = await core.gateway.keys.create("vision", {
        providerId: "scripted",
        modelId: "scripted-vision",
        permission: "full_access",
      });
      const png = Uint8Array.from(
        atob(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
        ),
        (ch) => ch.charCodeAt(0),
      );
      const form = new FormData();
      form.append("file", new Blob([png], { type: "image/png" }), "cat.png");
      form.append("user", "u1");
      const uploaded = await upload(form, key);
      assert.equal(uploaded.status, 201);
      const { id } = await uploaded.json();
      const remote = await chat({
        query: "what is it?",
        user: "u1",
        files: [{ type: "image", transfer_method: "remote_url", url: "http://127.0.0.1:1/x.png" }],
      }, key);
      assert.equal(remote.status, 400);
      assert.match((await remote.json()).message, /does not fetch URLs/);
      const theirs = await chat({
        query: "what is it?",
        user: "u2",
        files: [{ type: "image", transfer_method: "local_file", upload_file_id: id }],
      }, key);
      assert.equal(theirs.status, 400, "another user's upload was accepted");
      assert.equal(provider.requests.length, 0, "a refused request reached the model");
      const response = await chat({
        query: "what is it?",
        user: "u1",
        response_mode: "blocking",
        files: [{ type: "image", transfer_method: "local_file", upload_file_id: id }],
      }, key);
      assert.equal(response.status, 200);
      assert.equal((await response.json()).answer, "a cat");
      const seen = JSON.stringify(provider.requests[0]);
      assert.match(
        seen,
        /"type":"image_url","url":"data:image\/png;base64,/,
        `no image part reached the model: ${seen.slice(0, 1500)}`,
      );
      assert.ok(
        seen.includes(btoa(String.fromCharCode(...png))) || seen.includes("image/png"),
        seen.slice(0, 1500),
      );
    },
  );
});
