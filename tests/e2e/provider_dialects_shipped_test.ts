/**
 * DeepSeek V4 thinking mode against the shipped runtime: `daedalus serve` started with
 * the shipped flags, a custom provider at a strict DeepSeek fake reached as `localhost`
 * (tests/fixtures/fake_dialects.ts), a three-step tool turn and a follow-up turn. The
 * fake answers 400 exactly as DeepSeek does whenever an assistant message with tool
 * calls comes back without its `reasoning_content`.
 */
import assert from "node:assert/strict";
import { makeTempHome, startShippedRuntime } from "./_harness.ts";
import { openClient } from "./_clients.ts";
import { startFakeOpenAI } from "../fixtures/fake_openai.ts";
import { dialect } from "../fixtures/fake_dialects.ts";

Deno.test("the shipped runtime keeps DeepSeek's reasoning round trip over three tool steps and the next turn", async () => {
  await using home = await makeTempHome();
  const fake = startFakeOpenAI({ dialect: dialect("deepseek") });
  try {
    // No titles or memory refinement: their requests would take the scripted steps out of order.
    await using server = await startShippedRuntime(home, {
      DAEDALUS_THREAD_TITLES: "0",
      DAEDALUS_MEMORY_REFINEMENT: "0",
    });
    const token = await server.token();
    await using recording = await openClient(server.url, token);
    const { client } = recording;
    await client.call("provider.configure", {
      kind: "custom",
      providerId: "ds",
      displayName: "DeepSeek-like",
      baseUrl: fake.url.replace("127.0.0.1", "localhost"),
      models: [{ id: "deepseek-v4-flash", displayName: "V4 flash", contextWindow: 65536 }],
    });
    const workspace = `${home.workspacesRoot}/project`;
    await Deno.mkdir(workspace);
    await Deno.writeTextFile(`${workspace}/hello.txt`, "hello from the project\n");
    const { thread } = await client.call("thread.create", {
      title: "thinking",
      workspace: { rootUri: workspace },
    });
    const turn = async (content: string) => {
      const { runId } = await client.call("turn.start", {
        threadId: thread.id,
        content,
        providerId: "ds",
        modelId: "deepseek-v4-flash",
      });
      return await recording.waitForEvent(
        "the run to settle",
        (event) => event.type === "run.settled" && event.runId === runId,
      );
    };
    fake.enqueue(
      {
        step: {
          reasoning: "Read the file first.",
          toolCalls: [{ id: "c1", name: "read", arguments: { path: "hello.txt" } }],
        },
      },
      { step: { toolCalls: [{ id: "c2", name: "list", arguments: { path: "." } }] } },
      { step: { reasoning: "Done.", text: "Read and listed." } },
      { step: { reasoning: "Easy.", text: "It said hello." } },
    );
    const first = await turn("read and list");
    const second = await turn("what did it say?");
    assert.deepEqual(
      fake.refusals.map((r) => JSON.stringify(r.response)),
      [],
      "DeepSeek would have refused these requests",
    );
    for (const settled of [first, second]) {
      assert.deepEqual(
        { status: settled.payload.status, reasonCode: settled.payload.reasonCode },
        { status: "completed", reasonCode: null },
        String(settled.payload.errorMessage),
      );
    }
    const last = fake.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    const calls = last.messages.filter((m) => m.role === "assistant" && m.tool_calls);
    assert.deepEqual(calls.map((m) => m.reasoning_content), ["Read the file first.", ""]);
  } finally {
    await fake.close();
  }
});
