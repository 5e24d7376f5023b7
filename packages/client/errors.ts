/**
 * The client's own errors. Errors the server sends (and params refused before
 * sending) are `RpcError`s from `@daedalus/protocol`; everything that goes wrong on
 * the client's side of the wire is a {@linkcode ClientError} with a stable code.
 *
 * @module
 */

/** Why the client failed, as a stable string a UI can switch on. */
export type ClientErrorCode =
  /** The client gave up reconnecting (or never connected); call `reconnect()`. */
  | "offline"
  /** The socket closed while the call was in flight; it was not retried. */
  | "connection_lost"
  /** The client was closed with `close()` (or its signal aborted). */
  | "closed"
  /** A message from the server is not valid JSON-RPC or not valid JSON. */
  | "invalid_message"
  /** An event notification failed validation; it was not delivered. */
  | "invalid_event"
  /** `event.replay` did not fill a gap in the event stream. */
  | "event_gap"
  /** Events were dropped because nothing consumed them. */
  | "events_dropped"
  /** An event or state listener threw. */
  | "listener_failed"
  /** `POST /rpc` answered with an HTTP status that carries no JSON-RPC response. */
  | "http_error"
  /** `POST /upload` refused the file; `status` and `reason` say why. */
  | "upload_refused";

/** Extra facts a {@linkcode ClientError} may carry. */
export interface ClientErrorOptions extends ErrorOptions {
  /** The HTTP status, for `http_error` and `upload_refused`. */
  status?: number;
  /** The server's stable refusal code (`payload_too_large`, …), for `upload_refused`. */
  reason?: string;
  /** The event's seq, for `invalid_event` and `event_gap` when known. */
  seq?: number;
}

/**
 * An error on the client's side of the wire, with a stable {@linkcode ClientErrorCode}.
 *
 * @example
 * ```ts
 * import { ClientError } from "@daedalus/client";
 *
 * try {
 *   // await client.call("thread.list", {});
 * } catch (error) {
 *   if (error instanceof ClientError && error.code === "offline") {
 *     // show the offline banner
 *   }
 * }
 * ```
 */
export class ClientError extends Error {
  /** What went wrong. */
  readonly code: ClientErrorCode;
  /** The HTTP status, for `http_error` and `upload_refused`. */
  readonly status?: number;
  /** The server's stable refusal code, for `upload_refused`. */
  readonly reason?: string;
  /** The event's seq, for `invalid_event` and `event_gap` when known. */
  readonly seq?: number;

  /**
   * Makes a client error.
   *
   * @param code what went wrong
   * @param message sentence-case description, no trailing period
   * @param options the original error as `cause`, and the status or seq
   */
  constructor(code: ClientErrorCode, message: string, options: ClientErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ClientError";
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.seq !== undefined) this.seq = options.seq;
    if (options.reason !== undefined) this.reason = options.reason;
  }
}
