import assert from "node:assert/strict";
import { AuxiliaryGate, AuxiliaryPreemptedError } from "./auxiliary_gate.ts";
import { collectText } from "../loop/collect_text.ts";
import { createScriptedProvider } from "./scripted.ts";
import type { Provider, ProviderRequest } from "./provider.ts";
import { AUXILIARY_PREEMPTIONS_MAX } from "../limits.ts";
import { waitUntil } from "../_test_wait.ts";

const request: ProviderRequest = {
  modelId: "scripted-model",
  messages: [{ role: "user", content: "name it" }],
  tools: [],
  reasoningEffort: null,
};

/** A provider that records when each stream started and stopped, and whether it was cut. */
function recordingProvider(chunks: string[], delayMs: number) {
  const log: string[] = [];
  const inner = createScriptedProvider({ script: () => ({ text: chunks, delayMs }) });
  let streaming = 0;
  const provider: Provider & { log: string[]; streaming: () => number } = {
    id: inner.id,
    models: inner.models,
    log,
    streaming: () => streaming,
    async *stream(req, signal) {
      streaming++;
      log.push("aux start");
      try {
        yield* inner.stream(req, signal);
        log.push("aux finished");
      } catch (error) {
        log.push("aux aborted");
        throw error;
      } finally {
        streaming--;
      }
    },
  };
  return provider;
}

/** A user Run that is active until `finish()` is called. */
function userRun(gate: AuxiliaryGate, providerId: string, log: string[]) {
  let finish = () => {};
  const ended = new Promise<void>((resolve) => finish = resolve);
  const done = gate.duringUserRun(providerId, async () => {
    log.push("user start");
    await ended;
    log.push("user end");
  });
  return { finish, done };
}

Deno.test("an auxiliary call waits while its provider has a user Run, also for one that arrives meanwhile", async () => {
  const gate = new AuxiliaryGate();
  const provider = recordingProvider(["Weekly", " plan"], 0);
  const first = userRun(gate, "scripted", provider.log);
  await waitUntil("the first user Run", () => provider.log.includes("user start"));
  const title = collectText(
    gate.auxiliary("scripted", provider),
    request,
    new AbortController().signal,
  );
  const second = userRun(gate, "scripted", provider.log);
  first.finish();
  await first.done;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(provider.streaming(), 0, "the auxiliary call started while a user Run was active");
  second.finish();
  assert.equal((await title).text, "Weekly plan");
  assert.deepEqual(provider.log, [
    "user start",
    "user start",
    "user end",
    "user end",
    "aux start",
    "aux finished",
  ]);
});

Deno.test("a streaming auxiliary call is aborted before a user Run starts and retried whole after it", async () => {
  const gate = new AuxiliaryGate();
  const provider = recordingProvider(["a", "b", "c", "d", "e", "f"], 20);
  const title = collectText(
    gate.auxiliary("scripted", provider),
    request,
    new AbortController().signal,
  );
  await waitUntil("the auxiliary call to stream", () => provider.streaming() > 0);
  const run = userRun(gate, "scripted", provider.log);
  await waitUntil("the user Run", () => provider.log.includes("user start"));
  assert.equal(provider.streaming(), 0, "the user Run started beside a streaming auxiliary call");
  run.finish();
  assert.equal((await title).text, "abcdef", "the answer is the retry's, not a mix of attempts");
  assert.deepEqual(provider.log, [
    "aux start",
    "aux aborted",
    "user start",
    "user end",
    "aux start",
    "aux finished",
  ]);
});

Deno.test("a user Run on another provider does not hold an auxiliary call back", async () => {
  const gate = new AuxiliaryGate();
  const provider = recordingProvider(["ok"], 0);
  const run = userRun(gate, "other", provider.log);
  const title = await collectText(
    gate.auxiliary("scripted", provider),
    request,
    new AbortController().signal,
  );
  assert.equal(title.text, "ok");
  run.finish();
  await run.done;
});

Deno.test("an auxiliary call pre-empted too often fails with auxiliary_preempted", async () => {
  const gate = new AuxiliaryGate();
  const provider = recordingProvider(["slow", "answer"], 30);
  const title = collectText(
    gate.auxiliary("scripted", provider),
    request,
    new AbortController().signal,
  );
  const failed = title.then(() => null, (error) => error);
  for (let round = 0; round <= AUXILIARY_PREEMPTIONS_MAX; round++) {
    await waitUntil(`attempt ${round + 1}`, () => provider.streaming() > 0);
    const run = userRun(gate, "scripted", provider.log);
    run.finish();
    await run.done;
  }
  const error = await failed;
  assert.ok(error instanceof AuxiliaryPreemptedError, `expected auxiliary_preempted, got ${error}`);
  assert.equal(error.code, "auxiliary_preempted");
  assert.equal(provider.log.filter((entry) => entry === "aux aborted").length, 6);
});

Deno.test("cancelling a waiting auxiliary call rejects it without ever calling the provider", async () => {
  const gate = new AuxiliaryGate();
  const provider = recordingProvider(["never"], 0);
  const run = userRun(gate, "scripted", provider.log);
  const controller = new AbortController();
  const title = collectText(gate.auxiliary("scripted", provider), request, controller.signal);
  controller.abort();
  await assert.rejects(title);
  run.finish();
  await run.done;
  assert.deepEqual(provider.log, ["user start", "user end"]);
});
