/**
 * The WebSocket client's public contract: its options, its states and what it can do.
 * `connect.ts` implements it.
 *
 * @module
 */
import type {
  EventEncoding,
  JournalEvent,
  MethodName,
  ResultOf,
  RpcError,
} from "@daedalus/protocol";
import type { ClientError } from "./errors.ts";
import type { TokenTransport, WebSocketConstructor } from "./handshake.ts";
import type { CallParams } from "./json_rpc.ts";

/**
 * Where the connection stands: `starting` until the first `initialize` succeeds,
 * `connected` while a socket is initialized, `reconnecting` while climbing the backoff
 * ladder after a drop, `offline` when the ladder is spent (never with `keepReconnecting`)
 * or after `close()`.
 */
export type ConnectionState = "starting" | "connected" | "reconnecting" | "offline";

/** The server as `initialize` described it. */
export type ServerInfo = ResultOf<"initialize">;

/** Options of {@linkcode connect} and {@linkcode createClient}. */
export interface ConnectOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7420`; the `ws(s)://…/ws` URL is derived. */
  url: string | URL;
  /** The access token; leave it out in a browser that holds the session cookie. */
  token?: string;
  /** Subprotocols offered before the token's; defaults to `["daedalus.rpc.v1"]`. */
  protocols?: readonly string[];
  /** Where the token travels; defaults to a header under Deno and a subprotocol elsewhere. */
  tokenTransport?: TokenTransport;
  /** The WebSocket constructor; defaults to `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructor;
  /** Sent as `client` in `initialize`. */
  clientInfo?: { name: string; version: string };
  /**
   * How the runtime should encode `event` notifications; default `compact` (about a fifth
   * fewer bytes per tool turn). Events are delivered in full either way: the client
   * inflates and validates them. A runtime that does not know the option gets `full`.
   */
  eventEncoding?: EventEncoding;
  /** Waits before each reconnect attempt; offline after the last. Default 50/100/200/400/800 ms. */
  reconnectDelaysMs?: readonly number[];
  /**
   * Keep trying after the ladder instead of going offline (a page left open while the
   * runtime restarts): the waits go on doubling up to `maxDelayMs` (default 5 s), jittered,
   * and the state stays `reconnecting`; `offline` then only follows `close()` or a refusal
   * that retrying cannot change. `reconnect()` cuts the current wait short.
   */
  keepReconnecting?: boolean | { maxDelayMs?: number };
  /**
   * The last seq this consumer has already seen: events after it are replayed before live
   * ones. Without it, the stream starts at the server's `latestSeq` at the first connect.
   */
  lastSeq?: number;
  /** Closes the client when aborted. */
  signal?: AbortSignal;
}

/** Errors reported outside any call: bad messages, invalid events, gaps, failing listeners. */
export type ClientProblem = ClientError | RpcError;

/** A connected (or reconnecting) client of one runtime. */
export interface DaedalusClient {
  /** The connection state now. */
  readonly state: ConnectionState;
  /** What the last successful `initialize` returned, or null before the first. */
  readonly server: ServerInfo | null;
  /** The last seq delivered with no gap before it (persist it to resume with `lastSeq`). */
  readonly lastSeq: number | null;
  /** Why the last connection attempt failed, or null. */
  readonly lastError: Error | null;
  /**
   * The journal's events, validated, exactly once each, in seq order with no gaps. Each
   * `for await` is its own subscription, from the moment it starts; events delivered
   * before any consumer attached are held for the first one. Ends after `close()`.
   */
  readonly events: AsyncIterable<JournalEvent>;
  /**
   * Calls a method. Params are validated before sending; the result on receipt. A call
   * made while (re)connecting waits for the connection; a call in flight when the socket
   * dies is never retried.
   *
   * @param method the method
   * @param params its params (optional when every field is optional)
   * @returns the validated result
   * @throws {RpcError} the server's error (code, message, `data.reasonCode`), -32602 for
   *   params refused before sending, or -32603 for an invalid result
   * @throws {ClientError} `offline`, `closed` or `connection_lost`
   */
  call<M extends MethodName>(method: M, ...params: CallParams<M>): Promise<ResultOf<M>>;
  /**
   * Adds an event listener (the same stream as {@linkcode DaedalusClient.events}).
   *
   * @param listener called with each event
   * @returns a function that removes it
   */
  onEvent(listener: (event: JournalEvent) => void): () => void;
  /**
   * Adds a state listener.
   *
   * @param listener called with the new and the previous state
   * @returns a function that removes it
   */
  onStateChange(listener: (state: ConnectionState, previous: ConnectionState) => void): () => void;
  /**
   * Adds a listener for problems outside any call. With no listener they are dropped.
   *
   * @param listener called with each problem
   * @returns a function that removes it
   */
  onError(listener: (error: ClientProblem) => void): () => void;
  /**
   * Waits until the client is connected.
   *
   * @throws {ClientError} `offline` (cause: the last failure) or `closed`
   */
  ready(): Promise<void>;
  /**
   * Tries at once: starts a new round of attempts (one at once, then the ladder) when
   * offline, or cuts the current wait short while reconnecting (e.g. on the browser's
   * `online` or a tab becoming visible). Does nothing while connected or mid-attempt.
   */
  reconnect(): void;
  /** Closes the socket, stops reconnecting, rejects waiting calls and ends the iterators. */
  close(): Promise<void>;
}
