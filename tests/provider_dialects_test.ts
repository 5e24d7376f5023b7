/**
 * The real adapter and agent loop against strict fakes of the servers users run:
 * OpenAI, DeepSeek V4 thinking, vLLM and llama.cpp (tests/fixtures/fake_dialects.ts).
 * Each profile refuses what its server refuses, so a turn that passes here is one the
 * real server would have accepted request by request; and the dialects' odd shapes
 * (a cut answer, `<think>`, a JSON answer, an error body) are checked by what the user
 * ends up seeing.
 */
import assert from "node:assert/strict";
import { connect } from "@daedalus/client";
import type { Item, JournalEvent } from "@daedalus/protocol";
import { startRuntime } from "@daedalus/runtime";
import { type FakeResponse, startFakeOpenAI } from "./fixtures/fake_openai.ts";
import { dialect, type DialectName, type ModelStep } from "./fixtures/fake_dialects.ts";
import { summarize, waitUntil } from "./e2e/_clients.ts";

const KEY = "sk-test-9f8e7d6c5b4a3210";

async function setup(name: DialectName, options: { titles?: boolean; strict?: boolean } = {}) {
  const fake = startFakeOpenAI({ dialect: dialect(name, { strictMessageKeys: options.strict }) });
  const home = await Deno.makeTempDir({ prefix: "daedalus-dialect-" });
  const workspace = await Deno.makeTempDir({ prefix: "daedalus-dialect-ws-" });
  await Deno.writeTextFile(`${workspace}/hello.txt`, "hello from the workspace\n");
  await Deno.writeTextFile(`${workspace}/notes.md`, "# 笔记 notes ✓\n");
  const runtime = await startRuntime({
    home,
    workspacesRoot: `${home}/ws`,
    port: 0,
    threadTitles: options.titles ?? false,
    memoryRefinement: false,
  });
  const client = await connect({ url: runtime.url, token: runtime.token });
  const events: JournalEvent[] = [];
  client.onEvent((event) => events.push(event));
  await client.call("provider.configure", {
    kind: "custom",
    providerId: `fake-${name}`,
    displayName: name,
    baseUrl: fake.url,
    apiKey: KEY,
    models: [{ id: "fake-model", displayName: "Fake", contextWindow: 65536 }],
  });
  const { thread } = await client.call("thread.create", {
    title: `dialect ${name}`,
    workspace: { rootUri: workspace },
  });
  const turn = async (content: string) => {
    const { runId } = await client.call("turn.start", {
      threadId: thread.id,
      content,
      providerId: `fake-${name}`,
      modelId: "fake-model",
    });
    const settled = await waitUntil(
      `run ${runId} to settle`,
      () => events.find((e) => e.type === "run.settled" && e.runId === runId),
      () => summarize(events),
    );
    const page = await client.call("turn.list", { threadId: thread.id });
    const run = page.turns.flatMap((t) => t.runs).find((r) => r.id === runId)!;
    return { runId, settled, run, items: run.items as Item[] };
  };
  return {
    fake,
    client,
    events,
    thread,
    workspace,
    turn,
    enqueue: (...steps: (ModelStep | FakeResponse)[]) =>
      fake.enqueue(
        ...steps.map((s) =>
          ("json" in s || "sse" in s || "body" in s) ? s as FakeResponse : { step: s as ModelStep }
        ),
      ),
    /** The chat requests the fake received (titles excluded: they offer no tools). */
    chatBodies: () =>
      fake.requests.filter((r) => r.path.endsWith("/chat/completions"))
        .map((r) => r.body as { messages: Record<string, unknown>[]; tools?: unknown[] }),
    async [Symbol.asyncDispose]() {
      await client.close();
      await runtime.shutdown();
      await fake.close();
      await Deno.remove(home, { recursive: true });
      await Deno.remove(workspace, { recursive: true });
    },
  };
}

function answerOf(items: Item[]): Item[] {
  return items.filter((i) => i.kind === "message" && i.role === "assistant");
}

const THREE_STEPS: ModelStep[] = [
  {
    reasoning: "The user wants the greeting. Read hello.txt first.",
    toolCalls: [{ id: "call_1", name: "read", arguments: { path: "hello.txt" } }],
  },
  // a step that streams no reasoning at all: DeepSeek still wants reasoning_content ""
  { toolCalls: [{ id: "call_2", name: "list", arguments: { path: "." } }] },
  {
    reasoning: "Both done; the notes are in Chinese: 笔记.",
    text: "Read hello.txt and listed the folder — 完成 ✓",
  },
];

for (const name of ["openai", "deepseek", "vllm", "llamacpp"] as const) {
  Deno.test(`${name}: a three-step tool turn and a follow-up turn pass the strict fake`, async () => {
    await using t = await setup(name, { strict: name === "openai" });
    // OpenAI streams no reasoning; the others do, each in its own way.
    const steps = name === "openai" ? THREE_STEPS.map(({ reasoning: _, ...s }) => s) : THREE_STEPS;
    t.enqueue(...steps);
    const first = await t.turn("Greet me from the workspace files");
    assert.deepEqual(
      t.fake.refusals.map((r) => JSON.stringify(r.response)),
      [],
      "no request refused",
    );
    assert.deepEqual([first.settled.payload.status, first.settled.payload.reasonCode], [
      "completed",
      null,
    ]);
    const results = first.items.filter((i) => i.kind === "tool_result");
    assert.equal(results.length, 2);
    assert.match(results[0]!.content, /hello from the workspace/);
    assert.match(results[1]!.content, /notes\.md/);
    const answers = answerOf(first.items);
    assert.equal(answers.at(-1)!.content, "Read hello.txt and listed the folder — 完成 ✓");
    assert.ok(answers.every((a) => !a.content.includes("<think>")), "no <think> in the answer");
    if (name !== "openai") {
      assert.match(String(answers[0]!.data.reasoning), /Read hello\.txt first/);
      assert.match(String(answers.at(-1)!.data.reasoning), /笔记/);
    }

    // A later turn replays the whole tool turn as history: still accepted.
    t.enqueue({ reasoning: "Simple.", text: "Yes." });
    const second = await t.turn("Was it friendly?");
    assert.deepEqual(t.fake.refusals.length, 0, JSON.stringify(t.fake.refusals[0]?.response));
    assert.equal(second.settled.payload.status, "completed");
    const bodies = t.chatBodies();
    assert.equal(bodies.length, 4);
    const replayed = bodies[3]!.messages.filter((m) => m.role === "assistant" && m.tool_calls);
    assert.equal(replayed.length, 2, "both tool steps are replayed");
    if (name === "openai") {
      assert.ok(
        replayed.every((m) => !("reasoning_content" in m)),
        "never sent where no reasoning was seen",
      );
    } else {
      assert.deepEqual(replayed.map((m) => String(m.reasoning_content).trim()), [
        "The user wants the greeting. Read hello.txt first.",
        "",
      ]);
    }
  });
}

Deno.test("deepseek: the fake refuses a tool-calling message without reasoning_content, as DeepSeek does", async () => {
  const fake = startFakeOpenAI({ dialect: dialect("deepseek") });
  try {
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "deepseek-v4-flash",
        stream: true,
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{
              id: "c1",
              type: "function",
              function: { name: "read", arguments: "{}" },
            }],
          },
          { role: "tool", tool_call_id: "c1", content: "x" },
        ],
      }),
    });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(
      body.error.message,
      "The reasoning_content in the thinking mode must be passed back to the API.",
    );
    const orphan = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        messages: [{ role: "tool", tool_call_id: "nope", content: "x" }],
      }),
    });
    assert.equal(orphan.status, 400, "a tool message without its call is refused");
    await orphan.body?.cancel();
  } finally {
    await fake.close();
  }
});

Deno.test("finish_reason length: the run says the answer was cut; cut tool calls never run nor return", async () => {
  await using t = await setup("deepseek");
  t.enqueue({
    reasoning: "Write the file.",
    text: "Writing it now",
    toolCalls: [{
      id: "call_w",
      name: "write",
      arguments: '{"path":"out.txt","content":"the long te',
    }],
    finish: "length",
  });
  const cut = await t.turn("Write a long file");
  assert.deepEqual([cut.settled.payload.status, cut.settled.payload.reasonCode], [
    "failed",
    "model_output_limit",
  ]);
  assert.equal(cut.run.reasonCode, "model_output_limit");
  const [partial] = answerOf(cut.items);
  assert.deepEqual(
    [partial!.content, partial!.status],
    ["Writing it now", "failed"],
    "the partial text stays, marked failed",
  );
  assert.equal(
    cut.items.filter((i) => i.kind === "tool_call").length,
    0,
    "the cut call is not recorded as made",
  );
  await assert.rejects(() => Deno.stat(`${t.workspace}/out.txt`), Deno.errors.NotFound);

  t.enqueue({ reasoning: "ok", text: "Shorter: done." });
  const next = await t.turn("Shorter please");
  assert.equal(next.settled.payload.status, "completed");
  const sent = JSON.stringify(t.chatBodies().at(-1));
  assert.ok(!sent.includes("the long te"), "the cut arguments are never sent back");
  assert.ok(!sent.includes("Writing it now"), "half an answer is not replayed as a whole one");
});

Deno.test("<think> from llama.cpp: reasoning, not answer text, and never the thread title", async () => {
  await using t = await setup("llamacpp", { titles: true });
  t.enqueue(
    { reasoning: "The user asks about Paris weather.", text: "It is sunny in Paris." },
    // the title call (no tools) gets a reasoning model's answer too
    { reasoning: "A short title: weather.", text: "Paris weather today" },
  );
  const done = await t.turn("How is the weather in Paris?");
  assert.equal(done.settled.payload.status, "completed");
  const [answer] = answerOf(done.items);
  assert.equal(answer!.content, "It is sunny in Paris.");
  assert.equal(String(answer!.data.reasoning).trim(), "The user asks about Paris weather.");
  const deltas = t.events.filter((e) => e.type === "item.delta" && e.itemId === answer!.id);
  assert.ok(
    deltas.every((e) => !JSON.stringify(e.payload).includes("<think>")),
    "no tag in any delta",
  );
  let title = "";
  for (let i = 0; i < 2000 && !title; i++) {
    const { thread } = await t.client.call("thread.get", { threadId: t.thread.id });
    if (thread.title !== "dialect llamacpp") title = String(thread.title);
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(title, "Paris weather today", "the title has no <think> block");
});

Deno.test("a JSON answer to a streaming request is taken as the answer, tool calls and usage included", async () => {
  await using t = await setup("vllm");
  const completion = (message: Record<string, unknown>, finish: string) => ({
    json: {
      id: "chatcmpl-json",
      object: "chat.completion",
      created: 1,
      model: "fake-model",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
      usage: { prompt_tokens: 30, completion_tokens: 6, total_tokens: 36 },
    },
  });
  t.enqueue(
    completion({
      content: null,
      reasoning_content: "Read it.",
      tool_calls: [{
        id: "call_j",
        type: "function",
        function: { name: "read", arguments: '{"path":"hello.txt"}' },
      }],
    }, "tool_calls"),
    completion({ content: "<think>It says hello.</think>It greets you." }, "stop"),
  );
  const done = await t.turn("What does hello.txt say?");
  assert.deepEqual([done.settled.payload.status, done.settled.payload.reasonCode], [
    "completed",
    null,
  ]);
  assert.match(
    done.items.find((i) => i.kind === "tool_result")!.content,
    /hello from the workspace/,
  );
  const answers = answerOf(done.items);
  assert.equal(answers.at(-1)!.content, "It greets you.");
  assert.equal(answers.at(-1)!.data.reasoning, "It says hello.");
  const usage = t.events.filter((e) =>
    e.type === "model.response_finished" && e.runId === done.runId
  )
    .map((e) => (e.payload as { usage: { totalTokens: number } | null }).usage?.totalTokens);
  assert.deepEqual(usage, [36, 36]);
});

Deno.test("an error body: the user sees the provider's words (redacted) next to the reason code", async () => {
  await using t = await setup("openai");
  t.enqueue({
    status: 401,
    json: {
      error: {
        message:
          `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    },
  });
  const failed = await t.turn("hi");
  assert.deepEqual([failed.settled.payload.status, failed.settled.payload.reasonCode], [
    "failed",
    "provider_authentication",
  ]);
  const said = String(failed.settled.payload.errorMessage ?? "");
  assert.match(said, /HTTP 401: Incorrect API key provided/);
  assert.ok(!said.includes(KEY) && !said.includes(KEY.slice(3, 15)), `the key leaked: ${said}`);
  assert.equal(failed.run.errorMessage, said, "turn.list carries the stored message");

  // mid-stream error objects are kept too (vLLM-style top-level shapes are covered in stream_test)
  t.enqueue({
    text: "Partial",
    midStreamError: "The server had an error while processing your request.",
  });
  const broken = await t.turn("again");
  assert.equal(broken.settled.payload.reasonCode, "provider_server");
  assert.match(String(broken.settled.payload.errorMessage ?? ""), /The server had an error/);
  const replay = await t.client.call("event.replay", { afterSeq: 0, limit: 1000 });
  assert.ok(!JSON.stringify(replay).includes(KEY), "the key never reached the journal");
});

for (const name of ["openai", "deepseek", "vllm", "llamacpp"] as const) {
  Deno.test(`${name}: an error object mid-stream fails the run with the server's words`, async () => {
    await using t = await setup(name);
    t.enqueue({ reasoning: "Start.", text: "Partial ans", midStreamError: "Engine loop has died" });
    const failed = await t.turn("go");
    assert.equal(failed.settled.payload.status, "failed");
    assert.match(String(failed.settled.payload.reasonCode), /^provider_(server|invalid_request)$/);
    assert.match(String(failed.settled.payload.errorMessage), /Engine loop has died/);
    const [partial] = answerOf(failed.items);
    assert.deepEqual([partial!.content, partial!.status], ["Partial ans", "failed"]);
  });
}
