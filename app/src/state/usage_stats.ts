/**
 * The Profile section's figures and chart series, computed from `usage.read`. The
 * runtime sends one bucket per local calendar day that had tokens (days without usage
 * are absent); the chart needs every day of a window, so gaps become zero days, and the
 * streaks count back from the viewer's local today.
 *
 * @module
 */
import type { ResultOf } from "@daedalus/client";

/** What `usage.read` returns. */
export type UsageReport = ResultOf<"usage.read">;

/** One day of the chart: a local date `YYYY-MM-DD` and its tokens (0 for a gap). */
export interface UsageDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Provider-reported tokens of that day. */
  tokens: number;
}

/** The figures the Profile section shows. */
export interface ProfileFigures {
  /** Every token ever reported. */
  lifetimeTokens: number;
  /** The day with the most tokens (the earliest of ties), or null before any usage. */
  peakDay: UsageDay | null;
  /** The longest completed run, in whole seconds. */
  longestRunSec: number;
  /** Consecutive days with usage up to today (or yesterday). */
  currentStreakDays: number;
  /** The longest run of consecutive days with usage. */
  longestStreakDays: number;
}

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The local calendar date of an instant, in the browser's time zone.
 *
 * @param instant the moment
 * @returns `YYYY-MM-DD`
 * @example
 * ```ts
 * localDateKey(new Date(2026, 0, 1, 0, 5)); // "2026-01-01" in any time zone
 * ```
 */
export function localDateKey(instant: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/**
 * Days since 1970-01-01 of a calendar date. Dates are plain calendar days, so the
 * arithmetic runs in UTC where every day has 24 hours (no DST skips or repeats).
 *
 * @param date `YYYY-MM-DD`
 * @returns the day number, or null for anything that is not a real date
 */
export function dayNumber(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2026-02-30 over into March; the round trip refuses it.
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== date) return null;
  return Math.round(ms / DAY_MS);
}

/**
 * The calendar date of a day number.
 *
 * @param day days since 1970-01-01
 * @returns `YYYY-MM-DD`
 */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Tokens per day number: duplicates are summed, invalid dates and non-positive or
 * non-finite counts are left out (the buckets are external input).
 */
function tokensByDay(buckets: readonly UsageDay[]): Map<number, number> {
  const byDay = new Map<number, number>();
  for (const { date, tokens } of buckets) {
    const day = dayNumber(date);
    if (day === null || !Number.isFinite(tokens) || tokens <= 0) continue;
    byDay.set(day, (byDay.get(day) ?? 0) + tokens);
  }
  return byDay;
}

/**
 * The last `days` local days up to and including `today`, oldest first, with the
 * tokens of each (0 where the runtime reported nothing).
 *
 * @param buckets `dailyUsageBuckets`
 * @param today the viewer's local date, `YYYY-MM-DD`
 * @param days how many days, at least 1
 * @returns one entry per day
 * @throws {RangeError} when `today` is not a date or `days` is not a positive integer
 */
export function dailySeries(
  buckets: readonly UsageDay[],
  today: string,
  days: number,
): UsageDay[] {
  const last = dayNumber(today);
  if (last === null) throw new RangeError(`Today is not a YYYY-MM-DD date: ${today}`);
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`Days must be ≥ 1: ${days}`);
  const byDay = tokensByDay(buckets);
  return Array.from({ length: days }, (_, index) => {
    const day = last - days + 1 + index;
    return { date: dateOfDay(day), tokens: byDay.get(day) ?? 0 };
  });
}

/**
 * Consecutive local days with tokens. The current streak ends today, or yesterday
 * while nothing has been used yet today, and is 0 otherwise; days after `today` (a
 * runtime clock ahead of the browser's) do not count toward it.
 *
 * @param buckets `dailyUsageBuckets`
 * @param today the viewer's local date, `YYYY-MM-DD`
 * @returns the current and the longest streak, in days
 */
export function usageStreaks(
  buckets: readonly UsageDay[],
  today: string,
): { current: number; longest: number } {
  const byDay = tokensByDay(buckets);
  const sorted = [...byDay.keys()].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (const [index, day] of sorted.entries()) {
    run = index > 0 && day === sorted[index - 1] + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  const last = dayNumber(today);
  if (last === null) return { current: 0, longest };
  let day = byDay.has(last) ? last : last - 1;
  let current = 0;
  while (byDay.has(day)) {
    current += 1;
    day -= 1;
  }
  return { current, longest };
}

/**
 * The day with the most tokens; the earliest wins a tie.
 *
 * @param buckets `dailyUsageBuckets`
 * @returns that day, or null when no day has tokens
 */
export function peakDay(buckets: readonly UsageDay[]): UsageDay | null {
  let peak: UsageDay | null = null;
  const byDay = [...tokensByDay(buckets)].sort(([a], [b]) => a - b);
  for (const [day, tokens] of byDay) {
    if (!peak || tokens > peak.tokens) peak = { date: dateOfDay(day), tokens };
  }
  return peak;
}

/**
 * All the Profile figures. Lifetime tokens and the longest run come from the runtime's
 * summary (they are not derivable from the buckets); the peak day and the streaks are
 * computed here so they carry a date and follow the viewer's local today.
 *
 * @param report the `usage.read` result
 * @param today the viewer's local date, `YYYY-MM-DD`
 * @returns the figures
 */
export function profileFigures(report: UsageReport, today: string): ProfileFigures {
  const buckets = report.dailyUsageBuckets.map(({ startDate, tokens }) => ({
    date: startDate,
    tokens,
  }));
  const streaks = usageStreaks(buckets, today);
  return {
    lifetimeTokens: report.summary.lifetimeTokens,
    peakDay: peakDay(buckets),
    longestRunSec: report.summary.longestRunningTurnSec,
    currentStreakDays: streaks.current,
    longestStreakDays: streaks.longest,
  };
}

/**
 * Splits a duration into whole hours, minutes and seconds for display.
 *
 * @param totalSec seconds, negative or non-finite treated as 0
 * @returns the parts
 */
export function durationParts(totalSec: number): { h: number; m: number; s: number } {
  const sec = Number.isFinite(totalSec) && totalSec > 0 ? Math.floor(totalSec) : 0;
  return { h: Math.floor(sec / 3600), m: Math.floor((sec % 3600) / 60), s: sec % 60 };
}

/**
 * A round axis maximum at or above the largest value (1, 2 or 5 × a power of ten), so
 * gridline labels are readable numbers.
 *
 * @param max the largest value
 * @returns the axis maximum, at least 1
 */
export function niceCeiling(max: number): number {
  if (!Number.isFinite(max) || max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}
