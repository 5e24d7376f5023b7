/**
 * The Dispatcher the transports call: method lookup, params validation, the
 * handler, result validation, and storage refusals mapped to RPC errors.
 *
 * @module
 */
import {
  isMethodName,
  parseParams,
  parseResult,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import type { Dispatcher, DispatchOutcome, RpcSession } from "../server/dispatcher.ts";
import type { Handlers } from "./services.ts";
import { rethrowAsRpcError } from "./errors.ts";
import { redactValue } from "../security/redact_value.ts";
import type { CommitHolds } from "../hub/commit_holds.ts";

/** Options of {@linkcode createDispatcher}. */
export interface DispatcherOptions {
  /** When given, refusals are redacted (they may quote the request). */
  protectedValues?: { redact(text: string): string };
  /**
   * When given, what a handler commits is held until its response has been queued, and
   * published by the outcome's `afterResponse` (ACK first).
   */
  holds?: CommitHolds;
}

/**
 * Builds the dispatcher over the handlers.
 *
 * @param handlers one per served method
 * @param options credential redaction and the commit holds
 * @returns the dispatcher
 */
export function createDispatcher(handlers: Handlers, options: DispatcherOptions = {}): Dispatcher {
  const { protectedValues, holds } = options;
  return {
    // One async function, no extra awaits: the answer leaves as early as it did before.
    async dispatch(method, params, session): Promise<DispatchOutcome> {
      try {
        if (method === "initialize" || !isMethodName(method) || !Object.hasOwn(handlers, method)) {
          throw new RpcError(
            RPC_ERROR_CODES.methodNotFound,
            "method_not_found",
            `Method ${method} does not exist`,
          );
        }
        const name = method as keyof Handlers;
        const valid = parseParams(name, params);
        // The session reaches only the handlers that ask who calls (thread.create's source).
        const handler = handlers[name] as (
          p: unknown,
          session: RpcSession,
        ) => Promise<DispatchOutcome>;
        let outcome: DispatchOutcome;
        const command = holds?.start(() => handler(valid, session));
        const release = command?.release ?? (() => {});
        try {
          outcome = await (command?.running ?? handler(valid, session));
        } catch (error) {
          release();
          rethrowAsRpcError(error);
        }
        const after = outcome.afterResponse;
        let result: unknown;
        try {
          result = parseResult(name, outcome.result);
        } catch (error) {
          release(); // an error answer makes no promise about events; nothing stays held
          throw error;
        }
        return {
          result,
          afterResponse: () => {
            release();
            after?.();
          },
        };
      } catch (error) {
        throw protectedValues ? redactRpcError(error, protectedValues) : error;
      }
    },
  };
}

/**
 * An error's message and data may quote the request (a method name, a field value): a
 * credential in them is redacted before the error is answered or logged.
 */
function redactRpcError(error: unknown, values: { redact(text: string): string }): unknown {
  if (!(error instanceof RpcError)) return error;
  const redact = (text: string) => values.redact(text);
  const message = redact(error.message);
  const data = redactValue(error.data, redact);
  if (message === error.message && data === error.data) return error;
  const { reasonCode, ...extra } = data;
  return new RpcError(error.code, reasonCode, message, extra);
}
