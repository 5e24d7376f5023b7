/**
 * How the Profile section writes token counts, calendar days and durations in the
 * current locale.
 *
 * @module
 */
import { durationParts } from "../../state/usage_stats.ts";
import { locale, t } from "../../i18n/i18n.ts";

/**
 * A calendar date as a local `Date` at noon, so formatting never shows the day before
 * or after whatever the time zone's offset.
 */
function noonOf(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
}

/**
 * Writes a calendar date in full.
 *
 * @param date `YYYY-MM-DD`
 * @returns e.g. "Mar 1, 2026" / "2026年3月1日"
 */
export function formatDay(date: string): string {
  const day = noonOf(date);
  return day ? new Intl.DateTimeFormat(locale.value, { dateStyle: "medium" }).format(day) : date;
}

/**
 * Writes a calendar date briefly.
 *
 * @param date `YYYY-MM-DD`
 * @returns e.g. "Mar 1" / "3月1日", for axis labels
 */
export function formatShortDay(date: string): string {
  const day = noonOf(date);
  if (!day) return date;
  return new Intl.DateTimeFormat(locale.value, { month: "short", day: "numeric" }).format(day);
}

/**
 * Writes an exact token count.
 *
 * @param tokens a count
 * @returns the exact count with grouping, e.g. "12,345"
 */
export function formatTokens(tokens: number): string {
  return new Intl.NumberFormat(locale.value).format(tokens);
}

/**
 * Writes a token count briefly.
 *
 * @param tokens a count
 * @returns a short form for the axis, e.g. "12K" / "1.2万"
 */
export function formatTokensCompact(tokens: number): string {
  return new Intl.NumberFormat(locale.value, { notation: "compact", maximumFractionDigits: 1 })
    .format(tokens);
}

/**
 * Writes a number of days with the plural the locale needs.
 *
 * @param days a number of days
 * @returns "1 day" / "5 days" / "5 天"
 */
export function formatDays(days: number): string {
  const plural = new Intl.PluralRules(locale.value).select(days);
  return t(plural === "one" ? "profile.days.one" : "profile.days.other", { count: days });
}

/**
 * Writes a duration in hours, minutes and seconds.
 *
 * @param seconds a duration
 * @returns "1 h 2 min 5 s", "2 min 5 s" or "5 s" (localized)
 */
export function formatDuration(seconds: number): string {
  const { h, m, s } = durationParts(seconds);
  if (h > 0) return t("profile.duration.hms", { h, m, s });
  if (m > 0) return t("profile.duration.ms", { m, s });
  return t("profile.duration.s", { s });
}
