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

/**
 * Builds the dispatcher over the handlers.
 *
 * @param handlers one per served method
 * @returns the dispatcher
 */
export function createDispatcher(handlers: Handlers): Dispatcher {
  return {
    async dispatch(method, params): Promise<DispatchOutcome> {
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
    },
  };
}
