import assert from "node:assert/strict";
import { BranchId, RunId, RunStatus, ThreadId, TurnId } from "@daedalus/protocol";
import {
  at,
  fixtureId,
  insertBranch,
  insertEvent,
  insertRun,
  insertThread,
  insertTurn,
  openTempStateDatabase,
} from "./_fixtures.ts";
import { listRecoverableRuns, type RecoverableRun } from "./recovery.ts";

const run = (n: number) => fixtureId("run", n);

Deno.test("listRecoverableRuns lists queued and running runs by their first journal event", async () => {
  await using temp = await openTempStateDatabase();
  const threadA = fixtureId("thread", 1);
  const threadB = fixtureId("thread", 2);
  insertThread(temp.db, { id: threadA });
  insertThread(temp.db, { id: threadB });
  insertBranch(temp.db, { id: fixtureId("branch", 3), threadId: threadB });
  insertTurn(temp.db, {
    id: fixtureId("turn", 1),
    threadId: threadA,
    branchId: fixtureId("branch", 1),
    ordinal: 1,
  });
  insertTurn(temp.db, {
    id: fixtureId("turn", 2),
    threadId: threadB,
    branchId: fixtureId("branch", 3),
    ordinal: 1,
  });
  // Creation times disagree with journal order on purpose: the journal decides.
  insertRun(temp.db, { id: run(1), turnId: fixtureId("turn", 1), status: "completed" });
  insertRun(temp.db, {
    id: run(2),
    turnId: fixtureId("turn", 1),
    status: "running",
    createdAt: at(1),
  });
  insertRun(temp.db, {
    id: run(3),
    turnId: fixtureId("turn", 2),
    status: "queued",
    createdAt: at(9),
    providerId: "remote",
    modelId: "model-b",
  });
  insertRun(temp.db, { id: run(4), turnId: fixtureId("turn", 2), status: "running" });
  insertRun(temp.db, { id: run(5), turnId: fixtureId("turn", 1), status: "queued" });
  insertRun(temp.db, { id: run(6), turnId: fixtureId("turn", 1), status: "cancelled" });

  const eventFor = (n: number) =>
    insertEvent(temp.db, { type: "item.delta", runId: run(n), payload: {} });
  eventFor(1);
  eventFor(3); // seq 2
  eventFor(6);
  eventFor(2); // seq 4
  eventFor(3);
  eventFor(4); // seq 6
  eventFor(2);
  // run 5 has no event at all: it comes last rather than being dropped.

  const runs = listRecoverableRuns(temp.db);
  assert.deepEqual(runs.map((r) => r.runId), [run(3), run(2), run(4), run(5)]);
  assert.deepEqual(
    runs[0],
    {
      runId: run(3),
      turnId: fixtureId("turn", 2),
      threadId: threadB,
      branchId: fixtureId("branch", 3),
      status: "queued",
      providerId: "remote",
      modelId: "model-b",
    } satisfies RecoverableRun,
  );
  assert.deepEqual(runs.map((r) => r.status), ["queued", "running", "running", "queued"]);
  for (const recoverable of runs) {
    RunId.parse(recoverable.runId);
    TurnId.parse(recoverable.turnId);
    ThreadId.parse(recoverable.threadId);
    BranchId.parse(recoverable.branchId);
    RunStatus.parse(recoverable.status);
  }
});

Deno.test("listRecoverableRuns is empty when every run has settled", async () => {
  await using temp = await openTempStateDatabase();
  assert.deepEqual(listRecoverableRuns(temp.db), []);
  insertThread(temp.db, { id: fixtureId("thread", 1) });
  insertTurn(temp.db, {
    id: fixtureId("turn", 1),
    threadId: fixtureId("thread", 1),
    branchId: fixtureId("branch", 1),
    ordinal: 1,
  });
  for (const [n, status] of [[1, "completed"], [2, "failed"], [3, "cancelled"]] as const) {
    insertRun(temp.db, { id: run(n), turnId: fixtureId("turn", 1), status });
  }
  assert.deepEqual(listRecoverableRuns(temp.db), []);
});
