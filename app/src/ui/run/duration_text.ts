/**
 * A duration in words for a tool row or the usage line: tenths of a second below ten
 * seconds ("0.4 s", "2.3 s"), whole seconds below a minute, then minutes and seconds,
 * then hours and minutes. Pure (the locale's words through `t`).
 *
 * @module
 */
import { t } from "../../i18n/i18n.ts";

/** Below this a duration says nothing worth a glance (it would read "0.0 s"), in ms. */
export const DURATION_SHOWN_MIN_MS = 100;

/**
 * A duration worth showing, or null: unknown, or under {@linkcode DURATION_SHOWN_MIN_MS}.
 *
 * @param ms milliseconds, or null when unknown
 * @returns the text, or null
 */
export function shownDuration(ms: number | null): string | null {
  return ms === null || !(ms >= DURATION_SHOWN_MIN_MS) ? null : durationText(ms);
}

/**
 * Formats a duration.
 *
 * @param ms milliseconds (negative counts as 0)
 * @returns the text in the current locale
 */
export function durationText(ms: number): string {
  const safe = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (safe < 9_950) return t("duration.tenths", { seconds: (safe / 1000).toFixed(1) });
  const total = Math.round(safe / 1000);
  if (total < 60) return t("duration.seconds", { seconds: total });
  if (total < 3600) {
    return t("duration.minutes", { minutes: Math.floor(total / 60), seconds: total % 60 });
  }
  const minutes = Math.floor(total / 60);
  return t("duration.hours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
