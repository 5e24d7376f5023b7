import assert from "node:assert/strict";
import type { Item, JournalEvent } from "@daedalus/client";
import {
  applyConversationEvents,
  applyTurnList,
  emptyConversation,
  queuedRun,
} from "./projection.ts";
import type { RunView } from "./projection.ts";
import { formatElapsed, runProgress } from "./run_progress.ts";

const TS = "2026-10-01T10:00:00.000Z";

function ev(seq: number, type: string, payload: Record<string, unknown>, at = TS): JournalEvent {
  return {
    seq,
    schemaVersion: 1,
    threadId: "t1",
    branchId: "b1",
    turnId: "turn_1",
    runId: "run_1",
    itemId: null,
    timestamp: at,
    type,
    payload: { turnId: "turn_1", runId: "run_1", ...payload },
  } as JournalEvent;
}

function run(over: Partial<RunView> = {}): RunView {
  return { ...queuedRun("run_1", "turn_1"), status: "running", ...over };
}

function userItem(id: string, data: Record<string, unknown>): Item {
  return {
    id,
    turnId: "turn_1",
    runId: "run_1",
    ordinal: 1,
    kind: "message",
    role: "user",
    status: "completed",
    content: "x",
    data,
    createdAt: TS,
    updatedAt: TS,
  };
}

Deno.test("progress: model calls and compactions follow the events", () => {
  let state = applyTurnList(emptyConversation("t1"), { turns: [], snapshotSeq: 0 });
  state = applyConversationEvents(state, [
    ev(1, "model.input_prepared", {
      callOrdinal: 1,
      stepOrdinal: 1,
      purpose: "step",
      contextRevision: null,
      stepInput: {},
    }),
    ev(2, "context.compacted", { revision: 2 }),
    ev(3, "model.input_prepared", {
      callOrdinal: 2,
      stepOrdinal: 2,
      purpose: "step",
      contextRevision: null,
      stepInput: {},
    }),
    ev(4, "context.compacted", { revision: 3 }),
  ]);
  const view = state.turns[0]!.runs[0]!;
  assert.equal(view.modelCalls, 2);
  assert.equal(view.compactions, 2);
  assert.equal(view.startedAt, TS);
  const later = Date.parse(TS) + 65_000;
  assert.deepEqual(runProgress(view, later), {
    modelCalls: 2,
    compactions: 2,
    steers: 0,
    elapsedMs: 65_000,
  });
});

Deno.test("progress: steers are user items marked steer; elapsed stops at settle", () => {
  const view = run({
    startedAt: TS,
    settledAt: "2026-10-01T10:00:10.000Z",
    items: [userItem("a", {}), userItem("b", { steer: true }), userItem("c", { steer: true })],
  });
  const p = runProgress(view, Date.parse(TS) + 999_999);
  assert.equal(p.steers, 2);
  assert.equal(p.elapsedMs, 10_000);
  assert.equal(runProgress(run(), Date.now()).elapsedMs, null);
});

Deno.test("formatElapsed", () => {
  assert.equal(formatElapsed(0), "0:00");
  assert.equal(formatElapsed(65_400), "1:05");
  assert.equal(formatElapsed(3_725_000), "1:02:05");
});
