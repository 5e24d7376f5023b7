/**
 * How the gateway's routes call the runtime: through the same dispatcher as every client,
 * as one `gateway` HTTP session, with each method's after-response work run at once (a
 * route answers its own client, not the dispatcher's).
 *
 * @module
 */
import type { Dispatcher } from "../server/dispatcher.ts";

const SESSION = { id: "gateway", transport: "http" } as const;

/** Calls one RPC method and returns its result. */
export type GatewayCall = <T = Record<string, unknown>>(
  method: string,
  params: unknown,
) => Promise<T>;

/**
 * The call function of a gateway route.
 *
 * @param dispatcher the runtime's dispatcher
 * @returns the call
 */
export function gatewayCall(dispatcher: Dispatcher): GatewayCall {
  return async <T>(method: string, params: unknown): Promise<T> => {
    const outcome = await dispatcher.dispatch(method, params, SESSION);
    outcome.afterResponse?.();
    return outcome.result as T;
  };
}
