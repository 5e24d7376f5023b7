import assert from "node:assert/strict";
import {
  dailySeries,
  dayNumber,
  durationParts,
  localDateKey,
  niceCeiling,
  peakDay,
  profileFigures,
  usageStreaks,
} from "./usage_stats.ts";

Deno.test("usage: local date keys follow the browser's time zone, not UTC", () => {
  // The local-time constructor: just after local midnight is that local day everywhere,
  // even where the same instant is still the previous day in UTC.
  assert.equal(localDateKey(new Date(2026, 0, 1, 0, 5)), "2026-01-01");
  assert.equal(localDateKey(new Date(2026, 11, 31, 23, 55)), "2026-12-31");
  assert.equal(localDateKey(new Date(2024, 1, 29, 12)), "2024-02-29");
});

Deno.test("usage: only real calendar dates are accepted", () => {
  assert.equal(dayNumber("1970-01-02"), 1);
  assert.equal(dayNumber("2026-02-30"), null);
  assert.equal(dayNumber("2026-13-01"), null);
  assert.equal(dayNumber("2026-1-01"), null);
  assert.equal(dayNumber("yesterday"), null);
});

Deno.test("usage: the series covers every day of the window, gaps as zero, oldest first", () => {
  const series = dailySeries(
    [
      { date: "2026-02-27", tokens: 5 }, // before the window
      { date: "2026-03-01", tokens: 10 },
      { date: "2026-03-03", tokens: 30 },
    ],
    "2026-03-03",
    4,
  );
  assert.deepEqual(series, [
    { date: "2026-02-28", tokens: 0 },
    { date: "2026-03-01", tokens: 10 },
    { date: "2026-03-02", tokens: 0 },
    { date: "2026-03-03", tokens: 30 },
  ]);
});

Deno.test("usage: the series crosses month, leap-day and DST dates by calendar days", () => {
  const leap = dailySeries([{ date: "2024-02-29", tokens: 1 }], "2024-03-01", 3);
  assert.deepEqual(leap.map((day) => day.date), ["2024-02-28", "2024-02-29", "2024-03-01"]);
  // 2026-03-29 is the EU spring-forward day (23 hours long locally).
  const dst = dailySeries([], "2026-03-30", 3).map((day) => day.date);
  assert.deepEqual(dst, ["2026-03-28", "2026-03-29", "2026-03-30"]);
});

Deno.test("usage: duplicate dates are summed, invalid buckets are ignored", () => {
  const series = dailySeries(
    [
      { date: "2026-03-02", tokens: 4 },
      { date: "2026-03-02", tokens: 6 },
      { date: "2026-03-32", tokens: 99 },
      { date: "2026-03-01", tokens: Number.NaN },
      { date: "2026-03-01", tokens: -3 },
    ],
    "2026-03-02",
    2,
  );
  assert.deepEqual(series, [{ date: "2026-03-01", tokens: 0 }, { date: "2026-03-02", tokens: 10 }]);
});

Deno.test("usage: an invalid today or window is refused", () => {
  assert.throws(() => dailySeries([], "today", 7), RangeError);
  assert.throws(() => dailySeries([], "2026-03-02", 0), RangeError);
  assert.throws(() => dailySeries([], "2026-03-02", 2.5), RangeError);
});

Deno.test("usage: with no data every figure is zero and the series is flat", () => {
  assert.deepEqual(usageStreaks([], "2026-03-02"), { current: 0, longest: 0 });
  assert.equal(peakDay([]), null);
  assert.ok(dailySeries([], "2026-03-02", 7).every((day) => day.tokens === 0));
});

Deno.test("usage: the current streak ends today, or yesterday before today's first use", () => {
  const days = (...dates: string[]) => dates.map((date) => ({ date, tokens: 1 }));
  const three = days("2026-03-01", "2026-03-02", "2026-03-03");
  assert.equal(usageStreaks(three, "2026-03-03").current, 3);
  assert.equal(usageStreaks(three, "2026-03-04").current, 3, "today not used yet");
  assert.equal(usageStreaks(three, "2026-03-05").current, 0, "a whole day missed");
  // A day after today (the runtime's clock ahead) does not extend the current streak.
  assert.equal(usageStreaks(days("2026-03-03", "2026-03-04"), "2026-03-03").current, 1);
});

Deno.test("usage: the longest streak is the longest run of consecutive dates", () => {
  const days = (...dates: string[]) => dates.map((date) => ({ date, tokens: 1 }));
  const streaks = usageStreaks(
    days("2026-01-30", "2026-01-31", "2026-02-01", "2026-02-10", "2026-02-11", "2026-02-28"),
    "2026-02-28",
  );
  assert.deepEqual(streaks, { current: 1, longest: 3 });
  // Unsorted input and zero-token days (not usage) do not change the answer.
  const shuffled = usageStreaks(
    [...days("2026-02-03", "2026-02-01"), { date: "2026-02-02", tokens: 0 }],
    "2026-02-03",
  );
  assert.deepEqual(shuffled, { current: 1, longest: 1 });
  assert.equal(usageStreaks(days("2024-02-28", "2024-02-29", "2024-03-01"), "x").longest, 3);
});

Deno.test("usage: the peak day is the biggest day, the earliest of ties", () => {
  const peak = peakDay([
    { date: "2026-03-05", tokens: 50 },
    { date: "2026-03-01", tokens: 50 },
    { date: "2026-03-03", tokens: 20 },
  ]);
  assert.deepEqual(peak, { date: "2026-03-01", tokens: 50 });
});

Deno.test("usage: profile figures take lifetime and longest run from the summary", () => {
  const figures = profileFigures({
    summary: {
      lifetimeTokens: 1234,
      peakDailyTokens: 700,
      longestRunningTurnSec: 3725,
      currentStreakDays: 9,
      longestStreakDays: 9,
    },
    dailyUsageBuckets: [
      { startDate: "2026-03-01", tokens: 700 },
      { startDate: "2026-03-02", tokens: 534 },
    ],
  }, "2026-03-03");
  assert.deepEqual(figures, {
    lifetimeTokens: 1234,
    peakDay: { date: "2026-03-01", tokens: 700 },
    longestRunSec: 3725,
    currentStreakDays: 2,
    longestStreakDays: 2,
  });
  assert.deepEqual(durationParts(3725), { h: 1, m: 2, s: 5 });
  assert.deepEqual(durationParts(-4), { h: 0, m: 0, s: 0 });
});

Deno.test("usage: the axis maximum is a round number at or above the data", () => {
  assert.equal(niceCeiling(0), 1);
  assert.equal(niceCeiling(7), 10);
  assert.equal(niceCeiling(10), 10);
  assert.equal(niceCeiling(11), 20);
  assert.equal(niceCeiling(4100), 5000);
  assert.equal(niceCeiling(51_000), 100_000);
});
