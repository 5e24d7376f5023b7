import assert from "node:assert/strict";
import { createCircuitBreakers } from "@daedalus/tools";
import { guardProvider, providerBreakerKey, providerFailureOutcome } from "./provider_breakers.ts";
import { createScriptedProvider, type ScriptedResponse } from "./scripted.ts";
import { ProviderError } from "./provider.ts";
import type { ProviderFailureCategory } from "@daedalus/protocol";

const REQUEST = { modelId: "scripted-model", messages: [], tools: [], reasoningEffort: null };

async function drain(provider: ReturnType<typeof guardProvider>, signal = AbortSignal.any([])) {
  const events = [];
  for await (const event of provider.stream(REQUEST, signal)) events.push(event);
  return events;
}

const OUTCOMES: [ProviderFailureCategory, "failure" | "ignored"][] = [
  ["server", "failure"],
  ["rate_limit", "failure"],
  ["timeout", "failure"],
  ["network", "failure"],
  ["protocol", "failure"],
  ["unknown", "failure"],
  ["authentication", "ignored"],
  ["invalid_request", "ignored"],
  ["context_overflow", "ignored"],
  ["cancelled", "ignored"],
];

for (const [category, outcome] of OUTCOMES) {
  Deno.test(`providerFailureOutcome: provider_${category} is ${outcome}`, () => {
    const error = new ProviderError(category, "x");
    assert.equal(providerFailureOutcome(error, AbortSignal.any([])), outcome);
  });
}

Deno.test("providerFailureOutcome: anything on an aborted call is ignored", () => {
  const aborted = AbortSignal.abort();
  assert.equal(providerFailureOutcome(new ProviderError("server", "x"), aborted), "ignored");
});

Deno.test("guardProvider: retryable failures open the breaker; then calls fail fast with circuit_open", async () => {
  const script: ScriptedResponse[] = Array.from({ length: 5 }, () => ({
    error: { category: "server" as const },
  }));
  const inner = createScriptedProvider({ id: "p", script });
  const breakers = createCircuitBreakers({ now: () => 0, consecutiveFailures: 2 });
  const guarded = guardProvider(inner, breakers);
  assert.deepEqual([guarded.id, guarded.models], [inner.id, inner.models]);
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      drain(guarded),
      (e) => e instanceof ProviderError && e.category === "server",
    );
  }
  assert.equal(breakers.snapshot()[0].key, providerBreakerKey("p"));
  assert.equal(breakers.snapshot()[0].state, "open");
  await assert.rejects(
    drain(guarded),
    (e) =>
      e instanceof ProviderError && e.category === "circuit_open" && /Provider p/.test(e.message),
  );
  assert.equal(inner.requests.length, 2, "the open breaker kept the third call from the provider");
});

Deno.test("guardProvider: a wrong key never opens it; a finished stream counts as a success", async () => {
  const inner = createScriptedProvider({
    id: "p",
    script: [
      { error: { category: "authentication" } },
      { error: { category: "authentication" } },
      { text: ["ok"] },
    ],
  });
  const breakers = createCircuitBreakers({ now: () => 0, consecutiveFailures: 1 });
  const guarded = guardProvider(inner, breakers);
  await assert.rejects(drain(guarded));
  await assert.rejects(drain(guarded));
  assert.equal(breakers.snapshot()[0].state, "closed", "authentication failures are ignored");
  const events = await drain(guarded);
  assert.ok(events.some((e) => e.type === "finish"));
  assert.deepEqual(
    [breakers.snapshot()[0].callsInWindow, breakers.snapshot()[0].failuresInWindow],
    [1, 0],
    "only the success was counted",
  );
});

Deno.test("guardProvider: a stream the caller stops early is counted neither way, and is closed", async () => {
  let closed = false;
  const inner = {
    id: "p",
    models: ["m"],
    async *stream() {
      try {
        yield { type: "text_delta", text: "one" } as const;
        yield { type: "text_delta", text: "two" } as const;
      } finally {
        closed = true;
      }
    },
  };
  const breakers = createCircuitBreakers({ now: () => 0, consecutiveFailures: 1 });
  const guarded = guardProvider(inner, breakers);
  const request = { modelId: "m", messages: [], tools: [], reasoningEffort: null };
  for await (const event of guarded.stream(request, new AbortController().signal)) {
    assert.equal(event.type, "text_delta");
    break;
  }
  assert.equal(closed, true, "the provider's stream was closed");
  assert.deepEqual(
    [breakers.snapshot()[0].callsInWindow, breakers.snapshot()[0].failuresInWindow],
    [0, 0],
    "nothing was counted",
  );
  // The breaker's admission was released: the next call is admitted and counted.
  for await (const _ of guarded.stream(request, new AbortController().signal)) { /* drain */ }
  assert.equal(breakers.snapshot()[0].callsInWindow, 1);
});
