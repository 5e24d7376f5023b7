/**
 * Only the runtime's own gateway may say who a thread was made for: a thread's source is
 * what the PWA shows as "via <app key>", so an owner's client (WebSocket or `POST /rpc`)
 * that sends one is refused rather than silently trusted or silently dropped (a client
 * that sends it has a bug its author should see).
 *
 * @module
 */
import { RPC_ERROR_CODES, RpcError, type ThreadSource } from "@daedalus/protocol";
import { GATEWAY_SESSION_ID, type RpcSession } from "../server/dispatcher.ts";

/**
 * Refuses a `thread.create` source that does not come from the gateway's session.
 *
 * @param source the params' source, if any
 * @param session who calls; absent for direct handler calls (treated as a client)
 * @throws {RpcError} -32602 `thread_source_reserved` when a source comes from anyone else
 */
export function assertSourceAllowed(
  source: ThreadSource | undefined,
  session: RpcSession | undefined,
): void {
  if (source === undefined || session?.id === GATEWAY_SESSION_ID) return;
  throw new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "thread_source_reserved",
    "A thread's source is set by the runtime's gateway only; create the thread without one",
  );
}
