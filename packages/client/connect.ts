/**
 * The WebSocket client: `initialize` first, typed calls, the journal's events exactly
 * once in seq order, and reconnect with replay when the socket drops.
 *
 * @module
 */
import {
  type EventEncoding,
  EventEnvelope,
  inflateEvent,
  type JournalEvent,
  type MethodName,
  parseResult,
  PROTOCOL_VERSION,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import { attemptDelays, type EndlessBackoff, endlessDelays, waitMs } from "./backoff.ts";
import type {
  ClientProblem,
  ConnectionState,
  ConnectOptions,
  DaedalusClient,
  ServerInfo,
} from "./daedalus_client.ts";
import { ClientError } from "./errors.ts";
import { EventHub } from "./event_hub.ts";
import { EventSequencer } from "./event_stream.ts";
import { type Handshake, planHandshake, type WebSocketConstructor } from "./handshake.ts";
import { type CallParams, checkParams } from "./json_rpc.ts";
import { RECONNECT_DELAYS_MS, RECONNECT_JITTER, RECONNECT_MAX_DELAY_MS } from "./limits.ts";
import { replayEvents } from "./replay.ts";
import { RpcSession } from "./rpc_session.ts";

/**
 * Makes a client and starts connecting in the background (state `starting`).
 *
 * @param options where and how to connect
 * @returns the client
 * @throws {TypeError} when the URL is not http(s)/ws(s) or no WebSocket is available
 * @throws {RangeError} when `lastSeq` is not an integer ≥ 0, a reconnect delay is negative
 *   or `keepReconnecting.maxDelayMs` is not a positive number
 */
export function createClient(options: ConnectOptions): DaedalusClient {
  return new WebSocketClient(options);
}

/**
 * Connects to a runtime and waits for `initialize` to succeed.
 *
 * @example
 * ```ts
 * import { connect } from "@daedalus/client";
 *
 * const client = await connect({ url: "http://127.0.0.1:7420", token: "…" });
 * const { threads } = await client.call("thread.list", { limit: 20 });
 * for await (const event of client.events) console.log(event.seq, event.type);
 * ```
 *
 * @param options where and how to connect
 * @returns the connected client
 * @throws {ClientError} `offline` when every attempt failed (cause: the last failure); with
 *   `keepReconnecting` it waits until connected, or until `signal` closes it (`closed`)
 */
export async function connect(options: ConnectOptions): Promise<DaedalusClient> {
  const client = createClient(options);
  try {
    await client.ready();
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

class WebSocketClient implements DaedalusClient {
  readonly events: AsyncIterable<JournalEvent>;
  readonly #WebSocket: WebSocketConstructor;
  readonly #handshake: Handshake;
  readonly #clientInfo?: { name: string; version: string };
  /** What `initialize` asks for; a runtime older than the option is asked again without it. */
  #eventEncoding: EventEncoding;
  readonly #ladder: readonly number[];
  readonly #sequencer: EventSequencer;
  readonly #hub: EventHub<JournalEvent>;
  readonly #stateListeners = new Set<(s: ConnectionState, p: ConnectionState) => void>();
  readonly #errorListeners = new Set<(error: ClientProblem) => void>();
  #waiters: Waiter[] = [];
  #state: ConnectionState = "starting";
  #session: RpcSession | null = null;
  #server: ServerInfo | null = null;
  #lastError: Error | null = null;
  #round: { abort: AbortController; done: Promise<void> } | null = null;
  readonly #endless: EndlessBackoff | null;
  /** Set by reconnect() while an attempt is in flight: no wait before the next one. */
  #retryAtOnce = false;
  /** Aborted to cut the round's current wait short (reconnect() while reconnecting). */
  #skipWait: AbortController | null = null;
  #replaying = false;
  #closed: Promise<void> | null = null;

  constructor(options: ConnectOptions) {
    const WebSocketClass = options.WebSocket ??
      (globalThis as { WebSocket?: unknown }).WebSocket as WebSocketConstructor | undefined;
    if (!WebSocketClass) throw new TypeError("No WebSocket constructor is available");
    this.#WebSocket = WebSocketClass;
    this.#handshake = planHandshake(options);
    this.#clientInfo = options.clientInfo;
    this.#eventEncoding = options.eventEncoding ?? "compact";
    this.#ladder = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
    this.#endless = endlessOptions(options.keepReconnecting);
    if (this.#endless) endlessDelays(this.#ladder, true, this.#endless); // validates now
    const lastSeq = options.lastSeq;
    if (lastSeq !== undefined && !(Number.isSafeInteger(lastSeq) && lastSeq >= 0)) {
      throw new RangeError(`lastSeq must be an integer ≥ 0, got ${lastSeq}`);
    }
    this.#sequencer = new EventSequencer(lastSeq ?? null);
    this.#hub = new EventHub({
      listenerFailed: (error) =>
        this.#report(
          new ClientError("listener_failed", "An event listener threw", { cause: error }),
        ),
      dropped: (count) =>
        this.#report(
          new ClientError("events_dropped", `${count} event(s) dropped: no consumer attached`),
        ),
    });
    const hub = this.#hub;
    this.events = { [Symbol.asyncIterator]: () => hub.subscribe() };
    const signal = options.signal;
    if (signal?.aborted) {
      this.#closed = this.#shutdown();
      return;
    }
    signal?.addEventListener("abort", () => void this.close(), { once: true });
    this.#startRound(this.#delays(true));
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get server(): ServerInfo | null {
    return this.#server;
  }

  get lastSeq(): number | null {
    return this.#sequencer.lastSeq;
  }

  get lastError(): Error | null {
    return this.#lastError;
  }

  async call<M extends MethodName>(method: M, ...params: CallParams<M>): Promise<ResultOf<M>> {
    const checked = checkParams(method, params[0]);
    const session = await this.#openSession();
    return parseResult(method, await session.request(method, checked));
  }

  onEvent(listener: (event: JournalEvent) => void): () => void {
    return this.#hub.listen(listener);
  }

  onStateChange(listener: (state: ConnectionState, previous: ConnectionState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  onError(listener: (error: ClientProblem) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#state === "connected") return Promise.resolve();
    if (this.#state === "offline") return Promise.reject(this.#offlineError());
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  reconnect(): void {
    if (this.#closed) return;
    if (this.#state === "reconnecting") {
      // Between waits an attempt is in flight: should it fail, the next one follows at once
      // (without this, a reconnect() during an attempt was lost to the long wait after it).
      if (this.#skipWait) this.#skipWait.abort();
      else this.#retryAtOnce = true;
      return;
    }
    if (this.#state !== "offline") return;
    this.#setState("reconnecting");
    this.#startRound(this.#delays(true));
  }

  /** The waits of a round: the ladder, or the endless curve with `keepReconnecting`. */
  #delays(immediateFirst: boolean): Iterable<number> {
    return this.#endless
      ? endlessDelays(this.#ladder, immediateFirst, this.#endless)
      : attemptDelays(this.#ladder, immediateFirst);
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #shutdown(): Promise<void> {
    const round = this.#round;
    round?.abort.abort();
    const session = this.#session;
    this.#session = null;
    this.#setState("offline");
    this.#settleWaiters(closedError());
    this.#hub.end();
    await Promise.all([round?.done, session?.close()]);
  }

  /** Waits for an initialized socket; a call that has not been sent yet may keep waiting. */
  async #openSession(): Promise<RpcSession> {
    for (;;) {
      await this.ready();
      const session = this.#session;
      if (session?.isOpen) return session;
      // The socket is closing but its close event has not run yet: wait for the state
      // to move on rather than spin on an already-resolved ready().
      await new Promise<void>((resolve) => {
        const stop = this.onStateChange(() => {
          stop();
          resolve();
        });
      });
    }
  }

  #startRound(delays: Iterable<number>): void {
    const abort = new AbortController();
    const round = { abort, done: Promise.resolve() };
    round.done = this.#runRound(delays, abort.signal).finally(() => {
      if (this.#round === round) this.#round = null;
    });
    this.#round = round;
  }

  async #runRound(delays: Iterable<number>, signal: AbortSignal): Promise<void> {
    for (const delay of delays) {
      const atOnce = this.#retryAtOnce;
      this.#retryAtOnce = false;
      if (delay > 0 && !atOnce) {
        const skip = new AbortController();
        this.#skipWait = skip;
        await waitMs(delay, AbortSignal.any([signal, skip.signal]));
        this.#skipWait = null;
      }
      if (signal.aborted) return;
      try {
        await this.#establish(signal);
        this.#retryAtOnce = false;
        return;
      } catch (error) {
        if (signal.aborted) return;
        this.#lastError = error instanceof Error ? error : new Error(String(error));
        if (isFatal(error)) break;
      }
    }
    this.#setState("offline");
    this.#settleWaiters(this.#offlineError());
  }

  async #establish(signal: AbortSignal): Promise<void> {
    let session: RpcSession | null = null;
    session = await RpcSession.open(this.#WebSocket, this.#handshake, {
      onEvent: (params) => this.#receiveEvent(params),
      onInvalid: (error) => this.#report(error),
      onClose: () => this.#sessionClosed(session),
    });
    const open = session;
    const closeOnAbort = () => void open.close();
    signal.addEventListener("abort", closeOnAbort, { once: true });
    try {
      if (signal.aborted) throw closedError();
      const server = parseResult("initialize", await this.#initialize(session));
      if (signal.aborted) throw closedError();
      this.#server = server;
      this.#session = session;
      this.#lastError = null;
      this.#deliver(this.#sequencer.start(server.latestSeq));
      this.#setState("connected");
      this.#settleWaiters(null);
      const lastSeq = this.#sequencer.lastSeq;
      if (lastSeq !== null && (lastSeq < server.latestSeq || this.#sequencer.hasGap)) {
        void this.#replay(session);
      }
    } catch (error) {
      await session.close();
      throw error;
    } finally {
      signal.removeEventListener("abort", closeOnAbort);
    }
  }

  async #initialize(session: RpcSession): Promise<unknown> {
    const params = {
      protocolVersion: PROTOCOL_VERSION,
      ...(this.#clientInfo ? { client: this.#clientInfo } : {}),
    };
    if (this.#eventEncoding === "full") return await session.request("initialize", params);
    try {
      return await session.request("initialize", { ...params, eventEncoding: "compact" });
    } catch (error) {
      // A runtime from before the option refuses the unknown field; it sends full events.
      const refused = error instanceof RpcError && error.data.reasonCode === "unknown_field" &&
        error.data.field === "eventEncoding";
      if (!refused) throw error;
      this.#eventEncoding = "full";
      return await session.request("initialize", params);
    }
  }

  #sessionClosed(session: RpcSession | null): void {
    if (this.#closed || session === null || session !== this.#session) return;
    this.#session = null;
    this.#setState("reconnecting");
    this.#startRound(this.#delays(false));
  }

  #receiveEvent(params: unknown): void {
    if (this.#closed) return;
    const seq = readSeq(params);
    const lastSeq = this.#sequencer.lastSeq;
    if (seq !== null && lastSeq !== null && seq <= lastSeq) return;
    // Inflating a full event changes nothing, so an event that arrives before the answer
    // to `initialize` is read the same either way.
    const full = this.#eventEncoding === "compact" ? inflateEvent(params) : params;
    const parsed = EventEnvelope.safeParse(full);
    if (parsed.success) this.#deliver(this.#sequencer.accept(parsed.data));
    else {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
      this.#report(
        new ClientError(
          "invalid_event",
          `Event${seq === null ? "" : ` ${seq}`} is invalid${where}: ${
            issue?.message ?? "invalid"
          }`,
          seq === null ? { cause: parsed.error } : { cause: parsed.error, seq },
        ),
      );
      if (seq !== null) this.#deliver(this.#sequencer.skip(seq));
    }
    if (this.#sequencer.hasGap && !this.#replaying && this.#session?.isOpen) {
      void this.#replay(this.#session);
    }
  }

  /** Replays until the held events follow on, or until a round makes no progress. */
  async #replay(session: RpcSession): Promise<void> {
    this.#replaying = true;
    try {
      for (;;) {
        const before = this.#sequencer.lastSeq;
        if (before === null || session !== this.#session) return;
        await replayEvents(
          session,
          before,
          (event) => this.#receiveEvent(event),
          undefined,
          // Erased rows of a deleted thread: seen, nothing to deliver.
          (seq) => this.#deliver(this.#sequencer.skip(seq)),
        );
        if (!this.#sequencer.hasGap) return;
        if (this.#sequencer.lastSeq === before) {
          this.#report(
            new ClientError(
              "event_gap",
              `event.replay did not return seq ${before + 1}; held events wait for it`,
              { seq: before + 1 },
            ),
          );
          return;
        }
      }
    } catch (error) {
      const lost = error instanceof ClientError && error.code === "connection_lost";
      if (!lost && session === this.#session) this.#report(asProblem(error));
    } finally {
      this.#replaying = false;
    }
  }

  #deliver(events: JournalEvent[]): void {
    for (const event of events) this.#hub.publish(event);
  }

  #setState(next: ConnectionState): void {
    const previous = this.#state;
    if (previous === next) return;
    this.#state = next;
    for (const listener of [...this.#stateListeners]) {
      try {
        listener(next, previous);
      } catch (error) {
        this.#report(
          new ClientError("listener_failed", "A state listener threw", { cause: error }),
        );
      }
    }
  }

  #settleWaiters(error: Error | null): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) error ? waiter.reject(error) : waiter.resolve();
  }

  #offlineError(): ClientError {
    const cause = this.#lastError;
    const why = cause ? `: ${cause.message}` : "";
    return new ClientError("offline", `Runtime is offline${why}`, cause ? { cause } : {});
  }

  #report(error: ClientProblem): void {
    for (const listener of [...this.#errorListeners]) {
      try {
        listener(error);
      } catch (failure) {
        // An error listener that throws has nowhere safer to report to: surface it globally.
        queueMicrotask(() => {
          throw failure;
        });
      }
    }
  }
}

function endlessOptions(option: ConnectOptions["keepReconnecting"]): EndlessBackoff | null {
  if (!option) return null;
  const maxDelayMs = (option === true ? undefined : option.maxDelayMs) ?? RECONNECT_MAX_DELAY_MS;
  return { maxDelayMs, jitter: RECONNECT_JITTER };
}

/** A refused protocol version will be refused again: retrying cannot help. */
function isFatal(error: unknown): boolean {
  return error instanceof RpcError && error.code === RPC_ERROR_CODES.unsupportedProtocolVersion;
}

function closedError(): ClientError {
  return new ClientError("closed", "Client is closed");
}

function asProblem(error: unknown): ClientProblem {
  if (error instanceof ClientError || error instanceof RpcError) return error;
  return new ClientError("invalid_message", "Replay failed", { cause: error });
}

function readSeq(value: unknown): number | null {
  if (typeof value !== "object" || value === null || !("seq" in value)) return null;
  const seq = value.seq;
  return typeof seq === "number" && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}
