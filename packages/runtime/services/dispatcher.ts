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
import type { Dispatcher, DispatchOutcome } from "../server/dispatcher.ts";
import type { Handlers } from "./services.ts";
import { rethrowAsRpcError } from "./errors.ts";
import { redactValue } from "../security/redact_value.ts";

/**
 * Builds the dispatcher over the handlers.
 *
 * @param handlers one per served method
 * @param protectedValues when given, refusals are redacted (they may quote the request)
 * @returns the dispatcher
 */
export function createDispatcher(
  handlers: Handlers,
  protectedValues?: { redact(text: string): string },
): Dispatcher {
  return {
    // One async function, no extra awaits: the answer leaves as early as it did before.
    async dispatch(method, params): Promise<DispatchOutcome> {
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
        const handler = handlers[name] as (p: unknown) => Promise<DispatchOutcome>;
        let outcome: DispatchOutcome;
        try {
          outcome = await handler(valid);
        } catch (error) {
          rethrowAsRpcError(error);
        }
        return { ...outcome, result: parseResult(name, outcome.result) };
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
