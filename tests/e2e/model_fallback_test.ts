/**
 * Fallback models and provider breakers against the shipped runtime (`daedalus serve` with
 * the shipped flags) and an OpenAI-compatible fake that answers HTTP 503 with a real
 * server's JSON error body. The primary model's calls fail after the adapter's retries
 * (shortened by `retry-after-ms`), the Run continues on the fallback from the same step
 * and completes, the run record names both models, and no text is duplicated; after
 * enough failed Runs the primary's breaker opens, `breaker.list` shows it, and the next
 * Run goes to the fallback without a request to the primary.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { makeTempHome, startShippedRuntime } from "./_harness.ts";
import { assertRefused, openClient } from "./_clients.ts";
import { type FakeResponse, startFakeOpenAI } from "../fixtures/fake_openai.ts";

/** What an overloaded OpenAI-compatible server answers; `retry-after-ms` keeps retries short. */
const OVERLOADED: FakeResponse = {
  json: {
    error: { message: "The server is overloaded", type: "server_error", code: "overloaded" },
  },
  status: 503,
  headers: { "retry-after-ms": "1" },
};
/** One call and the adapter's 4 request retries. */
const FAILED_CALL: FakeResponse[] = Array.from({ length: 5 }, () => OVERLOADED);

type ChatBody = { model: string; messages: unknown[] };

Deno.test("a 503 primary falls back to its fallback model, which finishes the Run; its breaker opens and shows", async () => {
  await using home = await makeTempHome();
  const fake = startFakeOpenAI();
  try {
    await using server = await startShippedRuntime(home);
    await using recording = await openClient(server.url, await server.token());
    const { client } = recording;
    await client.call("settings.update", { threadTitles: false, memoryRefinement: false });
    for (const [providerId, modelId] of [["flaky", "m1"], ["steady", "m2"]]) {
      await client.call("provider.configure", {
        kind: "custom",
        providerId,
        displayName: providerId,
        baseUrl: fake.url,
        models: [{ id: modelId, displayName: modelId, contextWindow: 32768 }],
      });
    }
    // Bad fallbacks are refused with their own code, naming the model; nothing changes.
    const configBefore = await Deno.readTextFile(`${home.home}/config.yaml`);
    for (
      const fallback of [{ providerId: "flaky", modelId: "m1" }, {
        providerId: "nope",
        modelId: "m2",
      }]
    ) {
      const refused = await assertRefused(
        client.call("model.set_fallback", { providerId: "flaky", modelId: "m1", fallback }),
        "model_fallback_invalid",
      );
      assert.match(refused.message, new RegExp(`${fallback.providerId}/${fallback.modelId}`));
    }
    assert.equal(await Deno.readTextFile(`${home.home}/config.yaml`), configBefore);
    const set = await client.call("model.set_fallback", {
      providerId: "flaky",
      modelId: "m1",
      fallback: { providerId: "steady", modelId: "m2" },
    });
    assert.deepEqual(set.model.fallback, { providerId: "steady", modelId: "m2" });
    const listed = (await client.call("model.list", { providerId: "flaky" })).models[0];
    assert.deepEqual(
      listed.fallback,
      { providerId: "steady", modelId: "m2" },
      "model.list shows it",
    );
    // Disabling the fallback would break it: refused while it is one.
    await assertRefused(
      client.call("model.set_enabled", { providerId: "steady", modelId: "m2", enabled: false }),
      "model_fallback_invalid",
    );

    const { thread } = await client.call("thread.create", { title: "fallback" });
    const chats = () =>
      fake.requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) =>
        r.body as ChatBody
      );
    const run = async (responses: FakeResponse[]) => {
      fake.enqueue(...responses);
      const sent = chats().length;
      const { runId } = await client.call("turn.start", {
        threadId: thread.id,
        content: "summarize the notes",
        providerId: "flaky",
        modelId: "m1",
      });
      const settled = await recording.waitForEvent(
        `run ${runId} to settle`,
        (event) => event.type === "run.settled" && event.runId === runId,
      );
      const events = recording.events.filter((e) => e.runId === runId);
      return { runId, settled, events, requests: chats().slice(sent) };
    };

    const first = await run([...FAILED_CALL, { step: { text: "Recovered answer." } }]);
    assert.equal(
      first.settled.payload.status,
      "completed",
      String(first.settled.payload.errorMessage),
    );
    assert.deepEqual(
      first.requests.map((r) => r.model),
      ["m1", "m1", "m1", "m1", "m1", "m2"],
      "the primary and its 4 retries, then the fallback",
    );
    assert.deepEqual(
      first.requests[5].messages,
      first.requests[0].messages,
      "the same step's input",
    );
    const fallback = first.events.find((e) => e.type === "run.model_fallback");
    assert.ok(fallback, "a run.model_fallback event");
    assert.deepEqual(
      { ...fallback.payload, turnId: undefined, runId: undefined },
      {
        fromProviderId: "flaky",
        fromModelId: "m1",
        toProviderId: "steady",
        toModelId: "m2",
        reasonCode: "provider_server",
        callOrdinal: 1,
        turnId: undefined,
        runId: undefined,
      },
    );
    const deltas = first.events.filter((e) => e.type === "item.delta")
      .map((e) => (e.payload as { delta: string }).delta).join("");
    assert.equal(deltas, "Recovered answer.", "the text streamed once, by the fallback");
    const turns = (await client.call("turn.list", { threadId: thread.id })).turns;
    const record = turns.at(-1)!.runs[0];
    assert.deepEqual(
      [record.providerId, record.modelId, record.fallbackModel],
      ["flaky", "m1", { providerId: "steady", modelId: "m2" }],
      "the run record shows both models",
    );
    const answers = record.items.filter((i) => i.kind === "message" && i.role === "assistant");
    assert.deepEqual(answers.map((i) => i.content), ["Recovered answer."], "one answer, not two");

    // Three more failed Runs: 4 failures in 4 calls open the primary's breaker.
    for (let n = 2; n <= 4; n++) {
      const next = await run([...FAILED_CALL, { step: { text: `Answer ${n}.` } }]);
      assert.equal(next.settled.payload.status, "completed", `run ${n}`);
    }
    const breakers = (await client.call("breaker.list", {})).breakers;
    const byKey = Object.fromEntries(breakers.map((b) => [b.key, b]));
    assert.equal(byKey["provider:flaky"]?.state, "open", JSON.stringify(breakers));
    assert.equal(byKey["provider:flaky"]?.recentFailures, 4);
    assert.equal(byKey["provider:steady"]?.state, "closed");

    const fast = await run([{ step: { text: "Straight to the fallback." } }]);
    assert.equal(fast.settled.payload.status, "completed");
    assert.deepEqual(fast.requests.map((r) => r.model), ["m2"], "no request to the open primary");
    const moved = fast.events.find((e: JournalEvent) => e.type === "run.model_fallback");
    assert.equal((moved?.payload as { reasonCode?: string })?.reasonCode, "provider_circuit_open");
  } finally {
    await fake.close();
  }
});
