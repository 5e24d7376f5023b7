/**
 * Circuit breakers (gate stage 6): one per key — a tool id, a provider id, later an MCP
 * server — so that a broken tool or provider fails fast instead of being called again and
 * again while it is down.
 *
 * - **closed**: calls pass; the last {@linkcode BREAKER_WINDOW_CALLS} outcomes are kept. It
 *   opens when at least {@linkcode BREAKER_MIN_CALLS} of them are there and ≥
 *   {@linkcode BREAKER_FAILURE_RATE_PERCENT} % failed, or after
 *   {@linkcode BREAKER_CONSECUTIVE_FAILURES} failures in a row.
 * - **open**: every call is refused with `circuit_open` and how long to wait, for
 *   {@linkcode BREAKER_OPEN_MS}.
 * - **half_open**: exactly one call, the probe, passes; callers arriving while it runs are
 *   refused. Its success closes the breaker with a fresh window; its failure re-opens it and
 *   restarts the wait. A probe whose outcome says nothing about health (`ignored`), or that
 *   never reports within {@linkcode BREAKER_PROBE_LEASE_MS}, frees the slot for the next.
 *
 * What counts as a failure is the caller's: {@linkcode breakerOutcome} maps a tool result
 * (the model's own mistakes such as `invalid_arguments` are `ignored`). Outcomes are
 * matched to their admission, so a call admitted before the breaker opened cannot close it
 * by finishing late. State is in memory only and resets with the runtime (issue 14).
 *
 * How the gate uses it: after validation, rules, high-risk, loop and budget checks, it
 * calls `admit(tool.id)`; a refusal becomes the tool's `circuit_open` error for the model
 * (its `message` names the tool and the wait). An admitted call runs, then
 * `record(admission, breakerOutcome(result))`; a returned transition becomes an event.
 * Provider calls do the same with the provider id; `snapshot()` serves the RPC and the PWA.
 *
 * @example
 * ```ts
 * const breakers = createCircuitBreakers();
 * const admission = breakers.admit("grep");
 * if (!admission.admitted) return refuse(admission.reasonCode, admission.message);
 * const result = await executeTool(grepTool, args, context);
 * breakers.record(admission, breakerOutcome(result));
 * ```
 *
 * @module
 */
import {
  BREAKER_CONSECUTIVE_FAILURES,
  BREAKER_FAILURE_RATE_PERCENT,
  BREAKER_KEY_MAX_CHARS,
  BREAKER_KEYS_MAX,
  BREAKER_MIN_CALLS,
  BREAKER_OPEN_MS,
  BREAKER_PROBE_LEASE_MS,
  BREAKER_WINDOW_CALLS,
} from "../limits.ts";
import { clockOption, describe, integerOption } from "./_options.ts";
import type { BreakerOutcome } from "./failure_codes.ts";
import { GovernanceError } from "./governance_error.ts";

/** A breaker's state. */
export type BreakerState = "closed" | "open" | "half_open";

/** A call let through; hand it back to {@linkcode CircuitBreakers.record} with its outcome. */
export interface BreakerAdmitted {
  /** Let through. */
  readonly admitted: true;
  /** The breaker's key. */
  readonly key: string;
  /** Whether this call is the half-open breaker's one probe: its outcome decides. */
  readonly probe: boolean;
  /** Which admission this is: outcomes of superseded admissions are not counted. */
  readonly ticket: number;
}

/** A call refused because its breaker is open (or half-open with its probe running). */
export interface BreakerRefused {
  /** Refused. */
  readonly admitted: false;
  /** The breaker's key. */
  readonly key: string;
  /** The stable reason code. */
  readonly reasonCode: "circuit_open";
  /** Milliseconds until a call may pass again (a probe), at least 1. */
  readonly retryAfterMs: number;
  /** Text for the model: which tool is unavailable and for how long. */
  readonly message: string;
}

/** The answer of {@linkcode CircuitBreakers.admit}. */
export type BreakerAdmission = BreakerAdmitted | BreakerRefused;

/** A state change caused by a recorded outcome, for the gate's event. */
export interface BreakerTransition {
  /** The breaker's key. */
  readonly key: string;
  /** The state before. */
  readonly from: BreakerState;
  /** The state after. */
  readonly to: BreakerState;
}

/** One breaker as an RPC or the PWA shows it. */
export interface BreakerSnapshot {
  /** The breaker's key. */
  readonly key: string;
  /** Its state now (an open breaker whose wait is over shows `half_open`). */
  readonly state: BreakerState;
  /** Outcomes in the window (at most the window size). */
  readonly callsInWindow: number;
  /** Failures among them. */
  readonly failuresInWindow: number;
  /** Failures in a row up to now. */
  readonly consecutiveFailures: number;
  /** When it last opened (epoch ms), or null while closed. */
  readonly openedAt: number | null;
  /** When the next probe may pass (epoch ms; past when it may now), or null while closed. */
  readonly nextProbeAt: number | null;
  /** Whether a probe is running now. */
  readonly probeInFlight: boolean;
}

/** Options of {@linkcode createCircuitBreakers}; each defaults to its limits.ts constant. */
export interface CircuitBreakersOptions {
  /** The clock, epoch milliseconds (tests pass a fake). */
  readonly now?: () => number;
  /** Outcomes the failure-rate window holds (1–1000). */
  readonly windowCalls?: number;
  /** Fewest outcomes before the rate may open a breaker (1–windowCalls). */
  readonly minCalls?: number;
  /** Failure share that opens a breaker, percent (1–100). */
  readonly failureRatePercent?: number;
  /** Failures in a row that open a breaker (1–1000). */
  readonly consecutiveFailures?: number;
  /** How long an open breaker waits before a probe, ms (1 ms – 1 day). */
  readonly openMs?: number;
  /** How long a probe may go unreported before another may pass, ms (1 ms – 1 day). */
  readonly probeLeaseMs?: number;
  /** Most breakers kept (1–1,000,000). */
  readonly maxKeys?: number;
}

/** The breakers of one runtime. */
export interface CircuitBreakers {
  /**
   * Asks whether a call may pass.
   *
   * @param key the tool, provider or server id
   * @returns an admission to record the outcome with, or a `circuit_open` refusal
   * @throws {GovernanceError} `breaker_key_invalid` for an empty, too long or non-string key
   */
  admit(key: string): BreakerAdmission;
  /**
   * Records how an admitted call ended. Outcomes of admissions the breaker has moved past
   * (admitted before it opened, a probe whose lease ran out) change nothing.
   *
   * @param admission what {@linkcode CircuitBreakers.admit} returned for the call
   * @param outcome `success`, `failure` or `ignored` (see {@linkcode breakerOutcome})
   * @returns the state change it caused, or null
   * @throws {GovernanceError} `breaker_outcome_invalid` for another outcome value,
   *   `breaker_admission_invalid` for a refusal or anything else not from `admit`
   */
  record(admission: BreakerAdmitted, outcome: BreakerOutcome): BreakerTransition | null;
  /**
   * Every breaker's state now, sorted by key.
   *
   * @returns the snapshots
   */
  snapshot(): BreakerSnapshot[];
}

interface Breaker {
  state: BreakerState;
  /** The last ticket issued before the current state began: older admissions are stale. */
  since: number;
  /** Recent outcomes, oldest first: true is a failure. */
  window: boolean[];
  consecutive: number;
  openedAt: number | null;
  probe: { ticket: number; leaseEndsAt: number } | null;
}

const OPTION_CODE = "breaker_option_invalid";
const DAY_MS = 86_400_000;
const OUTCOMES: ReadonlySet<unknown> = new Set(["success", "failure", "ignored"]);

/**
 * Makes an empty set of breakers.
 *
 * @param options thresholds and the clock; defaults from limits.ts
 * @returns the breakers
 * @throws {GovernanceError} `breaker_option_invalid` naming a wrong option and its range
 * @example
 * ```ts
 * let now = 0;
 * const breakers = createCircuitBreakers({ now: () => now });
 * ```
 */
export function createCircuitBreakers(options: CircuitBreakersOptions = {}): CircuitBreakers {
  const settings = readOptions(options);
  const breakers = new Map<string, Breaker>();
  let tickets = 0;

  const breakerOf = (key: string): Breaker => {
    const found = breakers.get(key);
    if (found !== undefined) {
      // Re-inserting keeps the map in least-recently-used order for eviction.
      breakers.delete(key);
      breakers.set(key, found);
      return found;
    }
    const created: Breaker = {
      state: "closed",
      since: tickets,
      window: [],
      consecutive: 0,
      openedAt: null,
      probe: null,
    };
    breakers.set(key, created);
    evictBeyond(breakers, settings.maxKeys);
    return created;
  };

  const open = (breaker: Breaker, now: number): void => {
    breaker.state = "open";
    breaker.since = tickets;
    breaker.openedAt = now;
    breaker.probe = null;
  };

  return {
    admit(key) {
      checkKey(key);
      const breaker = breakerOf(key);
      const now = settings.now();
      if (waitIsOver(breaker, now, settings.openMs)) {
        breaker.state = "half_open";
        breaker.since = tickets;
        breaker.probe = null;
      }
      if (breaker.state === "closed") {
        return { admitted: true, key, probe: false, ticket: ++tickets };
      }
      if (breaker.state === "half_open") {
        if (breaker.probe === null || now >= breaker.probe.leaseEndsAt) {
          const ticket = ++tickets;
          breaker.probe = { ticket, leaseEndsAt: now + settings.probeLeaseMs };
          return { admitted: true, key, probe: true, ticket };
        }
        return refusal(key, Math.min(settings.openMs, breaker.probe.leaseEndsAt - now));
      }
      return refusal(key, (breaker.openedAt ?? now) + settings.openMs - now);
    },

    record(admission, outcome) {
      if (!OUTCOMES.has(outcome)) {
        throw new GovernanceError(
          "breaker_outcome_invalid",
          `A breaker outcome is success, failure or ignored, got ${describe(outcome)}`,
        );
      }
      if (!isAdmitted(admission)) {
        throw new GovernanceError(
          "breaker_admission_invalid",
          "Only an admission that admit() let through can be recorded",
        );
      }
      const breaker = breakers.get(admission.key);
      if (breaker === undefined) return null;
      const from = breaker.state;
      if (breaker.state === "closed" && !admission.probe) {
        if (admission.ticket <= breaker.since || outcome === "ignored") return null;
        remember(breaker, outcome === "failure", settings.windowCalls);
        if (trips(breaker, settings)) open(breaker, settings.now());
      } else if (breaker.state === "half_open" && breaker.probe?.ticket === admission.ticket) {
        if (outcome === "ignored") {
          breaker.probe = null;
          return null;
        }
        if (outcome === "failure") {
          remember(breaker, true, settings.windowCalls);
          open(breaker, settings.now());
        } else {
          close(breaker, tickets);
        }
      }
      return breaker.state === from ? null : { key: admission.key, from, to: breaker.state };
    },

    snapshot() {
      const now = settings.now();
      return [...breakers.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, breaker]) => describeBreaker(key, breaker, now, settings.openMs));
    },
  };
}

type Settings = Required<CircuitBreakersOptions>;

function readOptions(options: CircuitBreakersOptions): Settings {
  if (typeof options !== "object" || options === null) {
    throw new GovernanceError(OPTION_CODE, "Breaker options must be an object");
  }
  const option = (name: keyof Settings, fallback: number, min: number, max: number) =>
    integerOption(OPTION_CODE, name, options[name], fallback, min, max);
  const windowCalls = option("windowCalls", BREAKER_WINDOW_CALLS, 1, 1000);
  return {
    now: clockOption(OPTION_CODE, options.now),
    windowCalls,
    minCalls: option("minCalls", Math.min(BREAKER_MIN_CALLS, windowCalls), 1, windowCalls),
    failureRatePercent: option("failureRatePercent", BREAKER_FAILURE_RATE_PERCENT, 1, 100),
    consecutiveFailures: option("consecutiveFailures", BREAKER_CONSECUTIVE_FAILURES, 1, 1000),
    openMs: option("openMs", BREAKER_OPEN_MS, 1, DAY_MS),
    probeLeaseMs: option("probeLeaseMs", BREAKER_PROBE_LEASE_MS, 1, DAY_MS),
    maxKeys: option("maxKeys", BREAKER_KEYS_MAX, 1, 1_000_000),
  };
}

function isAdmitted(admission: unknown): admission is BreakerAdmitted {
  if (typeof admission !== "object" || admission === null) return false;
  const { admitted, key, ticket, probe } = admission as Record<string, unknown>;
  return admitted === true && typeof key === "string" && typeof ticket === "number" &&
    typeof probe === "boolean";
}

function checkKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || key.length === 0 || key.length > BREAKER_KEY_MAX_CHARS) {
    throw new GovernanceError(
      "breaker_key_invalid",
      `A breaker key is a string of 1 to ${BREAKER_KEY_MAX_CHARS} characters, got ${describe(key)}`,
    );
  }
}

/** An open breaker whose wait is over is half-open; the change happens when it is next asked. */
function waitIsOver(breaker: Breaker, now: number, openMs: number): boolean {
  return breaker.state === "open" && breaker.openedAt !== null &&
    now >= breaker.openedAt + openMs;
}

function remember(breaker: Breaker, failed: boolean, windowCalls: number): void {
  breaker.window.push(failed);
  if (breaker.window.length > windowCalls) breaker.window.shift();
  breaker.consecutive = failed ? breaker.consecutive + 1 : 0;
}

function trips(breaker: Breaker, settings: Settings): boolean {
  if (breaker.consecutive >= settings.consecutiveFailures) return true;
  const calls = breaker.window.length;
  if (calls < settings.minCalls) return false;
  const failures = breaker.window.filter(Boolean).length;
  return failures * 100 >= settings.failureRatePercent * calls;
}

function close(breaker: Breaker, since: number): void {
  breaker.state = "closed";
  breaker.since = since;
  breaker.window = [];
  breaker.consecutive = 0;
  breaker.openedAt = null;
  breaker.probe = null;
}

function refusal(key: string, waitMs: number): BreakerRefused {
  const retryAfterMs = Math.max(1, Math.ceil(waitMs));
  const seconds = Math.ceil(retryAfterMs / 1000);
  return {
    admitted: false,
    key,
    reasonCode: "circuit_open",
    retryAfterMs,
    message: `circuit_open: ${key} failed too often and is paused by its circuit breaker; ` +
      `try again in about ${seconds} s, or carry on without it`,
  };
}

function describeBreaker(
  key: string,
  breaker: Breaker,
  now: number,
  openMs: number,
): BreakerSnapshot {
  const state = waitIsOver(breaker, now, openMs) ? "half_open" : breaker.state;
  const nextProbeAt = breaker.state === "closed" || breaker.openedAt === null
    ? null
    : breaker.probe !== null
    ? breaker.probe.leaseEndsAt
    : breaker.openedAt + openMs;
  return {
    key,
    state,
    callsInWindow: breaker.window.length,
    failuresInWindow: breaker.window.filter(Boolean).length,
    consecutiveFailures: breaker.consecutive,
    openedAt: breaker.openedAt,
    nextProbeAt,
    probeInFlight: breaker.probe !== null,
  };
}

/**
 * Drops the least recently used closed breaker beyond the cap. Open and half-open ones are
 * never forgotten (that would switch their protection off), so when all others are, the
 * new one goes and its key passes unguarded until one closes.
 */
function evictBeyond(breakers: Map<string, Breaker>, maxKeys: number): void {
  if (breakers.size <= maxKeys) return;
  for (const [key, breaker] of breakers) {
    if (breaker.state === "closed") {
      breakers.delete(key);
      return;
    }
  }
}
