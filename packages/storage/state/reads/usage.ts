/**
 * Usage figures for `usage.read`, aggregated from the provider-reported tokens in
 * `model_usages` and the run timings in `runs`. Days are the local calendar dates the
 * runtime recorded (`activity_date`); every figure is a safe integer.
 *
 * @module
 */
import { LocalDate, type ResultOf } from "@daedalus/protocol";
import type { SQLOutputValue } from "node:sqlite";
import type { StateDatabase } from "../database.ts";
import { textColumn } from "../_sqlite.ts";
import { statement } from "../../_statements.ts";
import { ReadError } from "./errors.ts";
import { DAY_MS, USAGE_WINDOW_MAX_DAYS } from "./limits.ts";

/** What {@linkcode readUsage} returns: the `usage.read` result. */
export type UsageReport = ResultOf<"usage.read">;

/** Options of {@linkcode readUsage}. */
export interface ReadUsageOptions {
  /** The caller's local date, `YYYY-MM-DD`; the current streak counts back from it. */
  today: string;
  /** Return buckets for the last this many days up to `today` only; default all days. */
  days?: number;
}

/** Tokens of one local day with usage. */
interface DayTokens {
  date: string;
  day: number;
  tokens: number;
}

/**
 * Reads lifetime usage and the daily token buckets.
 *
 * Streaks count consecutive local dates with tokens: the current one ends today, or
 * yesterday when nothing was used yet today, and is 0 otherwise. The longest running
 * time is the longest completed run, in whole seconds, runs ended by a restart excluded.
 *
 * @param db the state database
 * @param options `today` and an optional window of `days`
 * @returns the summary and the buckets of days with tokens, oldest first
 * @throws {ReadError} `invalid_params` for a malformed `today` or a `days` outside
 *   1–3660; `projection_corrupt` for a stored date that is not `YYYY-MM-DD`
 * @example
 * ```ts
 * const { summary, dailyUsageBuckets } = readUsage(db, { today: "2026-11-29", days: 30 });
 * ```
 */
export function readUsage(db: StateDatabase, options: ReadUsageOptions): UsageReport {
  const today = parseDay(options.today, "today");
  const windowDays = usageWindow(options.days);
  return db.readTransaction(() => {
    const lifetimeTokens = safeInteger(
      singleValue(db, "SELECT sum(total_tokens) AS value FROM model_usages"),
    );
    const days = selectDailyTokens(db);
    const longestRunningTurnSec = safeInteger(singleValue(db, LONGEST_RUN_SQL));
    const firstDay = windowDays === undefined ? -Infinity : today - windowDays + 1;
    return {
      summary: {
        lifetimeTokens,
        peakDailyTokens: days.reduce((peak, { tokens }) => Math.max(peak, tokens), 0),
        longestRunningTurnSec,
        currentStreakDays: currentStreak(days, today),
        longestStreakDays: longestStreak(days),
      },
      dailyUsageBuckets: days
        .filter(({ day }) => windowDays === undefined || (day >= firstDay && day <= today))
        .map(({ date, tokens }) => ({ startDate: date, tokens })),
    };
  });
}

/**
 * Whole seconds of the longest completed run. Timestamps are rounded to milliseconds
 * before flooring so float noise in julianday never loses a second; clock steps that
 * make a run end before it started count as 0.
 */
const LONGEST_RUN_SQL = `SELECT max(max(0,
    CAST(round((julianday(settled_at) - julianday(started_at)) * 86400000) AS INTEGER) / 1000
  )) AS value
  FROM runs
  WHERE status = 'completed' AND reason_code IS NOT 'runtime_interrupted'
    AND started_at IS NOT NULL AND settled_at IS NOT NULL`;

function selectDailyTokens(db: StateDatabase): DayTokens[] {
  // Cached: the text is fixed and only this reader uses it (with bigints on).
  const select = statement(
    db.connection,
    `SELECT activity_date, sum(total_tokens) AS tokens FROM model_usages
     GROUP BY activity_date HAVING sum(total_tokens) > 0 ORDER BY activity_date ASC`,
  );
  select.setReadBigInts(true);
  return select.all().map((row) => {
    const date = textColumn(row, "activity_date");
    return { date, day: storedDay(date), tokens: safeInteger(row.tokens) };
  });
}

function currentStreak(days: DayTokens[], today: number): number {
  const used = new Set(days.map(({ day }) => day));
  let day = used.has(today) ? today : today - 1;
  let streak = 0;
  while (used.has(day)) {
    streak += 1;
    day -= 1;
  }
  return streak;
}

/** `days` is ascending with one entry per date, so a streak is a run of +1 steps. */
function longestStreak(days: DayTokens[]): number {
  let longest = 0;
  let streak = 0;
  let previous = Number.NaN;
  for (const { day } of days) {
    streak = day === previous + 1 ? streak + 1 : 1;
    longest = Math.max(longest, streak);
    previous = day;
  }
  return longest;
}

function singleValue(db: StateDatabase, sql: string): SQLOutputValue {
  // Cached: every `sql` here is one of this module's fixed texts.
  const select = statement(db.connection, sql);
  select.setReadBigInts(true);
  return select.get()?.value ?? null;
}

/** Sums are exact in SQLite's 64 bits; past 2^53 − 1 the figure saturates rather than lies. */
function safeInteger(value: SQLOutputValue | undefined): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "bigint") {
    if (value <= 0n) return 0;
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    return Math.min(Math.max(0, Math.trunc(value)), Number.MAX_SAFE_INTEGER);
  }
  throw new ReadError("projection_corrupt", `Stored usage figure is not a number`);
}

function usageWindow(days: number | undefined): number | undefined {
  if (days === undefined) return undefined;
  if (!Number.isInteger(days) || days < 1 || days > USAGE_WINDOW_MAX_DAYS) {
    throw new ReadError(
      "invalid_params",
      `Parameter days must be an integer from 1 to ${USAGE_WINDOW_MAX_DAYS}`,
      "days",
    );
  }
  return days;
}

function parseDay(value: string, field: string): number {
  const day = dayNumber(value);
  if (day === undefined) {
    throw new ReadError("invalid_params", `Parameter ${field} must be a YYYY-MM-DD date`, field);
  }
  return day;
}

function storedDay(value: string): number {
  const day = dayNumber(value);
  if (day === undefined) {
    throw new ReadError(
      "projection_corrupt",
      "Stored usage activity_date is not a YYYY-MM-DD date",
    );
  }
  return day;
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`, treating the date as a plain calendar day. */
function dayNumber(value: unknown): number | undefined {
  if (typeof value !== "string" || !LocalDate.safeParse(value).success) return undefined;
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March; a round trip catches that.
  if (new Date(ms).toISOString().slice(0, 10) !== value) return undefined;
  return Math.round(ms / DAY_MS);
}
