/**
 * The circuit breakers of `breaker.list` as Settings › Health shows them: pure, so the
 * wording rules are tested without a server. A breaker whose wait is over but that the
 * runtime still listed as open is shown as "testing again" (the next call is its probe),
 * so the section never claims a retry time that already passed.
 *
 * @module
 */
import { type BreakerSnapshot, type JournalEvent, mcpRuleTarget } from "@daedalus/client";

/** What a breaker guards, for its label: a built-in tool, an MCP server or a provider. */
export type BreakerSubject = "tool" | "mcpServer" | "provider";

/** How a breaker stands, for a person. */
export type BreakerPhase = "closed" | "open" | "half_open";

/** One row of the section. */
export interface BreakerRow {
  key: string;
  kind: BreakerSnapshot["kind"];
  /** What it guards: MCP servers' breakers are tool breakers keyed `mcp:<server>`. */
  subject: BreakerSubject;
  /** The tool id, the MCP server's name, or the provider id without its prefix. */
  name: string;
  phase: BreakerPhase;
  recentCalls: number;
  recentFailures: number;
  consecutiveFailures: number;
  /** Whole seconds until an open breaker lets its probe through; null otherwise. */
  retryInSeconds: number | null;
}

/** Provider breakers are keyed `provider:<providerId>` (`breaker.list`). */
const PROVIDER_PREFIX = "provider:";

/** Unhealthy first: the breaker a user came to look at sits on top. */
const PHASE_ORDER: Readonly<Record<BreakerPhase, number>> = { open: 0, half_open: 1, closed: 2 };

/**
 * The MCP server a tool breaker guards (one breaker per server, keyed `mcp:<server>`), or
 * null for any other breaker.
 *
 * @param breaker the snapshot
 * @returns the server's name, or null
 */
export function breakerMcpServer(breaker: Pick<BreakerSnapshot, "key" | "kind">): string | null {
  if (breaker.kind !== "tool") return null;
  const target = mcpRuleTarget(breaker.key);
  return target !== null && target.tool === null ? target.server : null;
}

/**
 * What a breaker guards.
 *
 * @param breaker the snapshot
 * @returns tool, MCP server or provider
 */
export function breakerSubject(breaker: Pick<BreakerSnapshot, "key" | "kind">): BreakerSubject {
  if (breaker.kind === "provider") return "provider";
  return breakerMcpServer(breaker) === null ? "tool" : "mcpServer";
}

/**
 * The name a breaker is shown under.
 *
 * @param breaker the snapshot
 * @returns the tool id, the MCP server's name, or the provider id
 */
export function breakerName(breaker: Pick<BreakerSnapshot, "key" | "kind">): string {
  const server = breakerMcpServer(breaker);
  if (server !== null) return server;
  return breaker.kind === "provider" && breaker.key.startsWith(PROVIDER_PREFIX)
    ? breaker.key.slice(PROVIDER_PREFIX.length)
    : breaker.key;
}

/**
 * One breaker as a row, at a moment.
 *
 * @param breaker the snapshot
 * @param nowMs the current time, epoch milliseconds
 * @returns the row
 */
export function breakerRow(breaker: BreakerSnapshot, nowMs: number): BreakerRow {
  const retryAtMs = breaker.retryAt === null ? Number.NaN : Date.parse(breaker.retryAt);
  const waiting = breaker.state === "open" && Number.isFinite(retryAtMs) && retryAtMs > nowMs;
  const phase: BreakerPhase = breaker.state === "open" && !waiting ? "half_open" : breaker.state;
  return {
    key: breaker.key,
    kind: breaker.kind,
    subject: breakerSubject(breaker),
    name: breakerName(breaker),
    phase,
    recentCalls: breaker.recentCalls,
    recentFailures: breaker.recentFailures,
    consecutiveFailures: breaker.consecutiveFailures,
    retryInSeconds: waiting ? Math.ceil((retryAtMs - nowMs) / 1000) : null,
  };
}

/**
 * The rows of a `breaker.list` answer: open ones first, then half-open, then closed;
 * within each, the runtime's order (tools first, each sorted by key).
 *
 * @param breakers the answer's breakers
 * @param nowMs the current time, epoch milliseconds
 * @returns the rows in display order
 */
export function breakerRows(breakers: readonly BreakerSnapshot[], nowMs: number): BreakerRow[] {
  return breakers
    .map((breaker, index) => ({ row: breakerRow(breaker, nowMs), index }))
    .sort((a, b) => PHASE_ORDER[a.row.phase] - PHASE_ORDER[b.row.phase] || a.index - b.index)
    .map(({ row }) => row);
}

/**
 * Whether every tool and provider is healthy: no breaker open or probing.
 *
 * @param rows the rows
 * @returns true when the section shows its "all healthy" line
 */
export function allHealthy(rows: readonly BreakerRow[]): boolean {
  return rows.every((row) => row.phase === "closed");
}

/**
 * Whether an event may have moved a breaker, so an open Health section lists them
 * again: a settled Run. Its calls are what the breakers count, and a Run that settled
 * `provider_circuit_open` (or met a tool's `circuit_open`) is the moment a user looks.
 *
 * @param event a live journal event
 * @returns true for `run.settled`
 */
export function movesBreakers(event: JournalEvent): boolean {
  return event.type === "run.settled";
}
