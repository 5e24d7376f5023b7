import assert from "node:assert/strict";
import { EventEnvelope, parseResult } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import {
  at,
  type EventFixture,
  fixtureId,
  insertEvent,
  openTempStateDatabase,
} from "./_fixtures.ts";
import { ReadError } from "./errors.ts";
import { latestSeq, readEventsForRun, readEventsForThread, replayEvents } from "./event_replay.ts";

const THREAD_A = fixtureId("thread", 1);
const THREAD_B = fixtureId("thread", 2);

function expectReadError(fn: () => unknown, code: string, field?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ReadError, `expected a ReadError, got ${String(error)}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

function renamed(threadId: string, title: string, seconds: number): EventFixture {
  return {
    type: "thread.renamed",
    threadId,
    timestamp: at(seconds),
    payload: {
      thread: {
        id: threadId,
        title,
        defaultBranchId: threadId.replace("thread_", "branch_"),
        workspace: null,
        createdAt: at(0),
        updatedAt: at(seconds),
        archivedAt: null,
      },
    },
  };
}

function delta(threadId: string, run: number, text: string, seconds: number): EventFixture {
  return {
    type: "item.delta",
    threadId,
    branchId: threadId.replace("thread_", "branch_"),
    turnId: fixtureId("turn", run),
    runId: fixtureId("run", run),
    itemId: fixtureId("item", run),
    timestamp: at(seconds),
    payload: { delta: text },
  };
}

function settled(threadId: string, run: number, seconds: number): EventFixture {
  return {
    type: "run.settled",
    threadId,
    branchId: threadId.replace("thread_", "branch_"),
    turnId: fixtureId("turn", run),
    runId: fixtureId("run", run),
    timestamp: at(seconds),
    payload: { status: "completed", reasonCode: null, failureClass: null },
  };
}

/** Seven events over two threads and two runs; returns them in seq order. */
function seedJournal(db: StateDatabase): EventFixture[] {
  const fixtures = [
    renamed(THREAD_A, "First", 1),
    delta(THREAD_A, 1, "Hel", 2),
    renamed(THREAD_B, "Second", 3),
    delta(THREAD_A, 1, "lo", 4),
    delta(THREAD_B, 2, "Hi", 5),
    settled(THREAD_A, 1, 6),
    {
      ...settled(THREAD_B, 2, 7),
      payload: { status: "failed", reasonCode: "provider_timeout", failureClass: "retryable" },
    },
  ];
  fixtures.forEach((fixture, index) => assert.equal(insertEvent(db, fixture), index + 1));
  return fixtures;
}

Deno.test("replayEvents returns stored rows as envelopes, payloads exactly as published", async () => {
  await using temp = await openTempStateDatabase();
  const fixtures = seedJournal(temp.db);
  const page = replayEvents(temp.db, { afterSeq: 0 });
  parseResult("event.replay", page);
  assert.equal(page.events.length, 7);
  assert.deepEqual(page.events[1], {
    seq: 2,
    schemaVersion: 1,
    type: "item.delta",
    threadId: THREAD_A,
    branchId: fixtureId("branch", 1),
    turnId: fixtureId("turn", 1),
    runId: fixtureId("run", 1),
    itemId: fixtureId("item", 1),
    timestamp: at(2),
    payload: {
      delta: "Hel",
      turnId: fixtureId("turn", 1),
      runId: fixtureId("run", 1),
      itemId: fixtureId("item", 1),
    },
  });
  page.events.forEach((event, index) => {
    EventEnvelope.parse(event);
    assert.equal(event.type, fixtures[index]?.type);
    assert.equal(event.timestamp, fixtures[index]?.timestamp);
  });
  assert.deepEqual(page.events[0]?.payload, fixtures[0]?.payload, "no mirrored ids when null");
  const stored = temp.db.connection.prepare("SELECT payload_json FROM events ORDER BY seq").all();
  assert.deepEqual(
    page.events.map((event) => JSON.stringify(event.payload)),
    stored.map((row) => row.payload_json),
    "payloads serialize back to the stored bytes",
  );
});

Deno.test("replayEvents pages by limit and reports where to continue", async () => {
  await using temp = await openTempStateDatabase();
  seedJournal(temp.db);
  const seqsOf = (afterSeq: number, limit?: number) => {
    const page = replayEvents(temp.db, { afterSeq, limit });
    parseResult("event.replay", page);
    return { ...page, seqs: page.events.map((event) => event.seq) };
  };

  const first = seqsOf(0, 3);
  assert.deepEqual([first.seqs, first.nextAfterSeq, first.hasMore, first.latestSeq], [
    [1, 2, 3],
    3,
    true,
    7,
  ]);
  const second = seqsOf(first.nextAfterSeq, 3);
  assert.deepEqual([second.seqs, second.nextAfterSeq, second.hasMore], [[4, 5, 6], 6, true]);
  const last = seqsOf(second.nextAfterSeq, 3);
  assert.deepEqual([last.seqs, last.nextAfterSeq, last.hasMore], [[7], 7, false]);
  const exact = seqsOf(4, 3);
  assert.deepEqual([exact.seqs, exact.hasMore], [[5, 6, 7], false], "a full last page");

  const caughtUp = seqsOf(7);
  assert.deepEqual([caughtUp.seqs, caughtUp.nextAfterSeq, caughtUp.hasMore], [[], 7, false]);
  const ahead = seqsOf(40);
  assert.deepEqual(
    [ahead.seqs, ahead.nextAfterSeq, ahead.latestSeq, ahead.hasMore],
    [[], 40, 7, false],
    "a client ahead of the journal keeps its afterSeq",
  );
});

Deno.test("replayEvents on an empty journal and latestSeq", async () => {
  await using temp = await openTempStateDatabase();
  assert.deepEqual(replayEvents(temp.db, { afterSeq: 0 }), {
    events: [],
    latestSeq: 0,
    nextAfterSeq: 0,
    hasMore: false,
  });
  assert.equal(latestSeq(temp.db), 0);
  seedJournal(temp.db);
  assert.equal(latestSeq(temp.db), 7);
});

Deno.test("replayEvents enforces limit bounds, defaults to 500 and allows 1000", async () => {
  await using temp = await openTempStateDatabase();
  temp.db.transaction(() => {
    for (let n = 1; n <= 1001; n++) insertEvent(temp.db, delta(THREAD_A, 1, `d${n}`, n));
  });
  for (const limit of [0, 1001, 1.5]) {
    expectReadError(() => replayEvents(temp.db, { afterSeq: 0, limit }), "invalid_params", "limit");
  }
  for (const afterSeq of [-1, 0.5, Number.NaN]) {
    expectReadError(() => replayEvents(temp.db, { afterSeq }), "invalid_params", "afterSeq");
  }
  const byDefault = replayEvents(temp.db, { afterSeq: 0 });
  assert.deepEqual([byDefault.events.length, byDefault.nextAfterSeq, byDefault.hasMore], [
    500,
    500,
    true,
  ]);
  const largest = replayEvents(temp.db, { afterSeq: 0, limit: 1000 });
  assert.deepEqual([largest.events.length, largest.hasMore], [1000, true]);
  assert.deepEqual(
    replayEvents(temp.db, { afterSeq: 1000, limit: 1000 }).events.map((e) => e.seq),
    [1001],
  );
});

Deno.test("readEventsForRun and readEventsForThread page one scope of the journal", async () => {
  await using temp = await openTempStateDatabase();
  seedJournal(temp.db);
  const run1 = readEventsForRun(temp.db, fixtureId("run", 1), { afterSeq: 0, limit: 2 });
  assert.deepEqual(run1.events.map((e) => e.seq), [2, 4]);
  assert.deepEqual([run1.nextAfterSeq, run1.hasMore], [4, true]);
  const run1Rest = readEventsForRun(temp.db, fixtureId("run", 1), { afterSeq: 4 });
  assert.deepEqual([run1Rest.events.map((e) => e.seq), run1Rest.hasMore], [[6], false]);

  const threadB = readEventsForThread(temp.db, THREAD_B, { afterSeq: 0 });
  assert.deepEqual(threadB.events.map((e) => e.seq), [3, 5, 7]);
  assert.deepEqual([threadB.nextAfterSeq, threadB.hasMore], [7, false]);
  assert.deepEqual(
    readEventsForThread(temp.db, fixtureId("thread", 9), { afterSeq: 3 }),
    { events: [], nextAfterSeq: 3, hasMore: false },
  );
  expectReadError(
    () => readEventsForRun(temp.db, THREAD_A, { afterSeq: 0 }),
    "invalid_params",
    "runId",
  );
  expectReadError(
    () => readEventsForThread(temp.db, THREAD_A, { afterSeq: -3 }),
    "invalid_params",
    "afterSeq",
  );
});

Deno.test("replayEvents refuses a stored event that does not match the protocol", async () => {
  await using temp = await openTempStateDatabase();
  seedJournal(temp.db);
  // The payload no longer mirrors the envelope's runId.
  temp.db.connection.prepare(
    "UPDATE events SET payload_json = json_remove(payload_json, '$.runId') WHERE seq = 4",
  ).run();
  assert.equal(replayEvents(temp.db, { afterSeq: 0, limit: 3 }).events.length, 3);
  expectReadError(() => replayEvents(temp.db, { afterSeq: 0 }), "projection_corrupt");
  temp.db.connection.prepare("UPDATE events SET payload_json = 'not json' WHERE seq = 4").run();
  expectReadError(() => replayEvents(temp.db, { afterSeq: 3 }), "projection_corrupt");
});
