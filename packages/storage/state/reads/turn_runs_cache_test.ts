import assert from "node:assert/strict";
import type { Turn } from "@daedalus/protocol";
import {
  openTestStore,
  seedThread,
  seedTurn,
  TEST_RUN_CONFIG,
  type TestStore,
} from "../_test_store.ts";
import { resumeRun } from "../resume_writes.ts";
import { activateRun, settleRun } from "../run_writes.ts";
import { renameThread } from "../thread_writes.ts";
import { listTurns, readTurnsNewestFirst } from "./thread_history.ts";
import { keptTurnChars, keptTurnCount } from "./turn_runs_cache.ts";
import { deleteThread } from "../thread_delete.ts";
import { TURN_RUNS_CACHE_MAX_CHARS, TURN_RUNS_CACHE_MAX_THREADS } from "../../limits.ts";

/** A thread with `settled` completed turns and, when asked, a last one still running. */
async function threadWithTurns(fixture: TestStore, settled: number, running = false) {
  const { threadId } = await seedThread(fixture);
  const runs: string[] = [];
  for (let n = 0; n < settled + (running ? 1 : 0); n++) {
    const { runId } = seedTurn(fixture.store, threadId, { content: `turn ${n + 1}` });
    activateRun(fixture.store, runId);
    if (n < settled) settleRun(fixture.store, runId, "completed", null);
    runs.push(runId);
  }
  return { threadId, runs };
}

const history = (fixture: TestStore, threadId: string): Turn[] =>
  fixture.store.read((db) => readTurnsNewestFirst(db, { threadId, limit: 32 }));

Deno.test("a second history read shares the kept runs; a turn that changed is read afresh", async () => {
  await using fixture = await openTestStore();
  const { threadId, runs } = await threadWithTurns(fixture, 2, true);
  const first = history(fixture, threadId);
  assert.deepEqual(first.map((turn) => turn.runs[0]!.status), [
    "running",
    "completed",
    "completed",
  ]);
  const again = history(fixture, threadId);
  assert.deepEqual(again, first);
  for (const [n, turn] of again.entries()) {
    assert.equal(turn.runs[0], first[n]!.runs[0], `turn ${turn.ordinal}'s run is the kept one`);
  }
  settleRun(fixture.store, runs[2]!, "completed", null);
  const later = history(fixture, threadId);
  assert.equal(later[0]!.runs[0]!.status, "completed", "the settled run is read afresh");
  assert.equal(later[0]!.status, "completed", "and its turn row");
  assert.notEqual(later[0]!.runs[0], first[0]!.runs[0]);
  assert.equal(later[1]!.runs[0], first[1]!.runs[0], "an unchanged turn stays kept");
  assert.equal(later[2]!.runs[0], first[2]!.runs[0]);
});

Deno.test("an event of the thread that names no turn drops its kept runs", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await threadWithTurns(fixture, 2);
  const first = history(fixture, threadId);
  renameThread(fixture.store, threadId, "Renamed");
  const after = history(fixture, threadId);
  assert.deepEqual(after, first, "the same history");
  assert.notEqual(after[0]!.runs[0], first[0]!.runs[0], "read afresh, not kept");
});

Deno.test("kept history is what an uncached read returns, and nobody can change it", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await threadWithTurns(fixture, 3);
  history(fixture, threadId);
  seedTurn(fixture.store, threadId, { content: "turn 4" });
  const kept = history(fixture, threadId);
  const listed = fixture.store.read((db) =>
    listTurns(db, { threadId, direction: "backward", limit: 32 })
  ).turns.reverse();
  assert.deepEqual(kept.map((turn) => turn.runs), listed.map((turn) => turn.runs));
  assert.deepEqual(kept.map((turn) => turn.status), listed.map((turn) => turn.status));
  const run = kept[1]!.runs[0]!;
  assert.throws(() => {
    (run as { status: string }).status = "failed";
  }, TypeError);
  assert.throws(() => run.items.push(run.items[0]!), TypeError);
});

Deno.test("a journal whose newest seq went back drops the kept runs", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await threadWithTurns(fixture, 2);
  const first = history(fixture, threadId);
  // What a file restored from an older copy looks like to the cache: fewer events.
  fixture.store.db.connection.exec(
    "DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)",
  );
  const after = history(fixture, threadId);
  assert.notEqual(after[0]!.runs[0], first[0]!.runs[0], "read afresh, not kept");
});

Deno.test("a deleted thread's kept history leaves memory with it; the bound holds", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await threadWithTurns(fixture, 2);
  history(fixture, threadId);
  const connection = fixture.store.db.connection;
  assert.equal(keptTurnCount(connection, threadId), 2);
  deleteThread(fixture.store, { threadId, clientRequestId: "delete-1" });
  assert.equal(keptTurnCount(connection, threadId), 0);

  // Past TURN_RUNS_CACHE_MAX_THREADS threads, the one read least recently goes.
  const threads: string[] = [];
  for (let n = 0; n <= TURN_RUNS_CACHE_MAX_THREADS; n++) {
    threads.push((await threadWithTurns(fixture, 1)).threadId);
    history(fixture, threads.at(-1)!);
  }
  assert.equal(keptTurnCount(connection, threads[0]!), 0, "the oldest thread went");
  assert.equal(keptTurnCount(connection, threads.at(-1)!), 1);
});

Deno.test("a Run resumed in a kept turn shows in the next history read", async () => {
  await using fixture = await openTestStore();
  const { threadId, runs } = await threadWithTurns(fixture, 1);
  const failed = seedTurn(fixture.store, threadId, { content: "turn 2" });
  activateRun(fixture.store, failed.runId);
  settleRun(fixture.store, failed.runId, "failed", "provider_server");
  const first = history(fixture, threadId);
  assert.deepEqual(first.map((turn) => turn.runs.length), [1, 1]);
  const { result } = resumeRun(fixture.store, {
    fromRunId: failed.runId,
    runConfig: TEST_RUN_CONFIG,
  });
  const after = history(fixture, threadId);
  assert.deepEqual(after[0]!.runs.map((run) => run.id), [failed.runId, result.runId]);
  assert.equal(after[1]!.runs[0], first[1]!.runs[0], "the untouched turn stays kept");
  assert.equal(after[1]!.runs[0]!.id, runs[0]);
});

Deno.test("what is kept of a thread stays within its character bound, newest turns kept", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  // Six turns of ~900 K characters each: more than TURN_RUNS_CACHE_MAX_CHARS together.
  for (let n = 0; n < 6; n++) {
    const { runId } = seedTurn(fixture.store, threadId, {
      content: `${n}`.repeat(900_000),
    });
    activateRun(fixture.store, runId);
    settleRun(fixture.store, runId, "completed", null);
  }
  const turns = history(fixture, threadId);
  assert.equal(turns.length, 6, "the read itself returns every turn");
  const connection = fixture.store.db.connection;
  const kept = keptTurnChars(connection, threadId);
  assert.ok(kept <= TURN_RUNS_CACHE_MAX_CHARS, `${kept} characters kept`);
  assert.ok(keptTurnCount(connection, threadId) >= 3, "as many as fit are kept");
  const again = history(fixture, threadId);
  // (assert.ok, not equal: a failure would print megabytes)
  assert.ok(again[0]!.runs[0] === turns[0]!.runs[0], "the newest turn is among the kept");
  assert.ok(again[5]!.runs[0] !== turns[5]!.runs[0], "the oldest went first");
  assert.ok(JSON.stringify(again) === JSON.stringify(turns), "the same history");
});

Deno.test("a kept turn pushed out by the turns a read keeps still comes back whole from that read", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  const turn = (n: number) => {
    const { runId } = seedTurn(fixture.store, threadId, { content: `${n}`.repeat(900_000) });
    activateRun(fixture.store, runId);
    settleRun(fixture.store, runId, "completed", null);
  };
  const read = (limit: number) =>
    fixture.store.read((db) => readTurnsNewestFirst(db, { threadId, limit }));
  for (let n = 1; n <= 4; n++) turn(n);
  read(4); // four kept: ~3.6 Mi characters
  turn(5); // keeping it pushes turn 1 out, in the same read that returns turn 1
  const turns = read(5);
  assert.deepEqual(turns.map((t) => t.runs.length), [1, 1, 1, 1, 1], "every turn has its run");
  assert.ok(turns[4]!.runs[0]!.items.length > 0, "and its items");
});
