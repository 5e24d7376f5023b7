/**
 * The Tools (MCP) settings section's state: `mcp.list` and the changes (`mcp.configure`,
 * `mcp.set_enabled`, `mcp.tool.set_enabled`, `mcp.restart`, `mcp.remove`). The list is read
 * again when a `mcp.status_changed` event arrives. The add form's rows of environment
 * variables and headers become the call's records here; their values are secrets, sent
 * once and never shown again (the runtime lists their names only). Every function takes the
 * RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { McpServer, ParamsOf } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What the section shows. */
export interface McpView {
  /** `loading` keeps the previous list on screen while a refresh runs. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The servers, by name. */
  servers: McpServer[];
  /** Server names (or `server/tool`) whose change waits for the runtime. */
  pending: ReadonlySet<string>;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
}

/** One name/value row of the add form (an env variable or a header). */
export interface SecretRow {
  /** The variable's or header's name. */
  name: string;
  /** Its value (a secret: the field is masked). */
  value: string;
}

/** The add form as typed. */
export interface McpForm {
  /** The server's name. */
  name: string;
  /** `stdio` (a command) or `http` (a URL). */
  transport: "stdio" | "http";
  /** The command. */
  command: string;
  /** Its arguments, one a line. */
  args: string;
  /** The URL. */
  url: string;
  /** Env variables (stdio) or headers (http). */
  secrets: SecretRow[];
}

/** An empty add form. */
export function emptyMcpForm(): McpForm {
  return { name: "", transport: "stdio", command: "", args: "", url: "", secrets: [] };
}

/**
 * The `mcp.configure` params of a form: arguments one a line (blank lines dropped), the
 * rows with a name as a record (a row without a name is left out).
 *
 * @param form the form
 * @returns the params
 */
export function configureParams(form: McpForm): ParamsOf<"mcp.configure"> {
  const rows = form.secrets.filter((row) => row.name.trim() !== "");
  const record = Object.fromEntries(rows.map((row) => [row.name.trim(), row.value]));
  const name = form.name.trim();
  if (form.transport === "http") {
    return {
      name,
      transport: "http",
      url: form.url.trim(),
      ...(rows.length > 0 ? { headers: record } : {}),
    };
  }
  const args = form.args.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  return {
    name,
    transport: "stdio",
    command: form.command.trim(),
    ...(args.length > 0 ? { args } : {}),
    ...(rows.length > 0 ? { env: record } : {}),
  };
}

/**
 * The server's model-facing prefix and the tool's own name of a tool id, for the feed:
 * `mcp__files__read_file` → `{ server: "files", tool: "read_file" }`.
 *
 * @param toolId a tool id
 * @returns the parts, or null for a tool that is not an MCP server's
 */
export function mcpToolParts(toolId: string): { server: string; tool: string } | null {
  const match = /^mcp__([a-z0-9][a-z0-9_-]*?)__(.+)$/.exec(toolId);
  return match ? { server: match[1]!, tool: match[2]! } : null;
}

/** The section's live state. */
export const mcpView: Signal<McpView> = signal<McpView>({
  status: "idle",
  servers: [],
  pending: new Set(),
  error: null,
});

let loadGeneration = 0;

/**
 * Loads (or refreshes) the list; a refresh overtaken by a newer one is dropped.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadMcp(call: RpcCall = liveCall): Promise<void> {
  const generation = ++loadGeneration;
  mcpView.value = { ...mcpView.value, status: "loading" };
  try {
    const { servers } = await call("mcp.list", {});
    if (generation !== loadGeneration) return;
    mcpView.value = { ...mcpView.value, servers, status: "ready", error: null };
  } catch (error) {
    if (generation !== loadGeneration) return;
    mcpView.value = { ...mcpView.value, status: "failed", error: callFailure(error) };
  }
}

/**
 * Adds or replaces a server from the form.
 *
 * @param form the form
 * @param call the RPC call
 * @returns the failure (the form keeps its input), or null when the runtime took it
 */
export async function addMcpServer(
  form: McpForm,
  call: RpcCall = liveCall,
): Promise<CallFailure | null> {
  try {
    const { server } = await call("mcp.configure", configureParams(form));
    mcpView.value = {
      ...mcpView.value,
      servers: withServer(mcpView.value.servers, server),
      error: null,
    };
    return null;
  } catch (error) {
    return callFailure(error);
  }
}

/**
 * Switches a server on or off.
 *
 * @param name the server
 * @param enabled the wanted state
 * @param call the RPC call
 */
export function setMcpServerEnabled(
  name: string,
  enabled: boolean,
  call: RpcCall = liveCall,
): Promise<void> {
  return change(name, () => call("mcp.set_enabled", { name, enabled }));
}

/**
 * Switches one tool of a server on or off.
 *
 * @param name the server
 * @param tool the tool's own name
 * @param enabled the wanted state
 * @param call the RPC call
 */
export function setMcpToolEnabled(
  name: string,
  tool: string,
  enabled: boolean,
  call: RpcCall = liveCall,
): Promise<void> {
  return change(`${name}/${tool}`, () => call("mcp.tool.set_enabled", { name, tool, enabled }));
}

/**
 * Restarts a server now.
 *
 * @param name the server
 * @param call the RPC call
 */
export function restartMcpServer(name: string, call: RpcCall = liveCall): Promise<void> {
  return change(name, () => call("mcp.restart", { name }));
}

/**
 * Removes a server.
 *
 * @param name the server
 * @param call the RPC call
 */
export async function removeMcpServer(name: string, call: RpcCall = liveCall): Promise<void> {
  await change(name, async () => {
    await call("mcp.remove", { name });
    mcpView.value = {
      ...mcpView.value,
      servers: mcpView.value.servers.filter((server) => server.name !== name),
    };
    return null;
  });
}

async function change(
  key: string,
  work: () => Promise<{ server: McpServer } | null>,
): Promise<void> {
  if (mcpView.value.pending.has(key)) return;
  mcpView.value = { ...mcpView.value, pending: withKey(mcpView.value.pending, key, true) };
  try {
    const answer = await work();
    mcpView.value = {
      ...mcpView.value,
      servers: answer ? withServer(mcpView.value.servers, answer.server) : mcpView.value.servers,
      error: null,
    };
  } catch (error) {
    mcpView.value = { ...mcpView.value, error: callFailure(error) };
  } finally {
    mcpView.value = { ...mcpView.value, pending: withKey(mcpView.value.pending, key, false) };
  }
}

/**
 * The list with one server put in place (or added, keeping the order by name).
 *
 * @param servers the listed servers
 * @param server the runtime's copy of one
 * @returns the new list
 */
export function withServer(servers: readonly McpServer[], server: McpServer): McpServer[] {
  const others = servers.filter((listed) => listed.name !== server.name);
  return [...others, server].sort((a, b) => a.name.localeCompare(b.name));
}

function withKey(keys: ReadonlySet<string>, key: string, present: boolean): Set<string> {
  const next = new Set(keys);
  if (present) next.add(key);
  else next.delete(key);
  return next;
}
