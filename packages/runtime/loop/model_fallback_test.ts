import assert from "node:assert/strict";
import type { RunReasonCode } from "@daedalus/protocol";
import { decideFallback, type FallbackDecision } from "./model_fallback.ts";

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
