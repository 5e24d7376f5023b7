/**
 * The thread-title switch over RPC against the shipped runtime (`daedalus serve` with the
 * shipped flags) and an OpenAI-compatible fake: switched off, a thread's first Run gets no
 * title request; switched on again without a restart, the next thread's does.
 *
 * "No title request" is proved without waiting for nothing: titles and memory refinement
 * share one first-in-first-out slot and the title is queued first, so once the same Run's
 * refinement request has reached the fake, the title was already dropped or sent.
 */
import assert from "node:assert/strict";
import { makeTempHome, startShippedRuntime } from "./_harness.ts";
import { openClient, waitUntil } from "./_clients.ts";
import { type RecordedRequest, startFakeOpenAI } from "../fixtures/fake_openai.ts";

type Kind = "title" | "refinement" | "user";

function kindOf(request: RecordedRequest): Kind {
  const body = request.body as { messages?: { role: string; content: unknown }[] } | null;
  const system = body?.messages?.[0];
  const text = system?.role === "system" && typeof system.content === "string"
    ? system.content
    : "";
  if (text.startsWith("Name this conversation")) return "title";
  if (text.startsWith("You maintain a user's long-term memory")) return "refinement";
  return "user";
}

Deno.test("titles switched off over RPC send no title request; switched on, the next thread gets one", async () => {
  await using home = await makeTempHome();
  const fake = startFakeOpenAI();
  try {
    await using server = await startShippedRuntime(home);
    await using recording = await openClient(server.url, await server.token());
    const { client } = recording;
    const kinds = () =>
      fake.requests.filter((r) => r.path.endsWith("/chat/completions")).map(kindOf);
    await client.call("provider.configure", {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: fake.url,
      models: [{ id: "m1", displayName: "M1", contextWindow: 32768 }],
    });
    const before = await client.call("settings.read", {});
    assert.deepEqual(
      { titles: before.settings.threadTitles, refinement: before.settings.memoryRefinement },
      { titles: true, refinement: true },
      "an old config.yaml without the keys means on",
    );
    const off = await client.call("settings.update", { threadTitles: false });
    assert.equal(off.settings.threadTitles, false);
    assert.match(await Deno.readTextFile(`${home.home}/config.yaml`), /thread_titles: false/);

    const firstRun = async (title: string, content: string) => {
      const { thread } = await client.call("thread.create", { title });
      const { runId } = await client.call("turn.start", {
        threadId: thread.id,
        content,
        providerId: "local",
        modelId: "m1",
      });
      const settled = await recording.waitForEvent(
        `run ${runId} to settle`,
        (event) => event.type === "run.settled" && event.runId === runId,
      );
      assert.equal(settled.payload.status, "completed", String(settled.payload.errorMessage));
      return thread.id;
    };

    fake.enqueue({ step: { text: "Here is the plan." } }, { step: { text: '{"memories":[]}' } });
    await firstRun("first", "plan my week");
    await waitUntil(
      "the first Run's memory refinement to reach the model",
      () => kinds().includes("refinement"),
      () => kinds().join(", "),
    );
    assert.deepEqual(kinds(), ["user", "refinement"], "titles off: no title request");

    await client.call("settings.update", { threadTitles: true });
    fake.enqueue(
      { step: { text: "Here is the budget." } },
      { step: { text: "Monthly budget review" } },
      { step: { text: '{"memories":[]}' } },
    );
    const second = await firstRun("second", "review my budget");
    await recording.waitForEvent(
      "the second thread's automatic title",
      (event) => event.type === "thread.renamed" && event.threadId === second,
    );
    const { thread } = await client.call("thread.get", { threadId: second });
    assert.equal(thread.title, "Monthly budget review", "switched on again without a restart");
    assert.deepEqual(kinds().slice(0, 4), ["user", "refinement", "user", "title"]);
  } finally {
    await fake.close();
  }
});
