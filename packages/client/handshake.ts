/**
 * How the client opens its WebSocket: which URL, which subprotocols, and where the
 * token goes. Deno can send an `Authorization` header on a WebSocket; browsers cannot,
 * so there the token rides in a `bearer.<token>` subprotocol (or is left out and the
 * session cookie from `POST /auth/session` authenticates the upgrade).
 *
 * @module
 */
import { BEARER_SUBPROTOCOL_PREFIX, RPC_SUBPROTOCOL } from "./limits.ts";
import { webSocketUrl } from "./urls.ts";

/** Where the token travels on the WebSocket upgrade. */
export type TokenTransport = "header" | "subprotocol";

/** The second argument Deno's `WebSocket` accepts besides a subprotocol list. */
export interface WebSocketOptions {
  /** Request headers of the upgrade. */
  headers?: Record<string, string>;
  /** Subprotocols to offer, in preference order. */
  protocols?: string[];
}

/** The part of a WebSocket the client uses; `globalThis.WebSocket` instances fit. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /**
   * Sends one text frame.
   *
   * @param data the text
   */
  send(data: string): void;
  /**
   * Starts the closing handshake.
   *
   * @param code the close code
   * @param reason the close reason
   */
  close(code?: number, reason?: string): void;
  /**
   * Listens for a message.
   *
   * @param type `message`
   * @param listener gets the frame's data
   */
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  /**
   * Listens for the close.
   *
   * @param type `close`
   * @param listener gets the close code and reason
   */
  addEventListener(
    type: "close",
    listener: (event: { code: number; reason: string }) => void,
  ): void;
  /**
   * Listens for the open or an error.
   *
   * @param type `open` or `error`
   * @param listener called with the event
   */
  addEventListener(type: "open" | "error", listener: (event: unknown) => void): void;
}

/**
 * A WebSocket constructor: the browser's and Deno's `WebSocket` both fit. The options
 * object (headers) is only passed when the token travels as a header.
 */
export type WebSocketConstructor = new (
  url: string,
  protocolsOrOptions?: string[] | WebSocketOptions,
) => WebSocketLike;

/** What {@linkcode planHandshake} needs. */
export interface HandshakeOptions {
  /** The runtime's base URL. */
  url: string | URL;
  /** The access token; absent when the session cookie authenticates. */
  token?: string;
  /** Subprotocols to offer first; defaults to `["daedalus.rpc.v1"]`. */
  protocols?: readonly string[];
  /** Where the token goes; defaults to {@linkcode defaultTokenTransport}. */
  tokenTransport?: TokenTransport;
}

/** How one WebSocket is opened. */
export interface Handshake {
  /** The `ws(s)://…/ws` URL. */
  url: string;
  /** Subprotocols to offer, application protocol first. */
  protocols: string[];
  /** Upgrade headers; empty unless the token travels as a header. */
  headers: Record<string, string>;
}

/**
 * Tells where the token can travel in this JavaScript runtime: as a header where the
 * `WebSocket` constructor takes headers (Deno), as a subprotocol elsewhere (browsers).
 *
 * @returns `header` under Deno, `subprotocol` otherwise
 */
export function defaultTokenTransport(): TokenTransport {
  const deno = (globalThis as { Deno?: { version?: unknown } }).Deno;
  return typeof deno?.version === "object" ? "header" : "subprotocol";
}

/**
 * Plans the upgrade request: the URL, the subprotocols (the application protocol first,
 * since browsers require the server to echo one it was offered, then `bearer.<token>`
 * when the token goes that way) and the headers.
 *
 * @param options the base URL, token and preferences
 * @returns the handshake to open
 */
export function planHandshake(options: HandshakeOptions): Handshake {
  const protocols = [...(options.protocols ?? [RPC_SUBPROTOCOL])];
  const headers: Record<string, string> = {};
  const token = options.token;
  if (token) {
    const transport = options.tokenTransport ?? defaultTokenTransport();
    if (transport === "header") headers.authorization = `Bearer ${token}`;
    else protocols.push(`${BEARER_SUBPROTOCOL_PREFIX}${token}`);
  }
  return { url: webSocketUrl(options.url), protocols, headers };
}

/**
 * Opens a WebSocket as planned, passing the options object only when there are headers
 * so that a browser's constructor is called the way it understands.
 *
 * @param WebSocketClass the constructor
 * @param handshake the plan
 * @returns the connecting socket
 */
export function openWebSocket(
  WebSocketClass: WebSocketConstructor,
  handshake: Handshake,
): WebSocketLike {
  if (Object.keys(handshake.headers).length === 0) {
    return new WebSocketClass(handshake.url, handshake.protocols);
  }
  return new WebSocketClass(handshake.url, {
    headers: handshake.headers,
    protocols: handshake.protocols,
  });
}
