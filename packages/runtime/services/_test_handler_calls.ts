/**
 * Calling RPC handlers in tests as the dispatcher does: params parsed with the method's
 * schema, the result checked against its result schema, and a refusal taken as the
 * `RpcError` it must be.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  type MethodName,
  parseParams,
  parseResult,
  type ResultOf,
  RpcError,
} from "@daedalus/protocol";

/** A handler table as the `create*Handlers` functions return it. */
type Handlers<M extends MethodName> = { [K in M]: unknown };

/** The two ways a test calls a handler. */
export interface HandlerCalls<M extends MethodName> {
  /** Calls a method; the result has passed its schema. */
  call<N extends M>(method: N, params: unknown): Promise<ResultOf<N>>;
  /** Calls a method that must be refused; returns the refusal. */
  refuse(method: M, params: unknown): Promise<RpcError>;
}

/**
 * Wraps a handler table for tests.
 *
 * @param handlers the table
 * @param onWire sees each answer as it would be serialized (a result or an error)
 * @returns `call` and `refuse`
 */
export function handlerCalls<M extends MethodName>(
  handlers: Handlers<M>,
  onWire?: (json: string) => void,
): HandlerCalls<M> {
  const call = async <N extends M>(method: N, params: unknown): Promise<ResultOf<N>> => {
    const handler = handlers[method] as (p: unknown) => Promise<{ result: unknown }>;
    try {
      const { result } = await handler(parseParams(method, params));
      onWire?.(JSON.stringify(result));
      return parseResult(method, result);
    } catch (error) {
      if (error instanceof RpcError) onWire?.(JSON.stringify(error.toJSON()));
      throw error;
    }
  };
  const refuse = async (method: M, params: unknown): Promise<RpcError> => {
    try {
      await call(method, params);
    } catch (error) {
      assert.ok(error instanceof RpcError, `${method} threw ${error}`);
      return error;
    }
    assert.fail(`${method} should have been refused`);
  };
  return { call, refuse };
}
