import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { emptyRunUsage, recordedUsage, withModelInput, withModelResponse } from "./run_usage.ts";

type Prepared = Extract<JournalEvent, { type: "model.input_prepared" }>["payload"];
type Finished = Extract<JournalEvent, { type: "model.response_finished" }>["payload"];

function prepared(callOrdinal: number, stepInput: Record<string, unknown>, purpose = "execution") {
  return {
    callOrdinal,
    stepOrdinal: purpose === "execution" ? callOrdinal : null,
    purpose,
    contextRevision: null,
    stepInput,
  } as Prepared;
}

function finished(callOrdinal: number, usage: Finished["usage"], model: string | null = null) {
  return { callOrdinal, usage, responseModelId: model, requestId: null } as Finished;
}

const tokens = (input: number, output: number, cached: number | null = null) => ({
  inputTokens: input,
  cachedInputTokens: cached,
  outputTokens: output,
  reasoningOutputTokens: null,
  totalTokens: input + output,
});

Deno.test("run usage: tokens add up over calls; the last step's count replaces its estimate", () => {
  let usage = emptyRunUsage();
  usage = withModelInput(usage, prepared(1, { estimatedInputTokens: 900, contextWindow: 64_000 }));
  assert.deepEqual(
    [usage.contextTokens, usage.contextEstimated, usage.contextWindow],
    [900, true, 64_000],
    "the estimate until the call reports",
  );
  usage = withModelResponse(usage, finished(1, tokens(1_000, 40, 200), "model-x"));
  assert.deepEqual([usage.contextTokens, usage.contextEstimated], [1_000, false]);
  usage = withModelInput(
    usage,
    prepared(2, { estimatedInputTokens: 1_100, contextWindow: 64_000 }),
  );
  usage = withModelResponse(usage, finished(2, tokens(1_200, 60)));
  assert.equal(usage.inputTokens, 2_200);
  assert.equal(usage.outputTokens, 100);
  assert.equal(usage.cachedInputTokens, 200, "a call that said nothing of its cache adds 0");
  assert.equal(usage.reasoningOutputTokens, null, "no call said: unknown, not 0");
  assert.equal(usage.reportedCalls, 2);
  assert.equal(usage.contextTokens, 1_200);
  assert.equal(usage.responseModelId, "model-x", "a call naming no model keeps the last name");
});

Deno.test("run usage: other calls and bad step inputs leave the context alone", () => {
  const start = withModelInput(
    emptyRunUsage(),
    prepared(1, { estimatedInputTokens: 500, contextWindow: 8_000 }),
  );
  const cases: [string, Prepared][] = [
    ["a compression call", prepared(2, { contextWindow: 4_000 }, "compression")],
    ["a completion check", prepared(2, { contextWindow: 4_000 }, "completion_check")],
    ["no window", prepared(2, { estimatedInputTokens: 10 })],
    ["a window of 0", prepared(2, { contextWindow: 0 })],
    ["a window of the wrong type", prepared(2, { contextWindow: "big" })],
    ["a negative window", prepared(2, { contextWindow: -1 })],
  ];
  for (const [name, event] of cases) {
    assert.equal(withModelInput(start, event), start, name);
  }
  const noEstimate = withModelInput(start, prepared(3, { contextWindow: 8_000 }));
  assert.deepEqual([noEstimate.contextTokens, noEstimate.contextEstimated], [null, false]);
  // a compression call's tokens count, but not as the step's context
  const summary = withModelResponse(start, finished(2, tokens(3_000, 100)));
  assert.deepEqual([summary.inputTokens, summary.contextTokens], [3_000, 500]);
  const failed = withModelResponse(start, finished(1, null));
  assert.equal(failed, start, "a call without usage changes nothing");
  assert.equal(withModelResponse(start, finished(1, null, "m")).responseModelId, "m");
});

Deno.test("run usage: a Run's record from turn.list becomes the same view", () => {
  const usage = recordedUsage({
    inputTokens: 20,
    cachedInputTokens: null,
    outputTokens: 10,
    reasoningOutputTokens: 3,
    reportedCalls: 2,
    lastStepInputTokens: 12,
    contextWindow: 32_768,
  });
  assert.equal(usage.inputTokens, 20);
  assert.equal(usage.outputTokens, 10);
  assert.equal(usage.reasoningOutputTokens, 3);
  assert.equal(usage.reportedCalls, 2);
  assert.equal(usage.contextTokens, 12, "the last step's input is the context used");
  assert.equal(usage.contextEstimated, false, "a recorded count, not an estimate");
  assert.equal(usage.contextWindow, 32_768);
  const older = recordedUsage({
    inputTokens: 5,
    cachedInputTokens: 1,
    outputTokens: 1,
    reasoningOutputTokens: null,
    reportedCalls: 1,
    lastStepInputTokens: 5,
    contextWindow: null,
  });
  assert.equal(older.contextTokens, null, "without its window there is no share to show");
});
