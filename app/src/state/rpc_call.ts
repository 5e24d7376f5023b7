/**
 * The one RPC capability the settings state modules need, as a plain function so unit
 * tests can pass a fake instead of a live connection.
 *
 * @module
 */
import type { CallParams, MethodName, ResultOf } from "@daedalus/client";
import { rpc } from "./store.ts";

/** Calls one RPC method; the same signature as `DaedalusClient.call`. */
export type RpcCall = <M extends MethodName>(
  method: M,
  ...params: CallParams<M>
) => Promise<ResultOf<M>>;

/**
 * Calls through the app's connection (`rpc()` from the store), resolved at call time so
 * importing a state module never needs a started client.
 */
export const liveCall: RpcCall = (method, ...params) => rpc().call(method, ...params);
