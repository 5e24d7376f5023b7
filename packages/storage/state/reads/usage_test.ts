import assert from "node:assert/strict";
import { DailyUsageBucket, parseResult, UsageSummary } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import {
  at,
  fixtureId,
  insertModelCall,
  insertRun,
  insertThread,
  insertTurn,
  openTempStateDatabase,
  type RunFixture,
} from "./_fixtures.ts";
import { ReadError } from "./errors.ts";
import { readUsage, type UsageReport } from "./usage.ts";

const THREAD = fixtureId("thread", 1);
const TURN = fixtureId("turn", 1);

function expectReadError(fn: () => unknown, code: string, field?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ReadError, `expected a ReadError, got ${String(error)}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

function validated(report: UsageReport): UsageReport {
  parseResult("usage.read", report);
  UsageSummary.parse(report.summary);
  for (const bucket of report.dailyUsageBuckets) DailyUsageBucket.parse(bucket);
  return report;
}

function seedTurn(db: StateDatabase): void {
  insertThread(db, { id: THREAD });
  insertTurn(db, { id: TURN, threadId: THREAD, branchId: fixtureId("branch", 1), ordinal: 1 });
}

/** Records model calls with usage on one run: `[activityDate, totalTokens]` each. */
function seedUsage(db: StateDatabase, runN: number, usages: [string, number][]): void {
  const runId = fixtureId("run", runN);
  insertRun(db, { id: runId, turnId: TURN });
  usages.forEach(([activityDate, tokens], index) =>
    insertModelCall(db, { runId, callOrdinal: index + 1, tokens, activityDate })
  );
}

/**
 * 1570 tokens over seven dates: a two-day streak (03-01, 03-02), a zero-token day that
 * breaks it (03-03), a three-day streak (03-04..06) and a lone day (03-10).
 */
function seedExample(db: StateDatabase): void {
  seedTurn(db);
  seedUsage(db, 1, [["2026-03-01", 100], ["2026-03-01", 50], ["2026-03-02", 300]]);
  seedUsage(db, 2, [["2026-03-03", 0], ["2026-03-04", 20], ["2026-03-05", 40]]);
  seedUsage(db, 3, [["2026-03-06", 60], ["2026-03-10", 1000]]);
}

Deno.test("readUsage sums lifetime tokens, daily buckets and streaks", async () => {
  await using temp = await openTempStateDatabase();
  seedExample(temp.db);
  const report = validated(readUsage(temp.db, { today: "2026-03-10" }));
  assert.deepEqual(report, {
    summary: {
      lifetimeTokens: 1570,
      peakDailyTokens: 1000,
      longestRunningTurnSec: 0,
      currentStreakDays: 1,
      longestStreakDays: 3,
    },
    dailyUsageBuckets: [
      { startDate: "2026-03-01", tokens: 150 },
      { startDate: "2026-03-02", tokens: 300 },
      { startDate: "2026-03-04", tokens: 20 },
      { startDate: "2026-03-05", tokens: 40 },
      { startDate: "2026-03-06", tokens: 60 },
      { startDate: "2026-03-10", tokens: 1000 },
    ],
  });
});

Deno.test("readUsage counts the current streak back from today, else from yesterday", async () => {
  await using temp = await openTempStateDatabase();
  seedExample(temp.db);
  const streakOn = (today: string) =>
    validated(readUsage(temp.db, { today })).summary.currentStreakDays;
  assert.equal(streakOn("2026-03-06"), 3, "today has usage: count from today");
  assert.equal(streakOn("2026-03-07"), 3, "nothing yet today: count from yesterday");
  assert.equal(streakOn("2026-03-08"), 0, "neither today nor yesterday");
  assert.equal(streakOn("2026-03-11"), 1);
  assert.equal(streakOn("2026-03-03"), 2, "a zero-token day is no usage");
  assert.equal(streakOn("2026-03-02"), 2, "later days do not count");
  assert.equal(streakOn("2026-02-28"), 0);
});

Deno.test("readUsage streaks cross month, leap-day and year boundaries", async () => {
  await using temp = await openTempStateDatabase();
  seedTurn(temp.db);
  seedUsage(temp.db, 1, [
    ["2027-12-30", 1],
    ["2027-12-31", 1],
    ["2028-01-01", 1],
    ["2028-02-28", 5],
    ["2028-02-29", 5],
    ["2028-03-01", 5],
    ["2028-03-02", 5],
  ]);
  const { summary } = validated(readUsage(temp.db, { today: "2028-03-03" }));
  assert.equal(summary.longestStreakDays, 4);
  assert.equal(summary.currentStreakDays, 4);
  assert.equal(
    validated(readUsage(temp.db, { today: "2028-01-02" })).summary.currentStreakDays,
    3,
  );
});

Deno.test("readUsage limits buckets to the last days but keeps lifetime figures", async () => {
  await using temp = await openTempStateDatabase();
  seedExample(temp.db);
  const week = validated(readUsage(temp.db, { today: "2026-03-10", days: 7 }));
  assert.deepEqual(week.dailyUsageBuckets.map((b) => b.startDate), [
    "2026-03-04",
    "2026-03-05",
    "2026-03-06",
    "2026-03-10",
  ]);
  assert.equal(week.summary.lifetimeTokens, 1570);
  assert.equal(week.summary.longestStreakDays, 3);
  const oneDay = validated(readUsage(temp.db, { today: "2026-03-05", days: 1 }));
  assert.deepEqual(oneDay.dailyUsageBuckets, [{ startDate: "2026-03-05", tokens: 40 }]);
});

Deno.test("readUsage measures the longest completed run in whole seconds", async () => {
  await using temp = await openTempStateDatabase();
  seedTurn(temp.db);
  const runs: Omit<RunFixture, "turnId">[] = [
    { id: fixtureId("run", 1), startedAt: at(0), settledAt: at(90.9) },
    { id: fixtureId("run", 2), startedAt: at(10), settledAt: at(135.999) },
    { id: fixtureId("run", 3), startedAt: at(0), settledAt: at(2) },
    // Excluded: interrupted by a restart, failed, still running, never started.
    {
      id: fixtureId("run", 4),
      startedAt: at(0),
      settledAt: at(500),
      reasonCode: "runtime_interrupted",
    },
    {
      id: fixtureId("run", 5),
      status: "failed",
      startedAt: at(0),
      settledAt: at(900),
      reasonCode: "provider_timeout",
    },
    { id: fixtureId("run", 6), status: "running", startedAt: at(0) },
    { id: fixtureId("run", 7), startedAt: null, settledAt: at(999) },
    // A clock step back counts as 0, not as a negative duration.
    { id: fixtureId("run", 8), startedAt: at(50), settledAt: at(40) },
  ];
  for (const run of runs) insertRun(temp.db, { ...run, turnId: TURN });
  const { summary } = validated(readUsage(temp.db, { today: "2026-03-01" }));
  assert.equal(summary.longestRunningTurnSec, 125);
});

Deno.test("readUsage on an empty database is all zeros", async () => {
  await using temp = await openTempStateDatabase();
  assert.deepEqual(validated(readUsage(temp.db, { today: "2026-03-01", days: 30 })), {
    summary: {
      lifetimeTokens: 0,
      peakDailyTokens: 0,
      longestRunningTurnSec: 0,
      currentStreakDays: 0,
      longestStreakDays: 0,
    },
    dailyUsageBuckets: [],
  });
});

Deno.test("readUsage saturates figures beyond the safe integer range", async () => {
  await using temp = await openTempStateDatabase();
  seedTurn(temp.db);
  const huge = Number.MAX_SAFE_INTEGER - 1;
  seedUsage(temp.db, 1, [["2026-03-01", huge], ["2026-03-01", huge], ["2026-03-02", 7]]);
  const { summary, dailyUsageBuckets } = validated(readUsage(temp.db, { today: "2026-03-02" }));
  assert.equal(summary.lifetimeTokens, Number.MAX_SAFE_INTEGER);
  assert.equal(summary.peakDailyTokens, Number.MAX_SAFE_INTEGER);
  assert.ok(Number.isSafeInteger(dailyUsageBuckets[0]?.tokens));
  assert.equal(dailyUsageBuckets[1]?.tokens, 7);
});

Deno.test("readUsage refuses malformed dates and windows", async () => {
  await using temp = await openTempStateDatabase();
  for (const today of ["2026-02-30", "20260301", "", "2026-3-1", "2026-03-01T00:00:00Z"]) {
    expectReadError(() => readUsage(temp.db, { today }), "invalid_params", "today");
  }
  for (const days of [0, -1, 3661, 1.5]) {
    expectReadError(
      () => readUsage(temp.db, { today: "2026-03-01", days }),
      "invalid_params",
      "days",
    );
  }
  seedTurn(temp.db);
  seedUsage(temp.db, 1, [["2026-13-01", 5]]);
  expectReadError(() => readUsage(temp.db, { today: "2026-03-01" }), "projection_corrupt");
});
