/**
 * One WebSocket and the JSON-RPC requests in flight on it. A session never
 * reconnects: when its socket closes, every request still in flight rejects with
 * `connection_lost` and the session is done (the client opens a new one).
 *
 * @module
 */
import type { AnyMethodName } from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import {
  type Handshake,
  openWebSocket,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./handshake.ts";
import { classifyInbound, decodeMessage, encodeRequest } from "./json_rpc.ts";
import { NORMAL_CLOSE_CODE } from "./limits.ts";

/** What a session reports to its owner. */
export interface RpcSessionHandlers {
  /** An `event` notification arrived; `params` is not validated yet. */
  onEvent(params: unknown): void;
  /** A message could not be matched to anything. */
  onInvalid(error: ClientError): void;
  /** The socket closed (after the in-flight requests were rejected). */
  onClose(close: { code: number; reason: string }): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const OPEN = 1;

/** One open WebSocket speaking JSON-RPC. */
export class RpcSession {
  readonly #socket: WebSocketLike;
  readonly #handlers: RpcSessionHandlers;
  readonly #pending = new Map<number, Pending>();
  readonly #closed: Promise<void>;
  #nextId = 1;
  #isClosed = false;

  private constructor(socket: WebSocketLike, handlers: RpcSessionHandlers) {
    this.#socket = socket;
    this.#handlers = handlers;
    this.#closed = new Promise((resolve) => {
      socket.addEventListener("close", (event) => {
        this.#isClosed = true;
        this.#rejectPending(event.code);
        resolve();
        handlers.onClose({ code: event.code, reason: event.reason });
      });
    });
    socket.addEventListener("message", (event) => this.#receive(event.data));
  }

  /**
   * Opens a socket and waits until it is open.
   *
   * @param WebSocketClass the constructor to use
   * @param handshake URL, subprotocols and headers
   * @param handlers where events, garbage and the close go
   * @returns the open session
   * @throws {ClientError} `connection_lost` when the socket fails before it opens
   */
  static open(
    WebSocketClass: WebSocketConstructor,
    handshake: Handshake,
    handlers: RpcSessionHandlers,
  ): Promise<RpcSession> {
    return new Promise((resolve, reject) => {
      let opened = false;
      let socket: WebSocketLike;
      try {
        socket = openWebSocket(WebSocketClass, handshake);
      } catch (error) {
        reject(
          new ClientError("connection_lost", "WebSocket could not be created", { cause: error }),
        );
        return;
      }
      const session = new RpcSession(socket, {
        onEvent: (params) => handlers.onEvent(params),
        onInvalid: (error) => handlers.onInvalid(error),
        onClose: (close) => {
          if (opened) handlers.onClose(close);
          else {
            reject(
              new ClientError(
                "connection_lost",
                `WebSocket closed before it opened (code ${close.code})`,
              ),
            );
          }
        },
      });
      socket.addEventListener("open", () => {
        opened = true;
        resolve(session);
      });
    });
  }

  /** Whether the socket is open and requests can be sent. */
  get isOpen(): boolean {
    return !this.#isClosed && this.#socket.readyState === OPEN;
  }

  /**
   * Sends one request and waits for its response.
   *
   * @param method the method (params already checked)
   * @param params the params
   * @returns the raw, unvalidated result
   * @throws {RpcError} the server's error, or -32700 when the params cannot be encoded
   * @throws {ClientError} `connection_lost` when the socket closes first
   */
  request(method: AnyMethodName, params: Record<string, unknown>): Promise<unknown> {
    const id = this.#nextId++;
    const text = encodeRequest(id, method, params);
    if (!this.isOpen) return Promise.reject(connectionLost(method));
    return new Promise((resolve, reject) => {
      this.#pending.set(id, {
        resolve,
        reject: (error) => reject(error),
      });
      try {
        this.#socket.send(text);
      } catch (error) {
        this.#pending.delete(id);
        reject(new ClientError("connection_lost", `Could not send ${method}`, { cause: error }));
      }
    });
  }

  /**
   * Closes the socket and waits for it to be closed.
   *
   * @param code the close code
   * @param reason the close reason
   */
  async close(code: number = NORMAL_CLOSE_CODE, reason = "client closed"): Promise<void> {
    if (!this.#isClosed) {
      try {
        this.#socket.close(code, reason);
      } catch {
        // Already closing or closed: the close event still arrives and settles #closed.
      }
    }
    await this.#closed;
  }

  #receive(data: unknown): void {
    const decoded = decodeMessage(data);
    if (!decoded.ok) {
      this.#handlers.onInvalid(new ClientError("invalid_message", decoded.reason));
      return;
    }
    const message = classifyInbound(decoded.value);
    if (message.kind === "event") {
      this.#handlers.onEvent(message.params);
      return;
    }
    const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (!pending || message.id === null) {
      const reason = message.kind === "invalid"
        ? message.reason
        : `Response to unknown request id ${message.id}`;
      this.#handlers.onInvalid(new ClientError("invalid_message", reason));
      return;
    }
    this.#pending.delete(message.id as number);
    if (message.kind === "invalid") {
      pending.reject(new ClientError("invalid_message", message.reason));
    } else if (message.outcome.ok) pending.resolve(message.outcome.result);
    else pending.reject(message.outcome.error);
  }

  #rejectPending(code: number): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(
        new ClientError(
          "connection_lost",
          `Connection closed (code ${code}) before the response arrived; the call was not retried`,
        ),
      );
    }
  }
}

function connectionLost(method: string): ClientError {
  return new ClientError("connection_lost", `Connection is closed; ${method} was not sent`);
}
