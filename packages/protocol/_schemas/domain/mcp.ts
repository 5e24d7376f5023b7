/**
 * MCP servers as the wire shows them (issue 17): their config (secrets never: `env` and
 * `headers` are shown by name only), status and tools.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

export const McpServerName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, {
  error: "a server name is 1–32 of a-z, 0-9, '_' and '-', starting with a letter or digit",
}).register(docs, {
  description: "An MCP server's name in config.yaml: `^[a-z0-9][a-z0-9_-]{0,31}$`; its tools " +
    "are offered as `mcp__<name>__<tool>`.",
});

export const McpTransport = z.enum(["stdio", "http"]).register(docs, {
  description: "How the runtime reaches a server: a child process over stdio, or Streamable HTTP.",
});

export const McpServerState = z.enum(["connecting", "ready", "failed", "disabled"]).register(
  docs,
  { description: "Where an MCP server stands; `failed` comes with a message." },
);

export const McpPermission = z.enum(["allow", "ask", "deny"]).register(docs, {
  description: "The decision for a server's tools in place of the Run's preset (rules still win).",
});

export const McpTool = z.looseObject({
  /** The tool's own name on its server. */
  name: z.string(),
  /** The name the model calls it by, or null while it is not offered. */
  modelName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  /** Whether it is switched on (`tools.disabled` does not list it). */
  enabled: z.boolean(),
  /** The server's `readOnlyHint`. */
  readOnly: z.boolean(),
  /** The server's `destructiveHint`. */
  destructive: z.boolean(),
}).register(docs, { description: "One tool an MCP server lists." });

export const McpServer = z.looseObject({
  name: McpServerName,
  transport: McpTransport,
  enabled: z.boolean(),
  state: McpServerState,
  /** Why it failed (null otherwise). */
  message: z.string().nullable(),
  /** The negotiated protocol version, once connected. */
  protocolVersion: z.string().nullable(),
  /** The server's own name and version from `initialize`. */
  serverName: z.string().nullable(),
  serverVersion: z.string().nullable(),
  /** Tools offered to the model now. */
  toolCount: z.int().min(0),
  tools: z.array(McpTool),
  /** stdio: the command line (credentials redacted) and working directory. */
  command: z.string().nullable(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  /** http: the endpoint. */
  url: z.string().nullable(),
  /** The names of its env variables and headers; their values are never shown. */
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  timeoutMs: z.int().min(1),
  permission: McpPermission.nullable(),
  /** The stdio server's pid (its process group) while it runs. */
  pid: z.int().min(1).nullable(),
  /** Automatic restarts since the runtime started or the last `mcp.restart`. */
  restarts: z.int().min(0),
  /** The server's log under the home, and its last lines (credentials redacted). */
  logPath: z.string(),
  logTail: z.array(z.string()),
}).register(docs, { description: "An MCP server: its config (no secrets), status and tools." });

export const McpServerSummary = z.looseObject({
  name: McpServerName,
  state: McpServerState,
  message: z.string().nullable(),
  toolCount: z.int().min(0),
  /** Null once the server was removed. */
  removed: z.boolean(),
}).register(docs, { description: "What `mcp.status_changed` says about a server." });
