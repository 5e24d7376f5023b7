import assert from "node:assert/strict";
import { activateRun, settleRun } from "./run_writes.ts";
import { recordModelInput, recordModelResponse } from "./run_facts.ts";
import { switchToFallback } from "./model_fallback_writes.ts";
import { readRunSummary } from "./run_row.ts";
import { readUsage } from "./reads/usage.ts";
import {
  assertValidEvents,
  eventTypes,
  openTestStore,
  seedThread,
  seedTurn,
} from "./_test_store.ts";

const FAILED_CALL = {
  callOrdinal: 1,
  outcome: "failed" as const,
  usage: null,
  responseModelId: null,
  requestId: null,
  reasonCode: "provider_server",
  activityDate: "2026-10-01",
};
const FALLBACK = {
  fromProviderId: "test-provider",
  fromModelId: "test-model",
  toProviderId: "local",
  toModelId: "backup",
  reasonCode: "provider_server" as const,
};

function prepare(store: Parameters<typeof recordModelInput>[0], runId: string, call: number) {
  recordModelInput(store, runId, {
    callOrdinal: call,
    // Every execution call is a step of its own: the fallback's call is the next one.
    stepOrdinal: call,
    purpose: "execution",
    contextRevision: null,
    stepInput: {},
  });
}

Deno.test("switchToFallback: the failed call and run.model_fallback in one commit; the run shows both models", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { runId } = seedTurn(store, (await seedThread(fixture)).threadId);
  activateRun(store, runId);
  assert.equal(readRunSummary(store.db, runId).fallbackModel, undefined, "no fallback yet");
  prepare(store, runId, 1);
  const { result, events } = switchToFallback(store, runId, FAILED_CALL, FALLBACK);
  assert.equal(result, true);
  assertValidEvents(events);
  assert.deepEqual(eventTypes(events), ["model.response_finished", "run.model_fallback"]);
  assert.deepEqual(events[1].payload, {
    ...FALLBACK,
    callOrdinal: 1,
    turnId: events[1].turnId,
    runId,
  });
  const summary = readRunSummary(store.db, runId);
  assert.deepEqual(
    [summary.providerId, summary.modelId, summary.fallbackModel],
    ["test-provider", "test-model", { providerId: "local", modelId: "backup" }],
    "the run record keeps its own model and names the fallback",
  );
  // The fallback's own call counts its usage for the fallback model.
  prepare(store, runId, 2);
  recordModelResponse(store, runId, {
    ...FAILED_CALL,
    callOrdinal: 2,
    outcome: "completed",
    reasonCode: undefined,
    usage: {
      inputTokens: 7,
      cachedInputTokens: 0,
      outputTokens: 3,
      reasoningOutputTokens: 0,
      totalTokens: 10,
    },
  });
  const row = store.db.connection.prepare(
    "SELECT provider_id, model_id FROM model_usages WHERE run_id = ?",
  ).get(runId);
  assert.deepEqual({ ...row }, { provider_id: "local", model_id: "backup" });
  assert.equal(readUsage(store.db, { today: "2026-10-01", days: 1 }).summary.lifetimeTokens, 10);
});

Deno.test("switchToFallback: a second fallback, or one for a Run no longer running, writes nothing", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  activateRun(store, runId);
  prepare(store, runId, 1);
  assert.equal(switchToFallback(store, runId, FAILED_CALL, FALLBACK).result, true);
  prepare(store, runId, 2);
  const again = switchToFallback(store, runId, { ...FAILED_CALL, callOrdinal: 2 }, {
    ...FALLBACK,
    toModelId: "other",
  });
  assert.deepEqual([again.result, again.events.length], [false, 0], "only one level");
  assert.equal(readRunSummary(store.db, runId).fallbackModel?.modelId, "backup");

  settleRun(store, runId, "cancelled", "cancelled");
  const settled = switchToFallback(store, runId, { ...FAILED_CALL, callOrdinal: 2 }, FALLBACK);
  assert.deepEqual([settled.result, settled.events.length], [false, 0], "a settled run stays");
});
