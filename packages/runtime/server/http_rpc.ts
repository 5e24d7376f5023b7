/**
 * `POST /rpc`: JSON-RPC 2.0 over HTTP, single or batch, stateless. Each call is
 * authorized by the request itself (the auth middleware runs first), dispatched in
 * order, and the calls' `afterResponse` hooks run once the response is built.
 *
 * @module
 */
import type { Handler } from "hono";
import type { Dispatcher, EventSource, RpcSession } from "./dispatcher.ts";
import type { ServerEnv } from "./auth.ts";
import { jsonResponse, readBodyWithin, transportError } from "./_http.ts";
import {
  answerMessage,
  initializeResult,
  reportToStderr,
  runAfterResponse,
  type ServerErrorReporter,
} from "./_rpc_call.ts";
import { RPC_BODY_MAX_BYTES } from "./limits.ts";

/** Options of {@linkcode httpRpcHandler}. */
export interface HttpRpcOptions {
  /** Runs the methods. */
  dispatcher: Dispatcher;
  /** Gives `latestSeq` to `initialize` (answered over HTTP too, harmlessly). */
  events: EventSource;
  /** The runtime's version, reported by `initialize`. */
  serverVersion: string;
  /** Largest body; default {@linkcode RPC_BODY_MAX_BYTES}. Larger is 413. */
  maxBodyBytes?: number;
  /** Where internal errors go (clients only see `internal_error`). */
  report?: ServerErrorReporter;
}

/**
 * The `POST /rpc` handler. Answers 200 with the response (or array of responses),
 * 204 when the message held only notifications, 413 when the body is too large.
 *
 * @param options the dispatcher, the event source, the version, the body limit
 * @returns the handler
 */
export function httpRpcHandler(options: HttpRpcOptions): Handler<ServerEnv> {
  const maxBytes = options.maxBodyBytes ?? RPC_BODY_MAX_BYTES;
  const report = options.report ?? reportToStderr;
  return async (c) => {
    const body = await readBodyWithin(c.req.raw, maxBytes);
    if (body === "too_large") {
      return transportError(
        413,
        "payload_too_large",
        `Request body is larger than the limit of ${maxBytes} bytes`,
      );
    }
    const session: RpcSession = { id: `http_${crypto.randomUUID()}`, transport: "http" };
    const answer = await answerMessage(body, {
      maxBytes,
      report,
      answerCall: async (call) => {
        if (call.method === "initialize") {
          return { result: initializeResult(call.params, options.events, options.serverVersion) };
        }
        return await options.dispatcher.dispatch(call.method, call.params, session);
      },
    });
    const response = answer.body === null
      ? jsonResponse(204, null)
      : jsonResponse(200, answer.body);
    for (const afterResponse of answer.afterResponses) runAfterResponse(afterResponse, report);
    return response;
  };
}
