/**
 * `GET /ws`: JSON-RPC 2.0 over WebSocket. Per connection: `initialize` first (which
 * subscribes to the event source at the moment it reads `latestSeq`), then requests,
 * and every committed event pushed as an `event` notification. A response always
 * leaves before the events its call committed.
 *
 * Requests run in two lanes. Commands (and anything not known to be a read) run one at
 * a time in arrival order, so `turn.start` then `run.cancel` act in that order. Reads
 * (see {@linkcode isConcurrentRead}) wait only for the commands sent before them — a
 * read sees what the client already asked for — and then run beside everything else,
 * so a slow read holds nobody. Responses may therefore leave out of arrival order;
 * JSON-RPC matches them by id.
 *
 * @module
 */
import type { Handler } from "hono";
import {
  type EventEncoding,
  type JournalEvent,
  type JsonRpcNotification,
  type JsonRpcRequest,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import type { Dispatcher, EventSource, RpcSession } from "./dispatcher.ts";
import { type AuthState, type ServerEnv, splitOfferedProtocols } from "./auth.ts";
import type { SessionStore } from "./session_store.ts";
import type { TokenStore } from "./auth_token.ts";
import { transportError } from "./_http.ts";
import {
  answerDecoded,
  type CallAnswer,
  type DecodedMessage,
  decodeMessage,
  initializeResult,
  type MessageAnswer,
  runAfterResponse,
  type ServerErrorReporter,
} from "./_rpc_call.ts";
import { isConcurrentRead } from "./concurrent_reads.ts";
import { OutboundQueue, type StallReason, utf8ByteLength } from "./ws_outbound.ts";
import { type EncodedEvent, encodeEventNotification } from "./event_notification.ts";
import type { ServerLimits } from "./limits.ts";

/** The subprotocol clients offer first (browsers then offer `bearer.<token>`). */
export const WS_SUBPROTOCOL = "daedalus.rpc.v1";

/** The close codes the server uses, and when. */
export const WS_CLOSE_CODES = {
  /** The server is shutting down. */
  goingAway: 1001,
  /** A message the server cannot read as text. */
  unsupportedData: 1003,
  /** Too many messages are waiting or being answered. */
  policyViolation: 1008,
  /** An inbound message is over the size limit. */
  messageTooBig: 1009,
  /** An event could not be encoded; replaying will not help until the runtime is fixed. */
  internalError: 1011,
  /** The token was rotated or the session logged out. */
  credentialsRevoked: 4001,
  /** The client reads too slowly: reconnect and replay from the last seq. */
  slowConsumer: 4008,
} as const;

const STALL_REASONS: Record<StallReason, string> = {
  overflow: "outbound queue overflow; reconnect and replay",
  send_timeout: "send timeout; reconnect and replay",
};

/** What the WebSocket route needs. */
export interface WebSocketRouteOptions {
  /** Runs the methods. */
  dispatcher: Dispatcher;
  /** The committed events to push. */
  events: EventSource;
  /** The token, to notice a rotation before each message. */
  tokens: TokenStore;
  /** The browser sessions, to notice a logout before each message. */
  sessions: SessionStore;
  /** The runtime's version, reported by `initialize`. */
  serverVersion: string;
  /** Where open connections are kept. */
  connections: ConnectionRegistry;
  /** Message size, queue and timeout limits. */
  limits: ServerLimits;
  /** Where internal errors go. */
  report: ServerErrorReporter;
}

/** One open connection as the registry sees it. */
export interface OpenConnection {
  /** The session id used in logs. */
  readonly session: RpcSession;
  /** The credential it was opened with. */
  readonly auth: AuthState;
  /**
   * Closes the connection.
   *
   * @param code the close code
   * @param reason the close reason
   */
  close(code: number, reason: string): void;
}

/** The open WebSocket connections of one server. */
export class ConnectionRegistry {
  readonly #open = new Set<OpenConnection>();

  /** How many connections are open. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Tracks a connection that just opened.
   *
   * @param connection the connection
   */
  add(connection: OpenConnection): void {
    this.#open.add(connection);
  }

  /**
   * Forgets a connection that closed.
   *
   * @param connection the connection
   */
  delete(connection: OpenConnection): void {
    this.#open.delete(connection);
  }

  /**
   * Closes every connection `predicate` picks.
   *
   * @param predicate which to close
   * @param code the close code
   * @param reason the close reason
   */
  closeWhere(predicate: (connection: OpenConnection) => boolean, code: number, reason: string) {
    for (const connection of [...this.#open]) {
      if (predicate(connection)) connection.close(code, reason);
    }
  }

  /**
   * Closes every connection.
   *
   * @param code the close code
   * @param reason the close reason
   */
  closeAll(code: number, reason: string): void {
    this.closeWhere(() => true, code, reason);
  }
}

/**
 * The `GET /ws` handler (after the auth middleware). Echoes the first offered real
 * subprotocol, never the `bearer.<token>` one.
 *
 * @param options the dispatcher, the event source, the limits and the registry
 * @returns the handler
 */
export function webSocketHandler(options: WebSocketRouteOptions): Handler<ServerEnv> {
  return (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return transportError(426, "upgrade_required", "This endpoint speaks WebSocket only", {
        upgrade: "websocket",
      });
    }
    // Headers are read here: once the upgrade is answered the request is gone.
    const auth = c.get("auth");
    const [protocol] = splitOfferedProtocols(c.req.header("sec-websocket-protocol")).protocols;
    let upgraded: { socket: WebSocket; response: Response };
    try {
      upgraded = Deno.upgradeWebSocket(c.req.raw, protocol === undefined ? {} : { protocol });
    } catch (error) {
      options.report(error, "upgrading a WebSocket");
      return transportError(400, "invalid_request", "Not a valid WebSocket upgrade");
    }
    new RpcWebSocketConnection(upgraded.socket, auth, options);
    return upgraded.response;
  };
}

class RpcWebSocketConnection implements OpenConnection {
  readonly session: RpcSession = { id: `ws_${crypto.randomUUID()}`, transport: "websocket" };
  readonly auth: AuthState;
  readonly #socket: WebSocket;
  readonly #options: WebSocketRouteOptions;
  readonly #outbound: OutboundQueue;
  #unsubscribe: (() => void) | null = null;
  #initialized = false;
  #eventEncoding: EventEncoding = "full";
  #closed = false;
  #lastPushedSeq = 0;
  #inboundWaiting = 0;
  /** Settles when every command received so far has been answered. */
  #commands: Promise<void> = Promise.resolve();

  constructor(socket: WebSocket, auth: AuthState, options: WebSocketRouteOptions) {
    this.#socket = socket;
    this.auth = auth;
    this.#options = options;
    this.#outbound = new OutboundQueue({
      send: (text) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(text);
      },
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
    }, {
      maxEvents: options.limits.wsOutboundQueueMaxEvents,
      sendTimeoutMs: options.limits.wsSendTimeoutMs,
      highWaterBytes: options.limits.wsSendHighWaterBytes,
      onStall: (reason) => this.close(WS_CLOSE_CODES.slowConsumer, STALL_REASONS[reason]),
    });
    socket.binaryType = "arraybuffer";
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = () => this.#finish();
    socket.onerror = () => {/* a close event always follows; #finish runs there */};
    options.connections.add(this);
  }

  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#finish();
    const socket = this.#socket;
    if (socket.readyState === WebSocket.CONNECTING) {
      socket.onopen = () => socket.close(code, reason);
    } else if (socket.readyState === WebSocket.OPEN) {
      socket.close(code, reason);
    }
  }

  /** Stops events and timers at once; the socket's own close may come later. */
  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#outbound.dispose();
    this.#options.connections.delete(this);
  }

  #receive(data: unknown): void {
    if (this.#closed) return;
    const message = typeof data === "string"
      ? data
      : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : null;
    const limits = this.#options.limits;
    if (message === null) {
      this.close(WS_CLOSE_CODES.unsupportedData, "unsupported message type");
    } else if (isLargerThan(message, limits.wsMessageMaxBytes)) {
      this.close(WS_CLOSE_CODES.messageTooBig, "message too large");
    } else if (this.#inboundWaiting >= limits.wsInboundQueueMaxMessages) {
      this.close(WS_CLOSE_CODES.policyViolation, "too many requests waiting");
    } else {
      this.#inboundWaiting++;
      this.#schedule(message);
    }
  }

  /** Puts a message in its lane: a command behind the commands, a read beside them. */
  #schedule(message: string | Uint8Array): void {
    const { limits, report } = this.#options;
    const decoded = decodeMessage(message, { maxBytes: limits.wsMessageMaxBytes, report });
    const isRead = decoded.ok && isConcurrentRead(decoded.decoded);
    const answered = this.#commands
      .then(() => this.#answer(decoded, isRead))
      .catch((error) => report(error, "answering a WebSocket message"))
      .finally(() => this.#inboundWaiting--);
    if (!isRead) this.#commands = answered;
  }

  async #answer(decoded: DecodedMessage, isRead: boolean): Promise<void> {
    if (this.#closed) return;
    // A command's events (committed now or published by a hook) follow its response;
    // a read commits nothing, so events keep flowing while it runs.
    if (!isRead) this.#outbound.holdEvents();
    let answer: MessageAnswer;
    try {
      if (!(await this.#stillAuthorized())) {
        this.close(WS_CLOSE_CODES.credentialsRevoked, "credentials revoked; sign in again");
        return;
      }
      answer = decoded.ok
        ? await answerDecoded(decoded.decoded, {
          report: this.#options.report,
          answerCall: (call) => this.#answerCall(call),
        })
        : decoded.answer;
      if (answer.body !== null) this.#outbound.pushResponse(answer.body);
    } finally {
      if (!isRead) this.#outbound.releaseEvents();
    }
    // Committed work is published even when this client has gone: others are waiting for it.
    for (const after of answer.afterResponses) runAfterResponse(after, this.#options.report);
  }

  async #answerCall(call: JsonRpcRequest | JsonRpcNotification): Promise<CallAnswer> {
    if (this.#closed) {
      // Not dispatched: nothing was committed and nobody is left to answer.
      return { error: new RpcError(RPC_ERROR_CODES.internalError, "shutting_down", "Closed") };
    }
    if (call.method === "initialize") return this.#initialize(call.params);
    if (!this.#initialized) {
      throw new RpcError(
        RPC_ERROR_CODES.notInitialized,
        "not_initialized",
        "Send initialize first",
      );
    }
    return await this.#options.dispatcher.dispatch(call.method, call.params, this.session);
  }

  /** Reads `latestSeq` and subscribes in one synchronous step, so no event falls between. */
  #initialize(params: unknown): CallAnswer {
    if (this.#initialized) {
      throw new RpcError(
        RPC_ERROR_CODES.alreadyInitialized,
        "already_initialized",
        "This connection is already initialized",
      );
    }
    const { events, serverVersion } = this.#options;
    const result = initializeResult(params, events, serverVersion);
    this.#eventEncoding = result.eventEncoding ?? "full";
    // Events are held until the initialize response is queued: initialize is a command.
    this.#unsubscribe = events.subscribe((event) => this.#pushEvent(event));
    this.#initialized = true;
    return { result };
  }

  #pushEvent(event: JournalEvent): void {
    if (this.#closed || event.seq <= this.#lastPushedSeq) return;
    this.#lastPushedSeq = event.seq;
    let encoded: EncodedEvent;
    try {
      encoded = encodeEventNotification(event, this.#eventEncoding);
    } catch (error) {
      this.#options.report(error, `encoding event ${event.seq}`);
      this.close(WS_CLOSE_CODES.internalError, "event could not be encoded");
      return;
    }
    this.#outbound.pushEvent(encoded.text, encoded.bytes);
  }

  async #stillAuthorized(): Promise<boolean> {
    const generation = await this.#options.tokens.currentGeneration();
    if (generation !== this.auth.generation) return false;
    const { sessionKey } = this.auth;
    return sessionKey === null || this.#options.sessions.isLive(sessionKey, generation);
  }
}

function isLargerThan(message: string | Uint8Array, maxBytes: number): boolean {
  if (typeof message !== "string") return message.byteLength > maxBytes;
  if (message.length > maxBytes) return true; // every UTF-16 unit is at least one byte
  if (message.length * 3 <= maxBytes) return false; // and at most three
  return utf8ByteLength(message) > maxBytes;
}
