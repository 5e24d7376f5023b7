/**
 * The zod schema of config.yaml's `mcp` section (see `config_mcp.ts` for what it means and
 * how it is written): apart so `config_schema.ts` can include it without a cycle.
 *
 * @module
 */
import { z } from "zod";
import {
  MCP_ARGS_MAX,
  MCP_DISABLED_TOOLS_MAX,
  MCP_ENV_MAX,
  MCP_SERVERS_MAX,
  MCP_TIMEOUT_MS_DEFAULT,
  MCP_TIMEOUT_MS_MAX,
  MCP_TIMEOUT_MS_MIN,
  MCP_VALUE_MAX_CHARS,
} from "./limits.ts";

/** A server name: what its tools are prefixed with (`mcp__<name>__<tool>`). */
export const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

// deno-lint-ignore no-control-regex
const LINE_BREAK_OR_NUL = /[\r\n\u0000]/;
const RESERVED_KEY = "__proto__";

const ServerNameSchema = z.string().regex(MCP_SERVER_NAME, {
  error: "server name must be 1-32 lowercase letters, digits, '_' or '-', " +
    "starting with a letter or digit",
});

const ValueSchema = (what: string) =>
  z.string({ error: `${what} must be a string` })
    .max(MCP_VALUE_MAX_CHARS, { error: `${what} must be at most ${MCP_VALUE_MAX_CHARS} chars` })
    .refine((value) => !value.includes("\u0000"), { error: `${what} must not contain NUL` });

const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, {
  error: "env name must be letters, digits or '_', not starting with a digit",
});

const HeaderNameSchema = z.string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, { error: "header name must be an HTTP token" })
  .refine((name) => name !== RESERVED_KEY, { error: "header name is reserved" });

const HeaderValueSchema = ValueSchema("header value").refine(
  (value) => !LINE_BREAK_OR_NUL.test(value),
  { error: "header value must not contain line breaks" },
);

const boundedRecord = <K extends z.ZodType<string>, V extends z.ZodType>(
  key: K,
  value: V,
  what: string,
) =>
  z.record(key, value).refine((record) => Object.keys(record).length <= MCP_ENV_MAX, {
    error: `${what} must have at most ${MCP_ENV_MAX} entries`,
  });

const ToolsSchema = z.strictObject({
  disabled: z.array(z.string().min(1).max(128)).max(MCP_DISABLED_TOOLS_MAX).default(() => []),
});

/** One MCP server, as stored under `mcp.servers.<name>`. */
export const McpServerConfigSchema = z.strictObject({
  command: ValueSchema("command").min(1, { error: "command must not be empty" }).optional(),
  args: z.array(ValueSchema("argument")).max(MCP_ARGS_MAX, {
    error: `args must have at most ${MCP_ARGS_MAX} entries`,
  }).optional(),
  env: boundedRecord(EnvNameSchema, ValueSchema("env value"), "env").optional(),
  cwd: ValueSchema("cwd").refine((cwd) => cwd.startsWith("/") || /^[A-Za-z]:[\\/]/.test(cwd), {
    error: "cwd must be an absolute path",
  }).optional(),
  url: z.url({
    protocol: /^https?$/,
    error: (issue) => issue.input === undefined ? undefined : "url must be an http(s) URL",
  }).max(MCP_VALUE_MAX_CHARS).optional(),
  headers: boundedRecord(HeaderNameSchema, HeaderValueSchema, "headers").optional(),
  enabled: z.boolean({ error: "enabled must be true or false" }).default(true),
  timeout_ms: z.int({ error: "timeout_ms must be an integer (milliseconds)" })
    .min(MCP_TIMEOUT_MS_MIN, { error: `timeout_ms must be at least ${MCP_TIMEOUT_MS_MIN}` })
    .max(MCP_TIMEOUT_MS_MAX, { error: `timeout_ms must be at most ${MCP_TIMEOUT_MS_MAX}` })
    .default(MCP_TIMEOUT_MS_DEFAULT),
  tools: ToolsSchema.default(() => ({ disabled: [] })),
  permission: z.enum(["allow", "ask", "deny"], {
    error: "permission must be allow, ask or deny",
  }).optional(),
}).superRefine((server, ctx) => {
  const stdio = server.command !== undefined;
  const http = server.url !== undefined;
  if (stdio === http) {
    ctx.addIssue({
      code: "custom",
      path: [stdio ? "url" : "command"],
      message: stdio
        ? "a server has either command (stdio) or url (http), not both"
        : "a server needs command (stdio) or url (http)",
    });
    return;
  }
  const wrong = stdio ? (["headers"] as const) : (["args", "env", "cwd"] as const);
  for (const key of wrong) {
    if (server[key] === undefined) continue;
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: `${key} belongs to ${stdio ? "http" : "stdio"} servers; this one is ${
        stdio ? "stdio" : "http"
      }`,
    });
  }
});

/** The `mcp` section. */
export const McpConfigSchema = z.strictObject({
  servers: z.record(ServerNameSchema, McpServerConfigSchema).default(() => ({}))
    .refine((servers) => Object.keys(servers).length <= MCP_SERVERS_MAX, {
      error: `mcp.servers must have at most ${MCP_SERVERS_MAX} servers`,
    }),
});

/** A validated MCP server entry, defaults filled in. */
export interface McpServerConfig {
  /** The stdio server's executable. */
  command?: string;
  /** Its arguments. */
  args?: string[];
  /** Environment variables given to it (secrets: protected like API keys). */
  env?: Record<string, string>;
  /** Its working directory (absolute). */
  cwd?: string;
  /** The Streamable HTTP server's endpoint. */
  url?: string;
  /** Headers sent with every request (secrets: protected like API keys). */
  headers?: Record<string, string>;
  /** Whether the runtime connects to it (default true). */
  enabled: boolean;
  /** How long one tool call may take, in milliseconds (default 60 s). */
  timeout_ms: number;
  /** Its tools switched off (by the server's own tool names). */
  tools: { disabled: string[] };
  /** The default decision for its tools (absent: the Run's preset decides). */
  permission?: "allow" | "ask" | "deny";
}

/** A server entry as accepted for writing: defaults may be omitted. */
export type McpServerConfigInput =
  & Omit<McpServerConfig, "enabled" | "timeout_ms" | "tools">
  & Partial<Pick<McpServerConfig, "enabled" | "timeout_ms">>
  & { tools?: { disabled?: string[] } };

/** The `mcp` section as accepted for writing. */
export interface McpConfigInput {
  /** The servers by name. */
  servers?: Record<string, McpServerConfigInput>;
}

/** The `mcp` section, validated. */
export interface McpConfig {
  /** The servers by name. */
  servers: Record<string, McpServerConfig>;
}

// Compile-time guards: the written-out types equal the schemas' own.
type Same<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false;
const sameTypes: [
  Same<McpConfig, z.output<typeof McpConfigSchema>>,
  Same<McpServerConfig, z.output<typeof McpServerConfigSchema>>,
] = [true, true];
void sameTypes;
