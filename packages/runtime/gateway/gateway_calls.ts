/**
 * How the gateway's routes call the runtime: through the same dispatcher as every client,
 * as one `gateway` HTTP session, with each method's after-response work run at once (a
 * route answers its own client, not the dispatcher's).
 *
 * @module
 */
import type { AttachmentInput, GatewayKey } from "@daedalus/protocol";
import { type Dispatcher, GATEWAY_SESSION_ID } from "../server/dispatcher.ts";

const SESSION = { id: GATEWAY_SESSION_ID, transport: "http" } as const;

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
  /** The model the request chose, one the key allows (see `allowedModel`); else the key's. */
  model?: { providerId: string; modelId: string };
  /** Tools the caller runs itself (AG-UI's `tools`); a call to one makes the Run wait. */
  clientTools?: { name: string; description: string; parameters: Record<string, unknown> }[];
  /** Files with the message (uploaded through the gateway); none when absent. */
  attachments?: AttachmentInput[];
}

/**
 * Makes a new thread for an app key: in the key's workspace when its profile names one,
 * with the key as its source (its name kept as it is now, so a revoked key's threads still
 * show it). The gateway's session is the only one `thread.create` takes a source from.
 *
 * @param call the gateway's call
 * @param key the accepted key
 * @returns the new thread's id
 */
export async function createGatewayThread(
  call: GatewayCall,
  key: GatewayKey,
  agentId: string | undefined = key.profile.agentId,
): Promise<string> {
  const workspace = key.profile.workspace;
  const source = { kind: "gateway", keyId: key.keyId, keyName: key.name };
  const created = await call("thread.create", {
    source,
    ...(workspace ? { workspace: { rootUri: workspace } } : {}),
    ...(agentId !== undefined ? { agentId } : {}),
  });
  return (created.thread as { id: string }).id;
}

/**
 * Starts a turn for an app key. The key's profile decides the model, the execution
 * policy and the tools the Run may call, never the request.
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
    providerId: turn.model?.providerId ?? key.profile.providerId,
    modelId: turn.model?.modelId ?? key.profile.modelId,
    executionPolicy: key.profile.permission,
    ...(key.profile.tools ? { tools: key.profile.tools } : {}),
    ...(turn.clientTools?.length ? { clientTools: turn.clientTools } : {}),
  });
  return started.runId as string;
}

/**
 * The model a request asks for, when its key allows it: `provider/model` text or
 * `{providerId, modelId}`; the key's own model, or one of its profile's `models`.
 *
 * @param key the accepted key
 * @param asked the request's choice (absent: none)
 * @returns the model; undefined when none was asked; null when the key does not allow it
 */
export function allowedModel(
  key: GatewayKey,
  asked: unknown,
): { providerId: string; modelId: string } | undefined | null {
  if (asked === undefined || asked === null || asked === "") return undefined;
  let choice: { providerId: string; modelId: string } | null = null;
  if (typeof asked === "string") {
    const slash = asked.indexOf("/");
    if (slash > 0) choice = { providerId: asked.slice(0, slash), modelId: asked.slice(slash + 1) };
  } else if (typeof asked === "object") {
    const { providerId, modelId } = asked as Record<string, unknown>;
    if (typeof providerId === "string" && typeof modelId === "string") {
      choice = { providerId, modelId };
    }
  }
  if (choice === null) return null;
  const allowed = [
    { providerId: key.profile.providerId, modelId: key.profile.modelId },
    ...(key.profile.models ?? []),
  ];
  return allowed.find((m) => m.providerId === choice.providerId && m.modelId === choice.modelId) ??
    null;
}
