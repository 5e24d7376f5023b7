import assert from "node:assert/strict";
import { createBranch, setActiveBranch } from "./branch_writes.ts";
import { startTurn } from "./turn_writes.ts";
import { settleRun } from "./run_writes.ts";
import { setThreadArchived } from "./thread_writes.ts";
import { checkState } from "./maintenance.ts";
import { listTurns, readTurnsNewestFirst } from "./reads/thread_history.ts";
import { getThreadWithBranch, listBranches } from "./reads/branches.ts";
import { readThreadSlice } from "./reads/thread_slice.ts";
import {
  assertValidEvents,
  countRows,
  openTestStore,
  seedThread,
  storeErrorCode,
  TEST_RUN_CONFIG,
  type TestStore,
} from "./_test_store.ts";

/** Starts a turn with `content` on `branchId` (the active branch when absent) and settles it. */
function turn(fixture: TestStore, threadId: string, content: string, branchId?: string) {
  const { result } = startTurn(fixture.store, {
    threadId,
    ...(branchId ? { branchId } : {}),
    content,
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
  });
  settleRun(fixture.store, result.runId, "completed", null);
  return result;
}

function contents(fixture: TestStore, threadId: string, branchId?: string): string[] {
  const page = fixture.store.read((db) =>
    listTurns(db, { threadId, ...(branchId ? { branchId } : {}) })
  );
  return page.turns.map((t) => t.runs[0]!.items[0]!.content);
}

/** A thread with turns "one" … "four" on its default branch. */
async function fourTurns(fixture: TestStore) {
  const { threadId, branchId } = await seedThread(fixture);
  const turns = ["one", "two", "three", "four"].map((text) => turn(fixture, threadId, text));
  return { threadId, defaultBranchId: branchId, turnIds: turns.map((t) => t.turnId) };
}

Deno.test("a branch from turn 2 of 4 has turns 1–2 as history; the original keeps 1–4", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  const { result, events } = createBranch(fixture.store, {
    threadId,
    fromTurnId: turnIds[1]!,
    clientRequestId: "fork-1",
  });
  assertValidEvents(events);
  assert.deepEqual(events.map((e) => e.type), ["branch.created"]);
  assert.equal(result.branch.parentBranchId, defaultBranchId);
  assert.equal(result.branch.forkTurnId, turnIds[1]);
  const forked = turn(fixture, threadId, "three again");
  assert.equal(forked.branchId, result.branch.id, "turn.start continues the active branch");

  assert.deepEqual(contents(fixture, threadId), ["one", "two", "three again"]);
  assert.deepEqual(contents(fixture, threadId, defaultBranchId), ["one", "two", "three", "four"]);
  const history = fixture.store.read((db) => listTurns(db, { threadId })).turns;
  assert.deepEqual(history.map((t) => t.ordinal), [1, 2, 3], "ordinals are history positions");
  assert.deepEqual(
    history.map((t) => t.branchId),
    [defaultBranchId, defaultBranchId, result.branch.id],
    "shared turns keep their own branch",
  );
  assert.equal(history[2]!.parentTurnId, turnIds[1]);
  assert.equal(history[2]!.runs[0]!.branchId, result.branch.id);
  assert.equal(history[0]!.runs[0]!.branchId, defaultBranchId);
  // The context builder reads the same lineage, newest first.
  const recent = fixture.store.read((db) =>
    readTurnsNewestFirst(db, { threadId, branchId: result.branch.id, beforeOrdinal: 3, limit: 10 })
  );
  assert.deepEqual(recent.map((t) => t.id), [turnIds[1], turnIds[0]]);
  assert.ok(checkState(fixture.store.db).ok, "a rebuild from the journal gives the same rows");
});

Deno.test("siblings: a regenerated turn and the original are 1/2 and 2/2 on both branches", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  const { result } = createBranch(fixture.store, {
    threadId,
    fromTurnId: turnIds[2]!,
    clientRequestId: "regen",
  });
  const again = turn(fixture, threadId, "four");
  const onFork = fixture.store.read((db) => listTurns(db, { threadId })).turns;
  assert.deepEqual(onFork.at(-1)!.siblings, {
    index: 1,
    count: 2,
    turnIds: [turnIds[3], again.turnId],
    branchIds: [defaultBranchId, result.branch.id],
  });
  assert.equal(onFork[0]!.siblings!.count, 1, "turn 1 has no siblings");
  const original =
    fixture.store.read((db) => listTurns(db, { threadId, branchId: defaultBranchId })).turns;
  assert.equal(original.at(-1)!.siblings!.index, 0);
  assert.equal(original.at(-1)!.siblings!.count, 2);
});

Deno.test("a branch from null shares nothing: an edited first message is a sibling of turn 1", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  const { result } = createBranch(fixture.store, {
    threadId,
    fromTurnId: null,
    clientRequestId: "edit-first",
  });
  assert.equal(result.branch.parentBranchId, defaultBranchId);
  const edited = turn(fixture, threadId, "one, edited");
  const turns = fixture.store.read((db) => listTurns(db, { threadId })).turns;
  assert.deepEqual(turns.map((t) => t.id), [edited.turnId]);
  assert.equal(turns[0]!.ordinal, 1);
  assert.equal(turns[0]!.parentTurnId, null);
  assert.deepEqual(turns[0]!.siblings!.turnIds, [turnIds[0], edited.turnId]);
});

Deno.test("a fork of a fork reads its grandparent's shared turns", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  createBranch(fixture.store, { threadId, fromTurnId: turnIds[2]!, clientRequestId: "a" });
  const b = turn(fixture, threadId, "four b");
  turn(fixture, threadId, "five b");
  // Fork the fork at its own turn 4, then the default branch at turn 1.
  const c = createBranch(fixture.store, { threadId, fromTurnId: b.turnId, clientRequestId: "c" });
  turn(fixture, threadId, "five c");
  assert.deepEqual(contents(fixture, threadId, c.result.branch.id), [
    "one",
    "two",
    "three",
    "four b",
    "five c",
  ]);
  const d = createBranch(fixture.store, {
    threadId,
    fromTurnId: turnIds[0]!,
    clientRequestId: "d",
  });
  assert.equal(d.result.branch.parentBranchId, defaultBranchId, "turn 1 is the default's");
  turn(fixture, threadId, "two d");
  assert.deepEqual(contents(fixture, threadId), ["one", "two d"]);
  // Paging a lineage across branches keeps ordinal order and continues where it stopped.
  const first = fixture.store.read((db) =>
    listTurns(db, { threadId, branchId: c.result.branch.id, limit: 2 })
  );
  const rest = fixture.store.read((db) =>
    listTurns(db, { threadId, branchId: c.result.branch.id, cursor: first.nextCursor, limit: 10 })
  );
  assert.deepEqual([...first.turns, ...rest.turns].map((t) => t.ordinal), [1, 2, 3, 4, 5]);
  const back = fixture.store.read((db) =>
    listTurns(db, { threadId, branchId: c.result.branch.id, direction: "backward", limit: 3 })
  );
  assert.deepEqual(back.turns.map((t) => t.ordinal), [3, 4, 5]);
  assert.ok(checkState(fixture.store.db).ok);
});

Deno.test("branch.create is idempotent by clientRequestId and refuses other params", async () => {
  await using fixture = await openTestStore();
  const { threadId, turnIds } = await fourTurns(fixture);
  const input = { threadId, fromTurnId: turnIds[1]!, clientRequestId: "same" };
  const first = createBranch(fixture.store, input);
  const again = createBranch(fixture.store, input);
  assert.equal(again.events.length, 0, "a retry writes nothing");
  assert.equal(again.result.created, false);
  assert.deepEqual(again.result.branch, first.result.branch);
  assert.deepEqual(again.result.event, first.result.event, "a retry returns the original event");
  assert.throws(
    () => createBranch(fixture.store, { ...input, fromTurnId: turnIds[2]! }),
    storeErrorCode("idempotency_conflict"),
  );
  assert.equal(countRows(fixture.store, "branches"), 2);
});

Deno.test("bad input: each refusal has its own code and writes nothing", async () => {
  await using fixture = await openTestStore();
  const { threadId, turnIds } = await fourTurns(fixture);
  const other = await seedThread(fixture);
  const otherTurn = turn(fixture, other.threadId, "elsewhere");
  const { result: running } = startTurn(fixture.store, {
    threadId,
    content: "five",
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
  });
  const before = countRows(fixture.store);
  const cases: [string, string, string | null, string][] = [
    ["unknown thread", "thread_0123456789abcdef0123456789abcdef", turnIds[0]!, "thread_not_found"],
    ["unknown turn", threadId, "turn_0123456789abcdef0123456789abcdef", "turn_not_found"],
    ["a turn of another thread", threadId, otherTurn.turnId, "turn_not_in_thread"],
    ["a turn not settled yet", threadId, running.turnId, "turn_active"],
  ];
  for (const [name, thread, fromTurnId, code] of cases) {
    assert.throws(
      () => createBranch(fixture.store, { threadId: thread, fromTurnId, clientRequestId: name }),
      storeErrorCode(code as never),
      name,
    );
  }
  assert.equal(countRows(fixture.store), before, "a refused branch.create writes nothing");
  settleRun(fixture.store, running.runId, "completed", null);
  setThreadArchived(fixture.store, threadId, true);
  const archivedAt = countRows(fixture.store);
  assert.throws(
    () => createBranch(fixture.store, { threadId, fromTurnId: null, clientRequestId: "x" }),
    storeErrorCode("thread_archived"),
  );
  assert.throws(
    () => setActiveBranch(fixture.store, threadId, other.branchId),
    storeErrorCode("branch_not_found"),
  );
  assert.equal(countRows(fixture.store), archivedAt, "no event was written");
  assert.equal(countRows(fixture.store, "branches", "thread_id = ?", threadId), 1);
});

Deno.test("setActiveBranch switches back and forth; the same branch writes nothing", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  const fork = createBranch(fixture.store, {
    threadId,
    fromTurnId: turnIds[1]!,
    clientRequestId: "fork",
  });
  const listed = fixture.store.read((db) => listBranches(db, threadId));
  assert.deepEqual(listed.branches.map((b) => b.id), [defaultBranchId, fork.result.branch.id]);
  assert.equal(listed.activeBranchId, fork.result.branch.id, "a new branch is the active one");
  const back = setActiveBranch(fixture.store, threadId, defaultBranchId);
  assertValidEvents(back.events);
  assert.equal(back.result.changed, true);
  assert.equal(back.result.thread.activeBranchId, defaultBranchId);
  assert.deepEqual(contents(fixture, threadId), ["one", "two", "three", "four"]);
  const same = setActiveBranch(fixture.store, threadId, defaultBranchId);
  assert.equal(same.result.changed, false);
  assert.equal(same.events.length, 0);
  setActiveBranch(fixture.store, threadId, fork.result.branch.id);
  assert.equal(
    fixture.store.read((db) => getThreadWithBranch(db, threadId)).branch.id,
    fork.result.branch.id,
  );
  assert.deepEqual(contents(fixture, threadId), ["one", "two"]);
  assert.ok(checkState(fixture.store.db).ok);
});

Deno.test("turns written before branches follow the turn one ordinal earlier", async () => {
  await using fixture = await openTestStore();
  const { threadId, turnIds } = await fourTurns(fixture);
  // Rows from before schema 7 have no previous turn.
  fixture.store.db.connection.exec("UPDATE turns SET parent_turn_id = NULL");
  const turns = fixture.store.read((db) => listTurns(db, { threadId })).turns;
  assert.deepEqual(turns.map((t) => t.parentTurnId), [null, ...turnIds.slice(0, 3)]);
  assert.ok(turns.every((t) => t.siblings!.count === 1));
});

Deno.test("the history_read slice follows the active branch's lineage", async () => {
  await using fixture = await openTestStore();
  const { threadId, defaultBranchId, turnIds } = await fourTurns(fixture);
  createBranch(fixture.store, { threadId, fromTurnId: turnIds[0]!, clientRequestId: "slice" });
  turn(fixture, threadId, "two b");
  const texts = () =>
    fixture.store.read((db) => readThreadSlice(db, { threadId, maxItems: 50 })).items
      .map((item) => item.content);
  assert.deepEqual(texts(), ["one", "two b"]);
  setActiveBranch(fixture.store, threadId, defaultBranchId);
  assert.deepEqual(texts(), ["one", "two", "three", "four"]);
});
