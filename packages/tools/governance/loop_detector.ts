/**
 * Loop and duplicate detection (gate stage 4), one detector per Run.
 *
 * A call is its tool and its arguments in canonical JSON (key order does not matter); its
 * result is a hash of the content and `isError`. The detector counts, per call, the
 * attempts since its result last changed:
 *
 * - executed {@linkcode LOOP_REPEAT_LIMIT} times (default 3) with the same result, the next
 *   attempt is refused with `repeated_call` and a text telling the model what to do instead;
 * - the {@linkcode LOOP_PAUSE_LIMIT}-th attempt (default 5) gets `pause` with reason
 *   `loop_detected`: the Run waits for the user.
 * - A read-only call the caller knows has an unchanged target may get `reuse`: the earlier
 *   result, marked as reused, instead of running again. It counts as an attempt.
 *
 * Counts are per Run, not back to back, so `read a; edit b; read a; …` is seen too. A
 * successful mutating call resets the other calls' counts (and drops their kept results):
 * it may have changed what they see, and a refused call must get a chance to run again.
 * The mutating call's own count is kept — repeating the same change is no progress.
 *
 * **Ping-pong.** That reset lets two calls that undo each other (`edit a→b`, `edit b→a`)
 * escape the count, so the last executed calls are watched too: when they are two distinct
 * calls alternating with unchanged results for {@linkcode LOOP_PING_PONG_ROUNDS} rounds
 * (default 3: A B A B A B), the next call of either is refused with `repeated_call`; as
 * for one call, a call's attempt `pauseLimit − repeatLimit` past the threshold (its second,
 * by default) pauses the Run — per call, so a pair the model issues together in one step
 * gets one refusal each before the pause. Any other executed call breaks the pattern.
 *
 * Memory is bounded: at most {@linkcode LOOP_KEYS_MAX} calls (least recently seen
 * forgotten first), kept results of at most {@linkcode LOOP_REUSE_RESULT_MAX_CHARS} each
 * and {@linkcode LOOP_REUSE_TOTAL_MAX_CHARS} in all, and the last 2 × rounds signatures.
 *
 * How the gate uses it: after validation, rules and high-risk checks, `before(call)`;
 * `refuse` becomes the call's tool error (its `code` and `message`), `pause` puts the Run in
 * the waiting state with `loop_detected` (and `reset()` once the user lets it go on),
 * `reuse` returns `result` without running, and `run` goes on to budgets and breakers. After
 * an executed call, `after(call, result)`. Calls refused later (budgets, breakers) are not
 * reported: they did not run.
 *
 * @example
 * ```ts
 * const detector = createLoopDetector();
 * const call = { tool: "read", args: { path: "a.ts" }, readOnly: true };
 * const verdict = detector.before(call);
 * if (verdict.verdict === "run") {
 *   detector.after(call, await executeTool(readTool, call.args, context));
 * }
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import {
  LOOP_KEYS_MAX,
  LOOP_PAUSE_LIMIT,
  LOOP_PING_PONG_ROUNDS,
  LOOP_REPEAT_LIMIT,
  LOOP_REUSE_RESULT_MAX_CHARS,
  LOOP_REUSE_TOTAL_MAX_CHARS,
} from "../limits.ts";
import type { ToolResult } from "../tool.ts";
import { clockOption, describe, integerOption } from "./_options.ts";
import { canonicalJson } from "./canonical_json.ts";
import { GovernanceError } from "./governance_error.ts";

/** One tool call as the detector sees it. */
export interface LoopCall {
  /** The tool id. */
  readonly tool: string;
  /** The arguments (validated JSON). */
  readonly args: unknown;
  /** Whether the tool changes nothing (`!tool.mutating`). */
  readonly readOnly: boolean;
  /**
   * The caller's judgement that the call's target (a file, a listing) has not changed since
   * its last result; only then may a read-only call be answered with `reuse`.
   */
  readonly targetUnchanged?: boolean;
}

/** What the detector says about a call about to run. */
export type LoopVerdict =
  | { readonly verdict: "run" }
  | {
    readonly verdict: "reuse";
    /** The earlier result, with a note for the model that it was reused. */
    readonly result: ToolResult;
    /** When the earlier result was recorded (epoch ms). */
    readonly recordedAt: number;
  }
  | {
    readonly verdict: "refuse";
    /** The tool error code. */
    readonly code: "repeated_call";
    /** The tool error text: what was repeated and what to do instead. */
    readonly message: string;
    /** Which rule fired. */
    readonly pattern: LoopPattern;
  }
  | {
    readonly verdict: "pause";
    /** The Run's pause reason. */
    readonly reason: "loop_detected";
    /** What was repeated, for the user. */
    readonly message: string;
    /** Which rule fired. */
    readonly pattern: LoopPattern;
  };

/** The rule behind a refusal or pause: one call repeated, or two alternating. */
export type LoopPattern = "repeat" | "ping_pong";

/** Options of {@linkcode createLoopDetector}; each defaults to its limits.ts constant. */
export interface LoopDetectorOptions {
  /** The clock, epoch milliseconds (for `recordedAt`). */
  readonly now?: () => number;
  /** Identical executions before the next is refused, N (1–100). */
  readonly repeatLimit?: number;
  /** Identical attempts that pause the Run, M (repeatLimit + 1 – 1000). */
  readonly pauseLimit?: number;
  /** Alternating rounds before the next is refused (2–100). */
  readonly pingPongRounds?: number;
  /** Distinct calls remembered (1–100,000). */
  readonly maxKeys?: number;
  /** Largest result kept for reuse, characters (0–16 Mi; 0 turns reuse off). */
  readonly reuseResultMaxChars?: number;
  /** All kept results together, characters (0–256 Mi). */
  readonly reuseTotalMaxChars?: number;
}

/** The loop detector of one Run. */
export interface LoopDetector {
  /**
   * Judges a call about to run; a non-`run` verdict counts as an attempt.
   *
   * @param call the call
   * @returns the verdict
   * @throws {GovernanceError} `loop_call_invalid` for a malformed call, `arguments_not_json`
   *   for arguments JSON cannot carry
   */
  before(call: LoopCall): LoopVerdict;
  /**
   * Records the result of a call that ran.
   *
   * @param call the call, as given to {@linkcode LoopDetector.before}
   * @param result its result
   * @throws {GovernanceError} `loop_call_invalid`, `arguments_not_json` as `before`
   */
  after(call: LoopCall, result: ToolResult): void;
  /** Forgets every count and result: the user let a paused Run go on. */
  reset(): void;
}

interface Entry {
  readonly tool: string;
  resultHash: string;
  /** Attempts since the result last changed: executed, reused, refused. */
  attempts: number;
  kept: { result: ToolResult; recordedAt: number } | null;
}

interface Signature {
  readonly key: string;
  readonly tool: string;
  readonly resultHash: string;
}

type Settings = Required<LoopDetectorOptions>;

const OPTION_CODE = "loop_option_invalid";
const MI = 1024 * 1024;

/**
 * Makes the detector of one Run.
 *
 * @param options limits and the clock; defaults from limits.ts
 * @returns an empty detector
 * @throws {GovernanceError} `loop_option_invalid` naming a wrong option and its range
 * @example
 * ```ts
 * const detector = createLoopDetector({ repeatLimit: 2, pauseLimit: 4 });
 * ```
 */
export function createLoopDetector(options: LoopDetectorOptions = {}): LoopDetector {
  const settings = readOptions(options);
  const entries = new Map<string, Entry>();
  let keptChars = 0;
  let recent: Signature[] = [];
  // Attempts per call of the pair refused since the ping-pong pattern formed.
  const pingPongAttempts = new Map<string, number>();

  const touch = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };
  const keep = (entry: Entry, kept: Entry["kept"]): void => {
    keptChars += (kept?.result.content.length ?? 0) - (entry.kept?.result.content.length ?? 0);
    entry.kept = kept;
  };
  const trim = (): void => {
    for (const [key, entry] of entries) {
      if (entries.size <= settings.maxKeys) break;
      keep(entry, null);
      entries.delete(key);
    }
    for (const entry of entries.values()) {
      if (keptChars <= settings.reuseTotalMaxChars) break;
      keep(entry, null);
    }
  };

  return {
    before(call) {
      const key = callKey(call);
      const entry = touch(key);
      if (entry !== undefined && entry.attempts + 1 >= settings.pauseLimit) {
        entry.attempts++;
        return pause("repeat", `${entry.tool} was tried ${entry.attempts} times, same result`);
      }
      const pair = judgePingPong(key, recent, settings.pingPongRounds);
      if (pair !== null) {
        const attempts = (pingPongAttempts.get(key) ?? 0) + 1;
        pingPongAttempts.set(key, attempts);
        return attempts >= settings.pauseLimit - settings.repeatLimit
          ? pause("ping_pong", `${pair} alternated ${settings.pingPongRounds} times`)
          : refuse("ping_pong", pingPongText(pair, settings.pingPongRounds));
      }
      if (entry === undefined) return { verdict: "run" };
      if (entry.attempts >= settings.repeatLimit) {
        entry.attempts++;
        return refuse("repeat", repeatText(entry.tool, settings.repeatLimit));
      }
      if (call.readOnly && call.targetUnchanged === true && entry.kept !== null) {
        entry.attempts++;
        return { verdict: "reuse", ...reused(entry.kept) };
      }
      return { verdict: "run" };
    },

    after(call, result) {
      const key = callKey(call);
      checkResult(result);
      const resultHash = hashResult(result);
      const entry = touch(key) ?? { tool: call.tool, resultHash, attempts: 0, kept: null };
      entry.attempts = entry.resultHash === resultHash ? entry.attempts + 1 : 1;
      entry.resultHash = resultHash;
      entries.set(key, entry);
      const reusable = call.readOnly && result.isError !== true &&
        result.content.length <= settings.reuseResultMaxChars;
      // A copy: the caller's result object may change after it was handed over.
      keep(entry, reusable ? { result: { ...result }, recordedAt: settings.now() } : null);
      if (!call.readOnly && result.isError !== true) {
        for (const [other, otherEntry] of entries) {
          if (other === key) continue;
          otherEntry.attempts = 0;
          keep(otherEntry, null);
        }
      }
      recent = [...recent, { key, tool: call.tool, resultHash }].slice(
        -2 * settings.pingPongRounds,
      );
      pingPongAttempts.clear();
      trim();
    },

    reset() {
      entries.clear();
      keptChars = 0;
      recent = [];
      pingPongAttempts.clear();
    },
  };
}

/**
 * Whether `key` would continue two calls alternating over the whole of `recent`, with
 * unchanged results, for `rounds` rounds; then the pair's names, else null.
 */
function judgePingPong(key: string, recent: readonly Signature[], rounds: number): string | null {
  if (recent.length < 2 * rounds) return null;
  const [first, second] = recent;
  if (first === undefined || second === undefined || first.key === second.key) return null;
  const alternates = recent.every((signature, index) => {
    const expected = index % 2 === 0 ? first : second;
    return signature.key === expected.key && signature.resultHash === expected.resultHash;
  });
  if (!alternates || (key !== first.key && key !== second.key)) return null;
  return first.tool === second.tool
    ? `two ${first.tool} calls`
    : `${first.tool} and ${second.tool}`;
}

function repeatText(tool: string, times: number): string {
  return `repeated_call: ${tool} was already called ${times} times in this run with these ` +
    `arguments and returned the same result each time, so it was not run again. Use the ` +
    `result you have, change the arguments, or take a different approach`;
}

function pingPongText(pair: string, rounds: number): string {
  return `repeated_call: ${pair} have alternated ${rounds} times in this run with the same ` +
    `arguments and the same results, so neither was run again: they undo or repeat each ` +
    `other. Re-read the goal, then take a different approach or ask the user`;
}

function refuse(pattern: LoopPattern, message: string): LoopVerdict {
  return { verdict: "refuse", code: "repeated_call", message, pattern };
}

function pause(pattern: LoopPattern, what: string): LoopVerdict {
  return {
    verdict: "pause",
    reason: "loop_detected",
    message: `The run seems stuck in a loop: ${what}`,
    pattern,
  };
}

function reused(kept: NonNullable<Entry["kept"]>): { result: ToolResult; recordedAt: number } {
  const note = "(The same call earlier in this run returned this, and its target has not " +
    "changed since, so it was not run again.)";
  return {
    result: {
      ...kept.result,
      content: `${kept.result.content}\n\n${note}`,
      details: { ...kept.result.details, reused: true, reusedFromMs: kept.recordedAt },
    },
    recordedAt: kept.recordedAt,
  };
}

function callKey(call: LoopCall): string {
  if (typeof call !== "object" || call === null) invalid(`a call is an object`);
  const { tool, readOnly, targetUnchanged } = call;
  if (typeof tool !== "string" || tool.length === 0 || tool.length > 256) {
    invalid(`tool is a string of 1 to 256 characters, got ${describe(tool)}`);
  }
  if (typeof readOnly !== "boolean") invalid(`readOnly is a boolean, got ${describe(readOnly)}`);
  if (targetUnchanged !== undefined && typeof targetUnchanged !== "boolean") {
    invalid(`targetUnchanged is a boolean, got ${describe(targetUnchanged)}`);
  }
  // The tool id cannot contain NUL in practice, but the separator keeps the two apart anyway.
  return sha256(`${tool}\u0000${canonicalJson(call.args)}`);
}

function checkResult(result: ToolResult): void {
  if (typeof result !== "object" || result === null || typeof result.content !== "string") {
    invalid("a result has string content");
  }
  if (result.isError !== undefined && typeof result.isError !== "boolean") {
    invalid(`isError is a boolean, got ${describe(result.isError)}`);
  }
}

function hashResult(result: ToolResult): string {
  return sha256(`${result.isError === true ? "error" : "ok"}\u0000${result.content}`);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function invalid(why: string): never {
  throw new GovernanceError("loop_call_invalid", `Invalid loop detector input: ${why}`);
}

function readOptions(options: LoopDetectorOptions): Settings {
  if (typeof options !== "object" || options === null) {
    throw new GovernanceError(OPTION_CODE, "Loop detector options must be an object");
  }
  const option = (name: keyof Settings, fallback: number, min: number, max: number) =>
    integerOption(OPTION_CODE, name, options[name], fallback, min, max);
  const repeatLimit = option("repeatLimit", LOOP_REPEAT_LIMIT, 1, 100);
  return {
    now: clockOption(OPTION_CODE, options.now),
    repeatLimit,
    pauseLimit: option(
      "pauseLimit",
      Math.max(LOOP_PAUSE_LIMIT, repeatLimit + 1),
      repeatLimit + 1,
      1000,
    ),
    pingPongRounds: option("pingPongRounds", LOOP_PING_PONG_ROUNDS, 2, 100),
    maxKeys: option("maxKeys", LOOP_KEYS_MAX, 1, 100_000),
    reuseResultMaxChars: option("reuseResultMaxChars", LOOP_REUSE_RESULT_MAX_CHARS, 0, 16 * MI),
    reuseTotalMaxChars: option("reuseTotalMaxChars", LOOP_REUSE_TOTAL_MAX_CHARS, 0, 256 * MI),
  };
}
