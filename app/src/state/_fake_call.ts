/**
 * A scripted stand-in for the RPC connection, shared by the settings state tests.
 *
 * @module
 */
import type { MethodName } from "@daedalus/client";
import type { RpcCall } from "./rpc_call.ts";

/** Answers one method: returns the result, or throws to fail the call. */
export type FakeAnswer = (params: Record<string, unknown>) => unknown;

/** The fake and the calls it received, in order. */
export interface FakeCall {
  call: RpcCall;
  calls: { method: string; params: Record<string, unknown> }[];
}

/**
 * Builds a fake call from per-method answers; an unscripted method fails the call so a
 * test notices a request it did not expect.
 *
 * @param answers the answer of each scripted method
 * @returns the fake and its call log
 */
export function fakeCall(answers: Partial<Record<MethodName, FakeAnswer>>): FakeCall {
  const calls: FakeCall["calls"] = [];
  const call = (async (method: MethodName, params?: Record<string, unknown>) => {
    calls.push({ method, params: params ?? {} });
    const answer = answers[method];
    if (!answer) throw new Error(`unexpected call ${method}`);
    return await answer(params ?? {});
  }) as RpcCall;
  return { call, calls };
}

/**
 * An error shaped like `RpcError` (a reason code in `data`), without importing protocol
 * internals.
 *
 * @param reasonCode the reason code
 * @param message the message
 * @returns the error
 */
export function rpcFailure(reasonCode: string, message: string): Error {
  return Object.assign(new Error(message), { code: -32020, data: { reasonCode } });
}
