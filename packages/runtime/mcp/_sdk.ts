/**
 * The parts of `@modelcontextprotocol/sdk` the runtime uses, imported in one place. The
 * SDK's `./*` export maps `x.js` to the types file `x.js.d.ts`, which does not exist, so
 * under Deno every `….js` subpath would type as `any`: each import here names its real
 * types with `@ts-types` (the extension-less subpath, which maps to `x.d.ts`).
 *
 * @module
 */
export { Client } from "@modelcontextprotocol/sdk/client";
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
export { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type { JSONRPCMessage, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
