import assert from "node:assert/strict";
import { inLocale } from "../../_testing.ts";
import { formatDay, formatDays, formatDuration, formatTokens } from "./usage_format.ts";

Deno.test("usage format: durations drop leading zero units, in each locale", () => {
  inLocale("en", () => {
    assert.equal(formatDuration(3725), "1 h 2 min 5 s");
    assert.equal(formatDuration(125), "2 min 5 s");
    assert.equal(formatDuration(0), "0 s");
  });
  inLocale("zh-CN", () => assert.equal(formatDuration(3725), "1 小时 2 分 5 秒"));
});

Deno.test("usage format: days take the locale's plural", () => {
  inLocale("en", () => {
    assert.equal(formatDays(1), "1 day");
    assert.equal(formatDays(0), "0 days");
    assert.equal(formatDays(12), "12 days");
  });
  inLocale("zh-CN", () => assert.equal(formatDays(1), "1 天"));
});

Deno.test("usage format: a calendar date is the same day whatever the time zone", () => {
  inLocale("en", () => {
    assert.equal(formatDay("2026-03-01"), "Mar 1, 2026");
    assert.equal(formatDay("not a date"), "not a date");
    assert.equal(formatTokens(1234567), "1,234,567");
  });
});
