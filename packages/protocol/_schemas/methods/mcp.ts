/**
 * `mcp.*`: the Model Context Protocol servers of config.yaml (issue 17). Secrets in `env`
 * and `headers` go in and are never shown again: results name them only. A configure that
 * leaves `env` or `headers` out keeps the server's current ones.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { McpPermission, McpServer, McpServerName } from "../domain/mcp.ts";

const VALUE_MAX = 8_192;
const Value = z.string().max(VALUE_MAX);

const common = {
  name: McpServerName,
  enabled: z.boolean().optional(),
  /** Per call, 1 s to 30 min (default 60 s). */
  timeoutMs: z.int().min(1_000).max(30 * 60_000).optional(),
  /** null clears it (the Run's preset decides). */
  permission: McpPermission.nullable().optional(),
  /** The server's own tool names to switch off. */
  disabledTools: z.array(z.string().min(1).max(128)).max(1_024).optional(),
};

const StdioServerParams = z.strictObject({
  ...common,
  transport: z.literal("stdio"),
  command: Value.min(1),
  args: z.array(Value).max(256).optional(),
  env: z.record(z.string().min(1).max(128), Value).optional(),
  cwd: Value.min(1).optional(),
});

const HttpServerParams = z.strictObject({
  ...common,
  transport: z.literal("http"),
  url: Value.min(1),
  headers: z.record(z.string().min(1).max(128), Value).optional(),
});

const ServerResult = z.looseObject({ server: McpServer });

/** Methods of the `mcp` namespace. */
export const mcpMethods = {
  "mcp.list": method({
    description: "Lists the MCP servers of config.yaml with their status and tools",
    params: z.strictObject({}),
    result: z.looseObject({ servers: z.array(McpServer) }),
  }),
  "mcp.configure": method({
    description: "Adds or replaces an MCP server (stdio or Streamable HTTP) and (re)connects it; " +
      "an invalid entry is refused naming the field",
    params: z.discriminatedUnion("transport", [StdioServerParams, HttpServerParams]),
    result: ServerResult,
  }),
  "mcp.remove": method({
    description: "Removes an MCP server: it is stopped and its tools are withdrawn",
    params: z.strictObject({ name: McpServerName }),
    result: z.looseObject({ name: McpServerName }),
  }),
  "mcp.set_enabled": method({
    description: "Switches an MCP server on (it connects) or off (it is stopped)",
    params: z.strictObject({ name: McpServerName, enabled: z.boolean() }),
    result: ServerResult,
  }),
  "mcp.tool.set_enabled": method({
    description: "Switches one tool of an MCP server on or off for new Runs",
    params: z.strictObject({
      name: McpServerName,
      tool: z.string().min(1).max(128),
      enabled: z.boolean(),
    }),
    result: ServerResult,
  }),
  "mcp.restart": method({
    description: "Restarts an MCP server now (a failed one included), forgetting its crashes",
    params: z.strictObject({ name: McpServerName }),
    result: ServerResult,
  }),
};
