import assert from "node:assert/strict";
import type { RunReasonCode } from "@daedalus/protocol";
import { decideFallback, type FallbackDecision, openModelRoute } from "./model_fallback.ts";

const CASES: {
  reason: RunReasonCode;
  streamed?: boolean;
  onFallback?: boolean;
  fallbackAvailable?: boolean;
  expected: FallbackDecision;
}[] = [
  { reason: "provider_server", expected: "fall_back" },
  { reason: "provider_rate_limit", expected: "fall_back" },
  { reason: "provider_timeout", expected: "fall_back" },
  { reason: "provider_network", expected: "fall_back" },
  { reason: "provider_circuit_open", expected: "fall_back" },
  { reason: "provider_unknown", expected: "fall_back" },
  // Not retryable: the same request fails on any model, or the user must act.
  { reason: "provider_authentication", expected: "not_retryable" },
  { reason: "provider_invalid_request", expected: "not_retryable" },
  { reason: "provider_context_overflow", expected: "not_retryable" },
  { reason: "model_output_limit", expected: "not_retryable" },
  { reason: "cancelled", expected: "not_retryable" },
  { reason: "provider_cancelled", expected: "not_retryable" },
  // Text already reached the journal: a second model would repeat it.
  { reason: "provider_server", streamed: true, expected: "streamed" },
  { reason: "provider_server", onFallback: true, expected: "already_on_fallback" },
  { reason: "provider_server", fallbackAvailable: false, expected: "no_fallback" },
  { reason: "provider_authentication", streamed: true, expected: "not_retryable" },
];

for (const c of CASES) {
  const label = `${c.reason}${c.streamed ? ", streamed" : ""}${
    c.onFallback ? ", on the fallback" : ""
  }${c.fallbackAvailable === false ? ", none configured" : ""}`;
  Deno.test(`decideFallback: ${label} → ${c.expected}`, () => {
    const decision = decideFallback(
      { reason: c.reason, streamed: c.streamed ?? false },
      { onFallback: c.onFallback ?? false, fallbackAvailable: c.fallbackAvailable ?? true },
    );
    assert.equal(decision, c.expected, `a ${label} failure must give ${c.expected}`);
  });
}

const never = (): never => {
  throw new Error("no call expected");
};
function choice(providerId: string, modelId: string) {
  return {
    providerId,
    modelId,
    provider: { id: providerId, models: [modelId], stream: never },
    contextWindow: 32_768,
    reasoningEffort: null,
  };
}

Deno.test("openModelRoute: a Run that has not moved starts on its own model", () => {
  const opened = openModelRoute(choice("p", "a"), () => choice("q", "b"), null);
  assert.ok(opened.ok);
  assert.deepEqual([opened.route.current.modelId, opened.route.onFallback], ["a", false]);
});

Deno.test("openModelRoute: a Run that moved before it waited goes on on its fallback", () => {
  const opened = openModelRoute(choice("p", "a"), () => choice("q", "b"), {
    providerId: "q",
    modelId: "b",
  });
  assert.ok(opened.ok);
  assert.deepEqual([opened.route.current.modelId, opened.route.onFallback], ["b", true]);
});

for (
  const [name, configured] of [
    ["a fallback removed since", null],
    ["another fallback configured since", choice("q", "c")],
  ] as const
) {
  Deno.test(`openModelRoute: ${name} fails the moved Run, never back to its own model`, () => {
    const opened = openModelRoute(choice("p", "a"), () => configured, {
      providerId: "q",
      modelId: "b",
    });
    assert.deepEqual(opened, { ok: false, reason: "model_configuration_changed" });
  });
}
