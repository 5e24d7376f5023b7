/**
 * When a message was written, as people read it beside a chat message: "now", "5 min.
 * ago", "yesterday", then the date; the exact time is the tooltip.
 *
 * @module
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Older than this, a message shows its date instead of "… days ago". */
const RELATIVE_MAX_DAYS = 7;

/**
 * The short, relative form of a time.
 *
 * @param thenIso the message's `createdAt`
 * @param nowMs the time now (epoch ms)
 * @param locale the app's locale
 * @returns e.g. "now", "3 minutes ago", "yesterday", or a date; "" for an unreadable time
 */
export function relativeTime(thenIso: string, nowMs: number, locale: string): string {
  const then = Date.parse(thenIso);
  if (!Number.isFinite(then)) return "";
  const ago = Math.max(0, nowMs - then);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "long" });
  if (ago < MINUTE_MS) return rtf.format(0, "second");
  if (ago < HOUR_MS) return rtf.format(-Math.floor(ago / MINUTE_MS), "minute");
  if (ago < DAY_MS) return rtf.format(-Math.floor(ago / HOUR_MS), "hour");
  if (ago < RELATIVE_MAX_DAYS * DAY_MS) return rtf.format(-Math.floor(ago / DAY_MS), "day");
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(then);
}

/**
 * The exact form of a time, for the tooltip.
 *
 * @param thenIso the message's `createdAt`
 * @param locale the app's locale
 * @returns the date and time, or "" for an unreadable time
 */
export function exactTime(thenIso: string, locale: string): string {
  const then = Date.parse(thenIso);
  if (!Number.isFinite(then)) return "";
  return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "medium" }).format(then);
}
