/**
 * English strings of Settings → Profile (the usage chart and figures).
 *
 * @module
 */
export const profileEn = {
  "profile.title": "Usage",
  "profile.intro":
    "Your token usage, counted from what the model providers reported. Days are your local calendar days.",
  "profile.refresh": "Refresh",
  "profile.loading": "Loading usage…",
  "profile.figures": "Usage figures",
  "profile.lifetime": "Lifetime tokens",
  "profile.peak": "Peak day",
  "profile.longestRun": "Longest run",
  "profile.currentStreak": "Current streak",
  "profile.longestStreak": "Longest streak",
  "profile.tokens": "{tokens} tokens",
  "profile.none": "No usage yet",
  "profile.days.one": "{count} day",
  "profile.days.other": "{count} days",
  "profile.duration.hms": "{h} h {m} min {s} s",
  "profile.duration.ms": "{m} min {s} s",
  "profile.duration.s": "{s} s",
  "profile.range": "Chart range",
  "profile.rangeDays": "{days} days",
  "profile.chartTitle": "Tokens per day, last {days} days",
  "profile.chartDesc": "{total} tokens from {from} to {to}.",
  "profile.dayTitle": "{date}: {tokens} tokens",
  "profile.showTable": "Show as a table",
  "profile.date": "Date",
  "profile.dayTokens": "Tokens",
};
