/**
 * How the gateway's routes call the runtime: through the same dispatcher as every client,
 * as one `gateway` HTTP session, with each method's after-response work run at once (a
 * route answers its own client, not the dispatcher's).
 *
 * @module
 */
import type { AttachmentInput, GatewayKey } from "@daedalus/protocol";
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

/** What a gateway turn is started with, besides the key's profile. */
export interface GatewayTurn {
  /** The thread (one of the key's). */
  threadId: string;
  /** The user's message. */
  content: string;
  /** Files with the message (uploaded through the gateway); none when absent. */
  attachments?: AttachmentInput[];
}

/**
 * Makes a new thread for an app key: in the key's workspace when its profile names one.
 *
 * @param call the gateway's call
 * @param key the accepted key
 * @returns the new thread's id
 */
export async function createGatewayThread(call: GatewayCall, key: GatewayKey): Promise<string> {
  const workspace = key.profile.workspace;
  const created = await call(
    "thread.create",
    workspace ? { workspace: { rootUri: workspace } } : {},
  );
  return (created.thread as { id: string }).id;
}

/**
 * Starts a turn for an app key. The key's profile decides the model and the execution
 * policy, never the request.
 *
 * @param call the gateway's call
 * @param key the accepted key
 * @param turn the thread and the message
 * @returns the new run's id
 */
export async function startGatewayTurn(
  call: GatewayCall,
  key: GatewayKey,
  turn: GatewayTurn,
): Promise<string> {
  const started = await call("turn.start", {
    threadId: turn.threadId,
    content: turn.content,
    ...(turn.attachments?.length ? { attachments: turn.attachments } : {}),
    providerId: key.profile.providerId,
    modelId: key.profile.modelId,
    executionPolicy: key.profile.permission,
  });
  return started.runId as string;
}
