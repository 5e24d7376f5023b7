/**
 * @daedalus/client — a typed JSON-RPC client for the Daedalus runtime, over WebSocket
 * (`connect`) with reconnect and replay by seq, and over `POST /rpc` (`createHttpClient`)
 * for scripts. Every message it sends and receives is validated against
 * `@daedalus/protocol`, the only package it imports. Works in Deno and in browsers.
 *
 * - Calls are typed per method: `call("thread.get", { threadId })` resolves to that
 *   method's result. Params are checked before sending (the server's -32602 error,
 *   thrown locally); results are checked on receipt.
 * - `client.events` (and `client.onEvent`) yields every journal event exactly once, in
 *   seq order, with no gaps: live events that arrive ahead of a gap wait for
 *   `event.replay`, duplicates are dropped.
 * - When the socket drops the client goes `reconnecting`, retries after 50/100/200/400/800
 *   ms, then `offline` until `reconnect()`. After each reconnect it re-initializes and
 *   replays from the last contiguous seq. A call in flight when the socket dies rejects
 *   with `connection_lost` and is never retried.
 * - `uploadAttachment(file, { url })` stores a file on the runtime's machine with
 *   `POST /upload` (browsers cannot name a path) and answers the attachment to pass on.
 *
 * @example Talking to a running runtime (not run by `deno test --doc`: it needs one)
 * ```ts ignore
 * import { connect, createHttpClient, uploadAttachment } from "@daedalus/client";
 *
 * const client = await connect({ url: "http://127.0.0.1:7420", token: "…", lastSeq: 0 });
 * client.onStateChange((state) => console.log("connection:", state));
 * const { thread } = await client.call("thread.create", { title: "Weekly report" });
 * for await (const event of client.events) {
 *   if (event.type === "run.settled") console.log(event.payload.status);
 * }
 *
 * const rpc = createHttpClient({ url: "http://127.0.0.1:7420", token: "…" });
 * const { threads } = await rpc.call("thread.list", { limit: 10 });
 *
 * const file = new File(["# Notes"], "notes.md", { type: "text/markdown" });
 * const { kind, path, mimeType } = await uploadAttachment(file, {
 *   url: "http://127.0.0.1:7420",
 *   token: "…",
 * });
 * await rpc.call("turn.start", {
 *   threadId: thread.id,
 *   content: "Summarize the notes",
 *   providerId: "openai",
 *   modelId: "gpt-5",
 *   attachments: [{ kind, path, mimeType }],
 * });
 * ```
 *
 * @module
 */
export { connect, createClient } from "./connect.ts";
export type {
  ClientProblem,
  ConnectionState,
  ConnectOptions,
  DaedalusClient,
  ServerInfo,
} from "./daedalus_client.ts";
export {
  type BatchCall,
  type BatchOutcome,
  type BatchOutcomes,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
} from "./http.ts";
export { ClientError, type ClientErrorCode, type ClientErrorOptions } from "./errors.ts";
export type {
  TokenTransport,
  WebSocketConstructor,
  WebSocketLike,
  WebSocketOptions,
} from "./handshake.ts";
export type { CallParams } from "./json_rpc.ts";
export { RECONNECT_DELAYS_MS } from "./limits.ts";
export { httpRpcUrl, uploadUrl, webSocketUrl } from "./urls.ts";
export { uploadAttachment, type UploadOptions } from "./upload.ts";
// The wire types every signature above is made of, so callers and `deno doc` need no
// second import; the runtime values stay in @daedalus/protocol except the error class
// and codes a caller switches on.
export type * from "@daedalus/protocol";
export { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
// The attachment limits, so a UI can check files before uploading them.
export { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX_COUNT } from "@daedalus/protocol";
// The search limits, so a UI can bound its search box and page size.
export { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS } from "@daedalus/protocol";
// The gateway key limits and the built-in tool ids, so a UI offers and checks a key's
// profile as `gateway.key.create` does.
export {
  GATEWAY_KEY_NAME_MAX_CHARS,
  GATEWAY_KEY_ORIGINS_MAX_COUNT,
  GATEWAY_KEY_TOOLS_MAX_COUNT,
  IDENTIFIER_MAX_CHARS,
  TOOL_IDS,
} from "@daedalus/protocol";
// How a permission rule names MCP tools, so a UI reads and writes such rules as the gate does.
export { mcpRuleTarget } from "@daedalus/protocol";
