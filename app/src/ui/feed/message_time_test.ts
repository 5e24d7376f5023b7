import assert from "node:assert/strict";
import { exactTime, relativeTime } from "./message_time.ts";

const NOW = Date.parse("2026-12-02T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

Deno.test("a message's time reads relative for a week, then as a date", () => {
  const cases: [number, string][] = [
    [0, "now"],
    [59_000, "now"],
    [5 * 60_000, "5 minutes ago"],
    [60 * 60_000, "1 hour ago"],
    [23 * 3_600_000, "23 hours ago"],
    [24 * 3_600_000, "yesterday"],
    [3 * 86_400_000, "3 days ago"],
    [10 * 86_400_000, "Nov 22, 2026"],
  ];
  for (const [ms, expected] of cases) {
    assert.equal(relativeTime(ago(ms), NOW, "en"), expected, `${ms} ms`);
  }
  assert.equal(relativeTime(ago(-5_000), NOW, "en"), "now", "a clock a little ahead is now");
  assert.equal(relativeTime("not a time", NOW, "en"), "");
  assert.match(relativeTime(ago(5 * 60_000), NOW, "zh-CN"), /5\s*分钟前/);
});

Deno.test("the exact time has the date and the time", () => {
  assert.match(exactTime("2026-12-02T12:00:00.000Z", "en"), /2026/);
  assert.equal(exactTime("", "en"), "");
});
