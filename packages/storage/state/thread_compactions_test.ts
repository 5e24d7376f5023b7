import assert from "node:assert/strict";
import { applyEvent, clearProjections } from "./projections.ts";
import { iterateJournal } from "./journal.ts";
import { openTestStore, seedThread, seedTurn, storeErrorCode } from "./_test_store.ts";
import { readThreadSettings, updateThreadSettings } from "./thread_settings.ts";
import {
  beginThreadCompaction,
  compactionCuts,
  completeThreadCompaction,
  readActiveBranchId,
  readLastBranchRun,
  readThreadCompactions,
  readThreadContextUse,
} from "./thread_compactions.ts";
import { explainQueryPlan, recordStatements } from "./reads/_fixtures.ts";
import { settleRun } from "./run_writes.ts";
import { activateRun } from "./run_writes.ts";
import { recordModelInput } from "./run_facts.ts";

const USAGE = {
  inputTokens: 700,
  cachedInputTokens: null,
  outputTokens: 30,
  reasoningOutputTokens: null,
  totalTokens: 730,
};

Deno.test("a thread's own settings are journaled, read back and rebuilt from the journal", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  assert.deepEqual(store.read((db) => readThreadSettings(db, threadId)), { compaction: null });

  const set = updateThreadSettings(store, threadId, { threshold: 0.6, enabled: undefined });
  assert.deepEqual(set.result, { settings: { compaction: { threshold: 0.6 } }, changed: true });
  assert.equal(set.events[0]?.type, "thread.settings_changed");
  const same = updateThreadSettings(store, threadId, { threshold: 0.6 });
  assert.deepEqual([same.result.changed, same.events.length], [false, 0], "unchanged: no event");
  const empty = updateThreadSettings(store, threadId, {});
  assert.deepEqual(empty.result.settings, { compaction: null }, "no field counts as none");

  updateThreadSettings(store, threadId, { enabled: false, threshold: 0.8 });
  const connection = store.db.connection;
  store.db.transaction(() => {
    clearProjections(connection);
    for (const event of iterateJournal(connection)) applyEvent(connection, event);
  });
  assert.deepEqual(
    store.read((db) => readThreadSettings(db, threadId)),
    { compaction: { threshold: 0.8, enabled: false } },
    "repair-projections rebuilds threads.settings_json",
  );
  assert.throws(
    () => store.read((db) => readThreadSettings(db, `thread_${"0".repeat(32)}`)),
    storeErrorCode("thread_not_found"),
  );
  assert.throws(
    () => updateThreadSettings(store, `thread_${"0".repeat(32)}`, null),
    storeErrorCode("thread_not_found"),
  );
});

Deno.test("a thread compaction records its summary call on the last Run and its cut by turn", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId, branchId } = await seedThread(fixture);
  assert.equal(store.read((db) => readLastBranchRun(db, branchId)), null);
  const first = seedTurn(store, threadId);
  activateRun(store, first.runId);
  settleRun(store, first.runId, "completed", null);
  const second = seedTurn(store, threadId, { content: "again" });
  activateRun(store, second.runId);
  recordModelInput(store, second.runId, {
    callOrdinal: 1,
    stepOrdinal: 1,
    purpose: "execution",
    contextRevision: null,
    stepInput: { estimatedInputTokens: 900, contextWindow: 10_000 },
  });
  settleRun(store, second.runId, "completed", null);
  assert.equal(store.read((db) => readActiveBranchId(db, threadId)), branchId);
  const last = store.read((db) => readLastBranchRun(db, branchId));
  assert.equal(last?.runId, second.runId, "the newest turn's Run");

  assert.deepEqual(store.read((db) => readThreadContextUse(db, threadId)), {
    runId: second.runId,
    inputTokens: 900,
    estimated: true,
    contextWindow: 10_000,
  }, "no usage reported: the estimate");

  const call = beginThreadCompaction(store, second.runId, { throughTurnId: second.turnId }).result;
  assert.deepEqual(call, { runId: second.runId, callOrdinal: 2 }, "the Run's next ordinal");
  const done = completeThreadCompaction(store, call, {
    callOrdinal: 2,
    outcome: "completed",
    usage: USAGE,
    responseModelId: "test-model",
    requestId: null,
    activityDate: "2026-10-01",
  }, {
    threadId,
    branchId,
    clientRequestId: "c1",
    throughTurnId: second.turnId,
    summary: "S1",
    tokensBefore: 100,
    tokensAfter: 10,
    providerId: "test-provider",
    modelId: "test-model",
  });
  assert.deepEqual(done.events.map((e) => e.type), ["model.response_finished", "thread.compacted"]);
  assert.equal(done.events[1]?.turnId, second.turnId);
  const usage = store.db.connection.prepare(
    "SELECT input_tokens FROM model_usages WHERE run_id = ? AND call_ordinal = 2",
  ).get(second.runId);
  assert.equal(usage?.input_tokens, 700, "the summary call's usage is recorded");
  assert.equal(
    store.db.connection.prepare(
      "SELECT purpose FROM model_calls WHERE run_id = ? AND call_ordinal = 2",
    ).get(second.runId)?.purpose,
    "compression",
  );
  assert.equal(
    store.read((db) => readThreadContextUse(db, threadId))?.inputTokens,
    900,
    "a summary call is not an execution step",
  );

  const call2 = beginThreadCompaction(store, second.runId, {}).result;
  completeThreadCompaction(store, call2, {
    callOrdinal: call2.callOrdinal,
    outcome: "completed",
    usage: USAGE,
    responseModelId: null,
    requestId: null,
    activityDate: "2026-10-01",
  }, {
    threadId,
    branchId,
    clientRequestId: "c2",
    throughTurnId: second.turnId,
    summary: "S2",
    tokensBefore: 20,
    tokensAfter: 5,
    providerId: "test-provider",
    modelId: "test-model",
  });
  const compactions = store.read((db) => readThreadCompactions(db, threadId));
  assert.deepEqual(compactions.map((c) => [c.clientRequestId, c.summary]), [["c2", "S2"], [
    "c1",
    "S1",
  ]], "newest first");
  assert.equal(compactions[0]!.branchId, branchId);
  const cuts = compactionCuts(compactions);
  assert.equal(cuts.size, 1);
  assert.equal(cuts.get(second.turnId)?.summary, "S2", "the newest compaction of a turn wins");
  assert.equal(cuts.has(first.turnId), false);
});

Deno.test("a thread's compactions are read through their own index, not the thread's whole journal", async () => {
  await using fixture = await openTestStore();
  const recording = recordStatements(fixture.store.db);
  readThreadCompactions(recording.db, "thread_0123456789abcdef0123456789abcdef");
  const [sql] = recording.statements;
  assert.ok(sql, "the read prepares its select");
  const plan = explainQueryPlan(fixture.store.db, sql);
  assert.ok(
    plan.some((detail) => detail.includes("events_thread_compacted_idx")),
    `every Run reads them; the plan was: ${plan.join("; ")}`,
  );
  assert.ok(!plan.some((detail) => /TEMP B-TREE/.test(detail)), `no sort: ${plan.join("; ")}`);
});
