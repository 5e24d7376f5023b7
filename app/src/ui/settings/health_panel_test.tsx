import assert from "node:assert/strict";
import type { BreakerSnapshot } from "@daedalus/client";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { emptyBreakerHealth } from "../../state/breaker_health.ts";
import { HealthPanel } from "./HealthPanel.tsx";

const NOW = Date.parse("2026-12-01T12:00:00.000Z");

const OPEN: BreakerSnapshot = {
  key: "provider:scripted",
  kind: "provider",
  state: "open",
  recentCalls: 4,
  recentFailures: 4,
  consecutiveFailures: 4,
  openedAt: new Date(NOW - 5000).toISOString(),
  retryAt: new Date(NOW + 25_000).toISOString(),
};
const ECHO: BreakerSnapshot = {
  ...OPEN,
  key: "echo",
  kind: "tool",
  state: "closed",
  recentCalls: 3,
  recentFailures: 0,
  consecutiveFailures: 0,
  openedAt: null,
  retryAt: null,
};

const ready = (breakers: BreakerSnapshot[]) => ({
  ...emptyBreakerHealth(),
  status: "ready" as const,
  breakers,
});

Deno.test("health panel: no breaker yet reads healthy and says nothing was called", () => {
  inEnglish(() => {
    const shown = text(HealthPanel({ view: ready([]), nowMs: NOW }));
    assert.match(shown, /All tools and providers are healthy\./);
    assert.match(shown, /No tool or provider has been called/);
  });
});

Deno.test("health panel: an open provider breaker is worded with failures and its countdown", () => {
  inEnglish(() => {
    const shown = text(HealthPanel({ view: ready([ECHO, OPEN]), nowMs: NOW }));
    assert.match(shown, /switched off after repeated failures/);
    assert.match(
      shown,
      /Provider scriptedSwitched off4 of the last 4 calls failed · 4 in a rowTries again in 0:25/,
      "the open provider comes first, worded for a person",
    );
    assert.match(shown, /Tool echoWorkingNo failures—/);
    const once = text(HealthPanel({
      view: ready([{ ...ECHO, recentCalls: 1, recentFailures: 1, consecutiveFailures: 1 }]),
      nowMs: NOW,
    }));
    assert.match(once, /Tool echoWorkingThe last call failed—/, "one call is not 'calls'");
    const later = text(HealthPanel({ view: ready([OPEN]), nowMs: NOW + 26_000 }));
    assert.match(
      later,
      /Testing again4 of the last 4 calls failed · 4 in a rowThe next call tests whether it works again/,
    );
  });
  inLocale("zh-CN", () => {
    const zh = text(HealthPanel({ view: ready([OPEN]), nowMs: NOW }));
    assert.match(zh, /服务商 scripted已关闭最近 4 次调用中有 4 次失败/);
  });
});

Deno.test("health panel: loading, and a failed read shows its reason", () => {
  inEnglish(() => {
    assert.match(
      text(HealthPanel({ view: { ...emptyBreakerHealth(), status: "loading" }, nowMs: NOW })),
      /Reading the breakers…/,
    );
    const failed = text(HealthPanel({
      view: {
        status: "failed",
        breakers: null,
        error: { code: "internal_error", message: "boom" },
      },
      nowMs: NOW,
    }));
    assert.match(failed, /boom/);
    assert.doesNotMatch(failed, /Reading the breakers/);
    assert.doesNotMatch(failed, /healthy/, "a failed read claims no health");
  });
});

Deno.test("health panel: an MCP server's breaker is shown as the server, not its key", () => {
  const github: BreakerSnapshot = { ...OPEN, key: "mcp:github", kind: "tool" };
  inEnglish(() => {
    const shown = text(HealthPanel({ view: ready([github]), nowMs: NOW }));
    assert.match(shown, /MCP server githubSwitched off/);
    assert.doesNotMatch(shown, /mcp:github/, "the raw key is not shown");
  });
  inLocale("zh-CN", () => {
    const zh = text(HealthPanel({ view: ready([github]), nowMs: NOW }));
    assert.match(zh, /MCP 服务器 github已关闭/);
  });
});
