import assert from "node:assert/strict";
import type { JournalEvent, RunSummary, Turn } from "@daedalus/client";
import {
  applyConversationEvents,
  applyTurnList,
  type ConversationState,
  emptyConversation,
} from "./projection.ts";

const TS = "2026-12-01T10:00:00.000Z";
const scope = { threadId: "thread_1", turnId: "turn_1", runId: "run_1" };
const BACKUP = { providerId: "backup", modelId: "b1" };

function run(over: Partial<RunSummary> = {}): RunSummary {
  return {
    id: "run_1",
    turnId: "turn_1",
    threadId: "thread_1",
    branchId: "branch_1",
    providerId: "primary",
    modelId: "p1",
    executionPolicy: "ask",
    status: "running",
    reasonCode: null,
    failureClass: null,
    modelCalls: 1,
    compactions: 0,
    createdAt: TS,
    startedAt: TS,
    settledAt: null,
    ...over,
  };
}

function event(seq: number, type: string, payload: Record<string, unknown>): JournalEvent {
  return {
    seq,
    schemaVersion: 1,
    branchId: "branch_1",
    itemId: null,
    timestamp: TS,
    ...scope,
    type,
    payload,
  } as JournalEvent;
}

const moved = (seq: number) =>
  event(seq, "run.model_fallback", {
    fromProviderId: "primary",
    fromModelId: "p1",
    toProviderId: "backup",
    toModelId: "b1",
    reasonCode: "provider_server",
    callOrdinal: 1,
  });

const stateChanged = (seq: number, summary: RunSummary) =>
  event(seq, "run.state_changed", {
    status: summary.status,
    previousStatus: "running",
    run: summary,
    turn: { id: "turn_1", threadId: "thread_1", branchId: "branch_1", ordinal: 1, createdAt: TS },
    turnId: "turn_1",
    runId: "run_1",
  });

function loaded(runs: RunSummary[]): ConversationState {
  const turn: Turn = {
    id: "turn_1",
    threadId: "thread_1",
    branchId: "branch_1",
    ordinal: 1,
    status: "running",
    createdAt: TS,
    updatedAt: TS,
    runs: runs.map((r) => ({ ...r, items: [] })),
  } as Turn;
  return applyTurnList(emptyConversation("thread_1"), { turns: [turn], snapshotSeq: 10 });
}

const runOf = (state: ConversationState) => state.turns[0]?.runs[0];

Deno.test("run fallback: the live event names both models and the reason", () => {
  const state = applyConversationEvents(loaded([run()]), [moved(11)]);
  assert.deepEqual(runOf(state)?.fallback, {
    from: { providerId: "primary", modelId: "p1" },
    to: BACKUP,
    reasonCode: "provider_server",
    at: TS,
  });
  assert.equal(runOf(state)?.modelId, "p1", "the Run's own model stays its model");
});

Deno.test("run fallback: a later state change keeps the event's reason", () => {
  const state = applyConversationEvents(loaded([run()]), [
    moved(11),
    stateChanged(12, run({ status: "completed", fallbackModel: BACKUP })),
  ]);
  assert.equal(runOf(state)?.fallback?.reasonCode, "provider_server");
  assert.equal(runOf(state)?.fallback?.at, TS, "and when it moved");
  assert.deepEqual(runOf(state)?.fallback?.to, BACKUP);
});

Deno.test("run fallback: a reloaded run record names the models without a reason", () => {
  const state = loaded([run({ status: "completed", fallbackModel: BACKUP })]);
  assert.deepEqual(runOf(state)?.fallback, {
    from: { providerId: "primary", modelId: "p1" },
    to: BACKUP,
    reasonCode: null,
    at: null,
  });
});

Deno.test("run fallback: none without a fallback; a state change without one keeps the event's", () => {
  assert.equal(runOf(loaded([run()]))?.fallback, null);
  assert.equal(runOf(loaded([run({ fallbackModel: null })]))?.fallback, null);
  const state = applyConversationEvents(loaded([run()]), [
    moved(11),
    // A summary written before the record learnt of the move (no fallbackModel yet).
    stateChanged(12, run({ status: "running" })),
  ]);
  assert.equal(runOf(state)?.fallback?.to.modelId, "b1");
});

Deno.test("run fallback: an event at or below the snapshot is not applied twice", () => {
  const state = applyConversationEvents(loaded([run()]), [moved(9)]);
  assert.equal(runOf(state)?.fallback, null, "seq 9 is inside the snapshot (10)");
});
