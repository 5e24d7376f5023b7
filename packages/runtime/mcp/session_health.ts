/**
 * The health check of a ready Streamable HTTP session: an MCP `ping` request every
 * interval (the next one scheduled only after the last answered, so pings never pile up
 * on a slow server). A stdio server's end is seen at once (its process exits, its pipe
 * closes); an HTTP server that went away between calls, or forgot the session, is only
 * seen by asking. {@linkcode pingFailure} says what a failed ping means: a 404 is the
 * spec's "session expired" (start a new session), anything else a server that is gone.
 *
 * @module
 */
import { ErrorCode, McpError, StreamableHTTPError } from "./_sdk.ts";

/** The timers a pinger schedules with (injectable, so tests step time themselves). */
export interface PingTimers {
  /** Runs `fn` once after `ms`; returns a handle for {@linkcode PingTimers.clear}. */
  set(fn: () => void, ms: number): unknown;
  /** Cancels a timer {@linkcode PingTimers.set} returned. */
  clear(handle: unknown): void;
}

/** The platform's timers. */
export const SYSTEM_TIMERS: PingTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How a pinger pings and whom it tells. */
export interface SessionPingerOptions {
  /** Sends one `ping`, rejecting when it fails or takes longer than `timeoutMs`. */
  readonly ping: (timeoutMs: number) => Promise<unknown>;
  /** Told the first failure; the pinger has stopped by then. */
  readonly onFailure: (error: unknown) => void;
  /** Time between an answer and the next ping (ms). */
  readonly intervalMs: number;
  /** How long a ping may take (ms). */
  readonly timeoutMs: number;
  /** The timers (the platform's by default). */
  readonly timers?: PingTimers;
}

/** Pings one session until a ping fails or it is stopped. */
export class SessionPinger {
  readonly #options: SessionPingerOptions;
  readonly #timers: PingTimers;
  #timer: unknown = null;
  #running = false;

  /** @param options how to ping, whom to tell, how often */
  constructor(options: SessionPingerOptions) {
    this.#options = options;
    this.#timers = options.timers ?? SYSTEM_TIMERS;
  }

  /** Whether it is pinging (started, not stopped, no ping failed). */
  get running(): boolean {
    return this.#running;
  }

  /** Starts: the first ping goes one interval from now. Starting twice does nothing. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule();
  }

  /** Stops; a ping on its way is ignored when it answers. */
  stop(): void {
    this.#running = false;
    if (this.#timer !== null) this.#timers.clear(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    this.#timer = this.#timers.set(() => {
      this.#timer = null;
      void this.#pingOnce();
    }, this.#options.intervalMs);
  }

  async #pingOnce(): Promise<void> {
    if (!this.#running) return;
    try {
      await this.#options.ping(this.#options.timeoutMs);
    } catch (error) {
      if (!this.#running) return;
      this.stop();
      this.#options.onFailure(error);
      return;
    }
    if (this.#running) this.#schedule();
  }
}

/** What a failed ping means. */
export interface PingFailure {
  /** The server answered 404 for the session: it expired, a new one must be started. */
  readonly sessionExpired: boolean;
  /** Why, worded to follow "MCP server <name>: " in the status and log. */
  readonly message: string;
}

/**
 * Reads a failed ping: a 404 (the session expired or the server forgot it: start a new
 * session), a timeout, another HTTP status, or a server that cannot be reached.
 *
 * @param error what the ping rejected with
 * @param timeoutMs the ping's timeout, for the message
 * @returns what it means
 */
export function pingFailure(error: unknown, timeoutMs: number): PingFailure {
  if (error instanceof StreamableHTTPError && error.code === 404) {
    return {
      sessionExpired: true,
      message: "the session expired (the server answered 404 to ping); starting a new session",
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return { sessionExpired: false, message: `no answer to ping within ${timeoutMs} ms` };
  }
  if (error instanceof StreamableHTTPError && (error.code ?? 0) > 0) {
    return { sessionExpired: false, message: `ping refused with HTTP ${error.code}` };
  }
  const said = error instanceof Error ? error.message : String(error);
  return { sessionExpired: false, message: `the server did not answer ping: ${said}` };
}
