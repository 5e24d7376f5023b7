/**
 * When a failed MCP server is started again: after a wait that doubles with each failure
 * in a row (from the minimum, capped at {@linkcode MCP_RESTART_BACKOFF_MAX_MS}), and at
 * most {@linkcode MCP_RESTARTS_PER_MINUTE_MAX} times in any minute; then not until someone
 * asks (`mcp.restart` resets it). A server that became ready starts its run of failures
 * afresh. Pure: the clock is passed in.
 *
 * @module
 */
import {
  MCP_RESTART_BACKOFF_MAX_MS,
  MCP_RESTART_BACKOFF_MIN_MS,
  MCP_RESTARTS_PER_MINUTE_MAX,
} from "../limits.ts";

const MINUTE_MS = 60_000;

/** One server's restart policy. */
export class RestartPolicy {
  readonly #minMs: number;
  readonly #now: () => number;
  #restartTimes: number[] = [];
  #failuresInARow = 0;

  /**
   * Makes the policy of one server.
   *
   * @param minMs the first wait (tests lower it)
   * @param now the clock
   */
  constructor(minMs: number = MCP_RESTART_BACKOFF_MIN_MS, now: () => number = Date.now) {
    this.#minMs = minMs;
    this.#now = now;
  }

  /**
   * The wait before the next restart after a failure, or null when the server has been
   * restarted {@linkcode MCP_RESTARTS_PER_MINUTE_MAX} times within the last minute.
   *
   * @returns milliseconds to wait, or null: do not restart
   */
  afterFailure(): number | null {
    const now = this.#now();
    this.#restartTimes = this.#restartTimes.filter((at) => now - at < MINUTE_MS);
    if (this.#restartTimes.length >= MCP_RESTARTS_PER_MINUTE_MAX) return null;
    const wait = Math.min(MCP_RESTART_BACKOFF_MAX_MS, this.#minMs * 2 ** this.#failuresInARow);
    this.#failuresInARow++;
    return wait;
  }

  /** Restarts within the last minute (what a refusal names). */
  get recentRestarts(): number {
    const now = this.#now();
    return this.#restartTimes.filter((at) => now - at < MINUTE_MS).length;
  }

  /** A restart happens now. */
  restarted(): void {
    this.#restartTimes.push(this.#now());
  }

  /** The server became ready: the next failure waits the minimum again. */
  ready(): void {
    this.#failuresInARow = 0;
  }

  /** Someone asked for a restart: earlier restarts and failures are forgotten. */
  reset(): void {
    this.#restartTimes = [];
    this.#failuresInARow = 0;
  }
}
