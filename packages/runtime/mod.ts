/**
 * @daedalus/runtime — providers, the scheduler, the agent loop, one service per RPC
 * namespace, the HTTP / WebSocket server, and `main.ts` (the `daedalus` command).
 *
 * Where things live: RPC methods in `services/services.ts` (one handler each),
 * dispatch in `services/dispatcher.ts`, the event hub in `hub/`, scheduling in
 * `scheduler/`, the loop in `loop/`, model providers in `providers/`, transports and
 * auth in `server/`, composition in `runtime_core.ts`.
 *
 * @example
 * ```ts
 * import { createScriptedProvider, openRuntimeCore } from "@daedalus/runtime";
 *
 * const core = await openRuntimeCore({
 *   home: "/tmp/daedalus-home",
 *   workspacesRoot: "/tmp/daedalus-workspaces",
 *   providers: [createScriptedProvider({ script: [{ text: ["Hello"] }] })],
 * });
 * await core.close();
 * ```
 *
 * @module
 */
export { RUNTIME_VERSION } from "./version.ts";
export * from "./providers/provider.ts";
export * from "./providers/scripted.ts";
export {
  defineTool,
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolResult,
} from "@daedalus/tools";
export { openRuntimeCore } from "./runtime_core.ts";
export type { RuntimeCore, RuntimeCoreOptions } from "./runtime_core.ts";
export type { Dispatcher, DispatchOutcome, EventSource, RpcSession } from "./server/dispatcher.ts";
export { startRuntime } from "./runtime.ts";
export type { Runtime, StartRuntimeOptions } from "./runtime.ts";
// What RuntimeCore and StartRuntimeOptions expose, so their documentation is complete.
export type { EventHub } from "./hub/event_hub.ts";
export type { Scheduler } from "./scheduler/scheduler.ts";
export type { ProtectedValues, Span } from "./security/protected_values.ts";
export type { ServerLimits } from "./server/limits.ts";
// MCP servers (issue 17): the tools of configured Model Context Protocol servers.
export { McpServers } from "./mcp/mcp_servers.ts";
export type { ListedMcpTool, McpServersOptions, McpServerView } from "./mcp/mcp_servers.ts";
export type { McpConnectionStatus, McpServerState } from "./mcp/server_connection.ts";
// The gateway (issue 18): app keys, and createServer for any agent function.
export * from "./gateway/key_store.ts";
export * from "./gateway/rate_limiter.ts";
export {
  type ConversationOwner,
  ConversationOwners,
  type ConversationOwnersOptions,
  type GatewayRunRecord,
  type GatewayUploadRecord,
} from "./gateway/conversation_owners.ts";
export {
  type AgentMessage,
  type AgentRequest,
  type AgentServer,
  type ApiKeyCheck,
  createServer,
  type CreateServerOptions,
  CreateServerOptionsError,
  type DifyParameters,
  type InvokeAgent,
} from "./gateway/create_server.ts";
