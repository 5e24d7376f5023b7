/**
 * `mcp.*`: the MCP servers of config.yaml (issue 17). config.yaml is the truth (written
 * through `@daedalus/storage`'s owner, validated, atomic); each change is applied to the
 * running servers at once (the server is stopped and connected again), and `mcp.list`
 * first applies what a hand edit of the file changed. Results never
 * carry a secret: env and header values are named only, the command line is redacted, and
 * the values of a new entry become protected values before anything is answered.
 *
 * @example
 * ```ts
 * const handlers = createMcpHandlers({ configPath, servers, protectedValues });
 * await handlers["mcp.configure"]({ name: "files", transport: "stdio", command: "node" });
 * ```
 *
 * @module
 */
import { type ResultOf, RPC_ERROR_CODES, RpcError, type ValidParamsOf } from "@daedalus/protocol";
import {
  changeMcpServer,
  ConfigError,
  type McpServerConfig,
  type McpServerConfigInput,
  readConfig,
  readMcpConfig,
  removeMcpServer,
  writeMcpServer,
} from "@daedalus/storage";
import type { McpServers, McpServerView } from "../mcp/mcp_servers.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import type { Handled } from "./services.ts";

/** What the MCP handlers use. */
export interface McpHandlerOptions {
  /** `<home>/config.yaml`. */
  configPath: string;
  /** The running servers. */
  servers: McpServers;
  /** The runtime's credentials (a new entry's secrets join them). */
  protectedValues: ProtectedValues;
}

/** The methods served here. */
export type McpMethod =
  | "mcp.list"
  | "mcp.configure"
  | "mcp.remove"
  | "mcp.set_enabled"
  | "mcp.tool.set_enabled"
  | "mcp.restart";

/** One handler per `mcp.*` method. */
export type McpHandlers = {
  [M in McpMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

type WireServer = ResultOf<"mcp.list">["servers"][number];

/**
 * Builds the `mcp.*` handlers.
 *
 * @param options config path, servers, protected values
 * @returns the handlers; refusals are {@linkcode RpcError} -32602 `config_invalid` (naming
 *   the field) or `mcp_server_not_found`
 */
export function createMcpHandlers(options: McpHandlerOptions): McpHandlers {
  const { configPath, servers, protectedValues } = options;
  const guard = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error) => {
      throw configRefusal(error, protectedValues);
    });
  const shown = (name: string): WireServer => {
    const view = servers.view(name);
    if (view === null) throw notFound(name);
    return wireServer(view, (text) => protectedValues.redact(text));
  };
  const changed = async (name: string, change: (entry: McpServerConfig) => McpServerConfig) => {
    const written = await guard(changeMcpServer(configPath, name, change));
    if (written === null) throw notFound(name);
    await servers.apply(name, written);
    return { result: { server: shown(name) } };
  };
  return {
    "mcp.list": async () => {
      // A broken file is reported, not hidden; a hand edit is applied (its secrets
      // protected first) before listing.
      const config = await guard(readConfig(configPath));
      protectedValues.update(config);
      await servers.reconcile(config.mcp);
      return {
        result: {
          servers: servers.list().map((view) =>
            wireServer(view, (text) => protectedValues.redact(text))
          ),
        },
      };
    },
    "mcp.configure": async (params) => {
      const current = (await guard(readMcpConfig(configPath))).servers[params.name];
      const entry = entryOf(params, current);
      for (
        const value of [...Object.values(entry.env ?? {}), ...Object.values(entry.headers ?? {})]
      ) {
        protectedValues.register(value);
      }
      const written = await guard(writeMcpServer(configPath, params.name, entry));
      protectedValues.update(await guard(readConfig(configPath)));
      await servers.apply(params.name, written);
      return { result: { server: shown(params.name) } };
    },
    "mcp.remove": async ({ name }) => {
      if (!await guard(removeMcpServer(configPath, name))) throw notFound(name);
      await servers.apply(name, null);
      return { result: { name } };
    },
    "mcp.set_enabled": ({ name, enabled }) => changed(name, (entry) => ({ ...entry, enabled })),
    "mcp.tool.set_enabled": ({ name, tool, enabled }) =>
      changed(name, (entry) => {
        const others = entry.tools.disabled.filter((disabled) => disabled !== tool);
        return { ...entry, tools: { disabled: enabled ? others : [...others, tool] } };
      }),
    "mcp.restart": async ({ name }) => {
      if (!await servers.restart(name)) throw notFound(name);
      return { result: { server: shown(name) } };
    },
  };
}

/**
 * The config entry of a configure call: absent `env`/`headers` keep the current ones (the
 * client never saw their values); other absent fields take their defaults.
 */
function entryOf(
  params: ValidParamsOf<"mcp.configure">,
  current: McpServerConfig | undefined,
): McpServerConfigInput {
  const common = {
    ...(params.enabled === undefined ? {} : { enabled: params.enabled }),
    ...(params.timeoutMs === undefined ? {} : { timeout_ms: params.timeoutMs }),
    ...(params.permission ? { permission: params.permission } : {}),
    tools: { disabled: params.disabledTools ?? current?.tools.disabled ?? [] },
  };
  if (params.transport === "stdio") {
    const env = params.env ?? current?.env;
    return {
      command: params.command,
      ...(params.args ? { args: params.args } : {}),
      ...(env ? { env } : {}),
      ...(params.cwd ? { cwd: params.cwd } : {}),
      ...common,
    };
  }
  const headers = params.headers ?? current?.headers;
  return { url: params.url, ...(headers ? { headers } : {}), ...common };
}

/**
 * A server as the wire shows it: no env or header values, the command line redacted.
 *
 * @param view the server's view
 * @param redact the runtime's redaction
 * @returns the wire shape
 */
export function wireServer(view: McpServerView, redact: (text: string) => string): WireServer {
  const { config, status } = view;
  return {
    name: view.name,
    transport: config.command !== undefined ? "stdio" : "http",
    enabled: config.enabled,
    state: status.state,
    message: status.message,
    protocolVersion: status.protocolVersion,
    serverName: status.serverInfo?.name ?? null,
    serverVersion: status.serverInfo?.version ?? null,
    toolCount: view.tools.filter((tool) => tool.enabled && tool.modelName !== null).length,
    tools: view.tools.map(({ tool, modelName, enabled }) => ({
      name: tool.name,
      modelName: enabled ? modelName : null,
      title: tool.title ?? tool.annotations?.title ?? null,
      description: tool.description ?? null,
      enabled,
      readOnly: tool.annotations?.readOnlyHint === true,
      destructive: tool.annotations?.destructiveHint === true,
    })),
    command: config.command === undefined ? null : redact(config.command),
    args: (config.args ?? []).map(redact),
    cwd: config.cwd ?? null,
    url: config.url === undefined ? null : redact(config.url),
    envNames: Object.keys(config.env ?? {}),
    headerNames: Object.keys(config.headers ?? {}),
    timeoutMs: config.timeout_ms,
    permission: config.permission ?? null,
    pid: status.pid,
    restarts: status.restarts,
    logPath: view.logPath,
    logTail: [...view.logTail],
  };
}

function notFound(name: string): RpcError {
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "mcp_server_not_found",
    `No MCP server named ${name} in config.yaml`,
    { field: "name" },
  );
}

/** The wire's names for config.yaml's keys of a server entry. */
const WIRE_FIELDS: Record<string, string> = { timeout_ms: "timeoutMs", tools: "disabledTools" };

function configRefusal(error: unknown, protectedValues: ProtectedValues): unknown {
  if (!(error instanceof ConfigError)) return error;
  const keyPath = error.issues[0]?.keyPath ?? "";
  const within = /^mcp\.servers(?:\.[^.[]+|\["[^"]*"\])\.?(.*)$/.exec(keyPath);
  const rest = within?.[1] ?? "";
  const head = rest.split(/[.[]/)[0] ?? "";
  const field = rest === ""
    ? (within ? "name" : "")
    : rest.replace(head, WIRE_FIELDS[head] ?? head);
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "config_invalid",
    protectedValues.redact(error.message),
    field === "" ? {} : { field },
    { cause: error },
  );
}
