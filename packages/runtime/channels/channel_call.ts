/**
 * How a channel calls the runtime: through the same dispatcher as every client (the
 * gateway's pattern), as one `telegram` session, with each method's after-response work
 * (publishing its events) run at once.
 *
 * @module
 */
import type { Dispatcher } from "../server/dispatcher.ts";

/** Calls one RPC method and returns its result. */
export type ChannelCall = <T = Record<string, unknown>>(
  method: string,
  params: unknown,
) => Promise<T>;

/**
 * The call function of a channel.
 *
 * @param dispatcher the runtime's dispatcher
 * @param channelId names the session in logs
 * @returns the call
 */
export function channelCall(dispatcher: Dispatcher, channelId: string): ChannelCall {
  const session = { id: `channel:${channelId}`, transport: "http" } as const;
  return async <T>(method: string, params: unknown): Promise<T> => {
    const outcome = await dispatcher.dispatch(method, params, session);
    outcome.afterResponse?.();
    return outcome.result as T;
  };
}
