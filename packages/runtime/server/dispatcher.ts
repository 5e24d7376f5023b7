/**
 * The seam between the transports (HTTP `POST /rpc`, WebSocket `/ws`) and the
 * services: a transport decodes a call and hands it to a {@linkcode Dispatcher};
 * the dispatcher validates params, runs the method and says what to do once the
 * response has been sent (publishing the events the call committed: ACK first).
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";

/** Who is calling: one WebSocket connection, or one HTTP request. */
export interface RpcSession {
  /** Unique per connection / request, for logs. */
  readonly id: string;
  /** The transport the call came over. */
  readonly transport: "http" | "websocket";
}

/**
 * The session id of the runtime's own gateway routes (gateway/gateway_calls.ts). The
 * transports' sessions are `http_<uuid>` and `ws_<uuid>`, so no client can take it; a
 * handler that trusts the gateway alone (a thread's source) compares with it.
 */
export const GATEWAY_SESSION_ID = "gateway";

/** What a method call produced. */
export interface DispatchOutcome {
  /** The method's result (already valid against the protocol). */
  result: unknown;
  /**
   * Runs after the response has been handed to the transport: publishes the
   * events the call committed, so every client sees the ACK before the events.
   */
  afterResponse?: () => void;
}

/** Runs methods. `initialize` is the transport's business and never reaches it. */
export interface Dispatcher {
  /**
   * Validates `params` for `method` and runs it.
   *
   * @param method a method name from the wire (not `initialize`)
   * @param params the params as received
   * @param session who calls
   * @returns the result and what to do after responding
   * @throws {RpcError} for unknown methods (-32601), bad params (-32602) and every
   *   refusal with its reason code; any other error becomes -32603 in the transport
   */
  dispatch(method: string, params: unknown, session: RpcSession): Promise<DispatchOutcome>;
}

/** Where committed journal events come from, in seq order. */
export interface EventSource {
  /** The newest committed seq (0 when the journal is empty). */
  latestSeq(): number;
  /**
   * Calls `listener` with every event published from now on, in seq order.
   *
   * @param listener receives each event once
   * @returns a function that unsubscribes
   */
  subscribe(listener: (event: JournalEvent) => void): () => void;
}
