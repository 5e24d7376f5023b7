import assert from "node:assert/strict";
import { activateRun, readRunScope, settleRun } from "./run_writes.ts";
import { readResumedItems, resumeRun } from "./resume_writes.ts";
import { readRunConfig } from "./run_row.ts";
import { checkState } from "./maintenance.ts";
import {
  assertValidEvents,
  countRows,
  openTestStore,
  seedThread,
  seedTurn,
  storeErrorCode,
  TEST_RUN_CONFIG,
} from "./_test_store.ts";

Deno.test("resumeRun queues a Run in the same Turn that names the Run it continues", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  const { runId, turnId } = seedTurn(fixture.store, threadId);
  activateRun(fixture.store, runId);
  settleRun(fixture.store, runId, "failed", "provider_server");
  const { result, events } = resumeRun(fixture.store, {
    fromRunId: runId,
    runConfig: TEST_RUN_CONFIG,
    clientRequestId: "resume-a",
  });
  assertValidEvents(events);
  assert.deepEqual([result.turnId, result.resumedFromRunId, result.created], [turnId, runId, true]);
  assert.equal(readRunScope(fixture.store.db, result.runId).status, "queued");
  assert.equal(readRunConfig(fixture.store.db, result.runId).resumedFromRunId, runId);
  assert.equal(countRows(fixture.store, "turns", "1 = 1"), 1, "no new Turn");
  assert.deepEqual(
    readResumedItems(fixture.store.db, result.runId).map((item) => item.content),
    ["hello"],
    "the earlier Run's items are the resumed Run's context",
  );
  const replay = resumeRun(fixture.store, {
    fromRunId: runId,
    runConfig: TEST_RUN_CONFIG,
    clientRequestId: "resume-a",
  });
  assert.deepEqual([replay.result.runId, replay.result.created, replay.events], [
    result.runId,
    false,
    [],
  ]);
  assert.ok(checkState(fixture.store.db).ok);
});

Deno.test("resumeRun refuses what cannot be continued, writing nothing", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  const first = seedTurn(fixture.store, threadId);
  activateRun(fixture.store, first.runId);
  settleRun(fixture.store, first.runId, "completed", null);
  const later = seedTurn(fixture.store, threadId);
  const before = countRows(fixture.store, "events", "1 = 1");
  const resume = (fromRunId: string) =>
    resumeRun(fixture.store, { fromRunId, runConfig: TEST_RUN_CONFIG });
  assert.throws(() => resume(first.runId), storeErrorCode("run_not_resumable"), "completed");
  assert.throws(() => resume(later.runId), storeErrorCode("run_not_resumable"), "queued");
  activateRun(fixture.store, later.runId);
  settleRun(fixture.store, later.runId, "cancelled", "cancelled");
  const afterSettle = countRows(fixture.store, "events", "1 = 1");
  assert.ok(afterSettle > before);
  assert.throws(() => resume("run_" + "0".repeat(32)), storeErrorCode("run_not_found"));
  const third = seedTurn(fixture.store, threadId);
  activateRun(fixture.store, third.runId);
  settleRun(fixture.store, third.runId, "failed", "provider_server");
  assert.throws(
    () => resume(later.runId),
    storeErrorCode("run_not_resumable"),
    "not the latest turn",
  );
  resume(third.runId);
  assert.throws(() => resume(third.runId), storeErrorCode("run_not_resumable"), "resumed already");
});
