import assert from "node:assert/strict";
import type { BreakerSnapshot, JournalEvent } from "@daedalus/client";
import {
  allHealthy,
  breakerName,
  breakerRow,
  breakerRows,
  breakerSubject,
  movesBreakers,
} from "./breaker_rows.ts";

const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

function breaker(key: string, over: Partial<BreakerSnapshot> = {}): BreakerSnapshot {
  return {
    key,
    kind: key.startsWith("provider:") ? "provider" : "tool",
    state: "closed",
    recentCalls: 3,
    recentFailures: 0,
    consecutiveFailures: 0,
    openedAt: null,
    retryAt: null,
    ...over,
  };
}

Deno.test("breaker rows: names drop the provider prefix, tool ids stay", () => {
  const cases: [Pick<BreakerSnapshot, "key" | "kind">, string][] = [
    [{ key: "provider:scripted", kind: "provider" }, "scripted"],
    [{ key: "read", kind: "tool" }, "read"],
    // A tool whose id happens to start like a provider key keeps its whole id.
    [{ key: "provider:odd", kind: "tool" }, "provider:odd"],
    [{ key: "custom-x", kind: "provider" }, "custom-x"],
  ];
  for (const [input, want] of cases) {
    assert.equal(breakerName(input), want, `name of ${input.kind} ${input.key}`);
  }
});

Deno.test("breaker rows: an MCP server's breaker is named by its server", () => {
  const cases: [Pick<BreakerSnapshot, "key" | "kind">, string, string][] = [
    [{ key: "mcp:github", kind: "tool" }, "mcpServer", "github"],
    [{ key: "mcp:every-thing_2", kind: "tool" }, "mcpServer", "every-thing_2"],
    [{ key: "mcp__github__create_issue", kind: "tool" }, "tool", "mcp__github__create_issue"],
    // Not a server key: a tool-level name, a bad server name, a provider.
    [{ key: "mcp:github/create_issue", kind: "tool" }, "tool", "mcp:github/create_issue"],
    [{ key: "mcp:GitHub", kind: "tool" }, "tool", "mcp:GitHub"],
    [{ key: "mcp:github", kind: "provider" }, "provider", "mcp:github"],
    [{ key: "read", kind: "tool" }, "tool", "read"],
    [{ key: "provider:scripted", kind: "provider" }, "provider", "scripted"],
  ];
  for (const [input, subject, name] of cases) {
    assert.equal(breakerSubject(input), subject, `subject of ${input.kind} ${input.key}`);
    assert.equal(breakerName(input), name, `name of ${input.kind} ${input.key}`);
  }
  const row = breakerRow(breaker("mcp:github"), NOW);
  assert.equal(row.subject, "mcpServer");
  assert.equal(row.name, "github");
  assert.equal(row.key, "mcp:github", "the key stays for data-breaker");
});

Deno.test("breaker rows: the phase and countdown a person sees at a moment", () => {
  const cases: {
    name: string;
    snapshot: BreakerSnapshot;
    phase: string;
    retryInSeconds: number | null;
  }[] = [
    { name: "closed", snapshot: breaker("read"), phase: "closed", retryInSeconds: null },
    {
      name: "open, 25 s to wait",
      snapshot: breaker("read", { state: "open", openedAt: at(-5000), retryAt: at(25_000) }),
      phase: "open",
      retryInSeconds: 25,
    },
    {
      name: "open, part of a second rounds up",
      snapshot: breaker("read", { state: "open", openedAt: at(-29_900), retryAt: at(100) }),
      phase: "open",
      retryInSeconds: 1,
    },
    {
      name: "open but its wait is over: the next call probes",
      snapshot: breaker("read", { state: "open", openedAt: at(-31_000), retryAt: at(-1000) }),
      phase: "half_open",
      retryInSeconds: null,
    },
    {
      name: "open exactly at its retry time",
      snapshot: breaker("read", { state: "open", openedAt: at(-30_000), retryAt: at(0) }),
      phase: "half_open",
      retryInSeconds: null,
    },
    {
      name: "half-open from the runtime",
      snapshot: breaker("provider:p", { state: "half_open", retryAt: at(-2000) }),
      phase: "half_open",
      retryInSeconds: null,
    },
    {
      name: "open without a retry time (never claims a countdown)",
      snapshot: breaker("read", { state: "open", openedAt: at(-1), retryAt: null }),
      phase: "half_open",
      retryInSeconds: null,
    },
  ];
  for (const c of cases) {
    const row = breakerRow(c.snapshot, NOW);
    assert.equal(row.phase, c.phase, `${c.name}: phase`);
    assert.equal(row.retryInSeconds, c.retryInSeconds, `${c.name}: countdown`);
  }
});

Deno.test("breaker rows: counts pass through unchanged", () => {
  const row = breakerRow(
    breaker("provider:scripted", { recentCalls: 7, recentFailures: 4, consecutiveFailures: 2 }),
    NOW,
  );
  assert.deepEqual(
    [row.kind, row.name, row.recentCalls, row.recentFailures, row.consecutiveFailures],
    ["provider", "scripted", 7, 4, 2],
  );
});

Deno.test("breaker rows: open first, then probing, then closed, each in the runtime's order", () => {
  const rows = breakerRows([
    breaker("echo"),
    breaker("read", { state: "open", retryAt: at(10_000) }),
    breaker("write", { state: "half_open" }),
    breaker("provider:a"),
    breaker("provider:b", { state: "open", retryAt: at(20_000) }),
  ], NOW);
  assert.deepEqual(rows.map((row) => row.key), [
    "read",
    "provider:b",
    "write",
    "echo",
    "provider:a",
  ]);
});

Deno.test("breaker rows: all healthy only when nothing is open or probing", () => {
  assert.equal(allHealthy([]), true, "no breaker yet is healthy");
  assert.equal(allHealthy(breakerRows([breaker("read"), breaker("provider:a")], NOW)), true);
  assert.equal(
    allHealthy(breakerRows([breaker("read"), breaker("edit", { state: "half_open" })], NOW)),
    false,
  );
  assert.equal(
    allHealthy(breakerRows([breaker("read", { state: "open", retryAt: at(5000) })], NOW)),
    false,
  );
});

Deno.test("breaker rows: only a settled Run makes the section read the breakers again", () => {
  const event = (type: string) => ({ type }) as JournalEvent;
  assert.equal(movesBreakers(event("run.settled")), true);
  for (const type of ["run.state_changed", "item.completed", "approval.requested"]) {
    assert.equal(movesBreakers(event(type)), false, `${type} must not re-read the breakers`);
  }
});
