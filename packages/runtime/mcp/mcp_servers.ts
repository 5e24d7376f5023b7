/**
 * The runtime's MCP servers: one {@linkcode ServerConnection} per `mcp.servers` entry of
 * config.yaml, started with the runtime without waiting for any of them, and the tools of
 * the ready ones kept in the runtime's tool map (after the built-in tools, named
 * `mcp__<server>__<tool>`, switched-off tools left out). The map changes as servers come
 * and go; a Run takes its own copy when it starts, so it keeps the tools it began with.
 * Every change of a server's status or tools is told to {@linkcode McpServersOptions.onChange}.
 *
 * @module
 */
import { join } from "node:path";
import type { McpConfig, McpServerConfig } from "@daedalus/storage";
import type { ToolDefinition } from "@daedalus/tools";
import type { Tool } from "./_sdk.ts";
import type { McpConnectionStatus, ServerConnection } from "./server_connection.ts";
import type { McpToolDefinition } from "./mcp_tool.ts";
import { assignToolNames, type McpToolRef, refKey } from "./tool_names.ts";

/** What the servers need from the runtime. */
export interface McpServersOptions {
  /** The runtime's tool map (MCP tools are added and removed in it). */
  readonly tools: Map<string, ToolDefinition<unknown>>;
  /** `<home>/logs`: each server logs to `mcp/<name>.log` under it. */
  readonly logsRoot: string;
  /** The runtime's credential redaction. */
  readonly redact: (text: string) => string;
  /** Told the server's name after each change of its status or tools. */
  readonly onChange?: (server: string) => void;
  /** How long a server may take to answer `initialize` (default 30 s; tests lower it). */
  readonly connectTimeoutMs?: number;
  /** The first wait before restarting a crashed server (default 0.5 s; tests lower it). */
  readonly restartBackoffMinMs?: number;
}

/** A tool as its server listed it (the parts reports show). */
export interface ListedMcpTool {
  /** Its own name. */
  readonly name: string;
  /** Its display title. */
  readonly title?: string;
  /** What it does. */
  readonly description?: string;
  /** The server's hints about it. */
  readonly annotations?: {
    /** A display title. */
    readonly title?: string;
    /** It changes nothing. */
    readonly readOnlyHint?: boolean;
    /** It may destroy data. */
    readonly destructiveHint?: boolean;
  };
}

/** One server as `mcp.list` reports it. */
export interface McpServerView {
  /** Its name. */
  readonly name: string;
  /** Its config entry. */
  readonly config: McpServerConfig;
  /** Its status. */
  readonly status: McpConnectionStatus;
  /** Every tool it lists, with its model-facing name and whether it is offered. */
  readonly tools: readonly { tool: ListedMcpTool; modelName: string | null; enabled: boolean }[];
  /** Its log file. */
  readonly logPath: string;
  /** Its log's last lines. */
  readonly logTail: readonly string[];
}

/** The modules that need the MCP SDK (and ajv): loaded once a server is configured. */
interface ConnectionModules {
  readonly connection: typeof import("./server_connection.ts");
  readonly tool: typeof import("./mcp_tool.ts");
}

let connectionModules: Promise<ConnectionModules> | undefined;
let loadedModules: ConnectionModules | undefined;

/**
 * Loads the SDK's side only when a server is configured: a runtime (or a one-shot
 * `daedalus run`) without MCP servers never pays for the SDK's module graph (~0.3–0.4 s of
 * start-up). The specifiers are not literals on purpose: Deno builds the graph of every
 * literal `import("…")` at start-up, which would load the SDK anyway.
 */
function loadConnectionModules(): Promise<ConnectionModules> {
  const url = (path: string) => new URL(path, import.meta.url).href;
  return connectionModules ??= Promise.all([
    import(url("./server_connection.ts")) as Promise<ConnectionModules["connection"]>,
    import(url("./mcp_tool.ts")) as Promise<ConnectionModules["tool"]>,
  ]).then(([connection, tool]) => loadedModules = { connection, tool });
}

/** The runtime's MCP servers. */
export class McpServers {
  readonly #options: McpServersOptions;
  readonly #servers = new Map<string, ServerConnection>();
  /** Definitions kept while their tool is unchanged, so a Run's frozen schemas stay equal. */
  readonly #definitions = new Map<string, { listed: Tool; definition: McpToolDefinition }>();
  #names = new Map<string, string>();
  #closed = false;
  #changes: Promise<void> = Promise.resolve();

  /**
   * Makes the (empty) set of servers; {@linkcode McpServers.start} starts them.
   *
   * @param options the tool map, the log folder, redaction, change listener
   */
  constructor(options: McpServersOptions) {
    this.#options = options;
  }

  /**
   * Starts every configured server (in the background: nothing waits for them). With
   * servers configured it first loads the SDK's modules (once per process).
   *
   * @param config config.yaml's `mcp` section
   * @returns once the servers are starting (each is visible, `connecting`)
   */
  async start(config: McpConfig | undefined): Promise<void> {
    const entries = Object.entries(config?.servers ?? {});
    if (entries.length > 0) await loadConnectionModules();
    if (this.#closed) return;
    for (const [name, entry] of entries) this.#add(name, entry);
    this.#sync();
  }

  /**
   * Replaces one server with its new entry (stopped, then started again, unless only its
   * tools' switches, timeout or permission changed), or removes it.
   *
   * @param name the server's name
   * @param entry its new entry, or null when it was removed
   */
  apply(name: string, entry: McpServerConfig | null): Promise<void> {
    return this.#serially(() => this.#apply(name, entry));
  }

  async #apply(name: string, entry: McpServerConfig | null): Promise<void> {
    const old = this.#servers.get(name);
    // Only its tools' switches, timeout or permission changed: no reconnect.
    if (old !== undefined && entry !== null && old.sameConnection(entry)) return old.adopt(entry);
    this.#servers.delete(name);
    this.#sync();
    await old?.stop();
    if (entry !== null) await loadConnectionModules();
    if (entry !== null && !this.#closed) this.#add(name, entry);
    this.#sync();
    this.#options.onChange?.(name);
  }

  /**
   * Brings the running servers in line with config.yaml as it is now (a hand edit): a new
   * entry starts, a removed one stops, a changed one is applied; unchanged ones are left
   * alone.
   *
   * @param config config.yaml's `mcp` section
   */
  reconcile(config: McpConfig | undefined): Promise<void> {
    return this.#serially(() => this.#reconcile(config));
  }

  async #reconcile(config: McpConfig | undefined): Promise<void> {
    const wanted = config?.servers ?? {};
    const names = new Set([...Object.keys(wanted), ...this.#servers.keys()]);
    for (const name of names) {
      const entry = Object.hasOwn(wanted, name) ? wanted[name]! : null;
      const running = this.#servers.get(name);
      if (entry === null && running === undefined) continue;
      if (entry !== null && running && JSON.stringify(running.config) === JSON.stringify(entry)) {
        continue;
      }
      await this.#apply(name, entry);
    }
  }

  /** Changes run one at a time: two at once could both start the same server. */
  #serially(change: () => Promise<void>): Promise<void> {
    const run = this.#changes.then(change);
    this.#changes = run.catch(() => {});
    return run;
  }

  /**
   * Restarts one server now.
   *
   * @param name the server's name
   * @returns false when there is no such server
   */
  async restart(name: string): Promise<boolean> {
    const server = this.#servers.get(name);
    if (server === undefined) return false;
    await server.restart();
    return true;
  }

  /**
   * One server, as reported.
   *
   * @param name its name
   * @returns the view, or null
   */
  view(name: string): McpServerView | null {
    const server = this.#servers.get(name);
    if (server === undefined) return null;
    const disabled = new Set(server.config.tools.disabled);
    return {
      name,
      config: server.config,
      status: server.status(),
      tools: server.tools().map((tool) => ({
        tool,
        modelName: this.#names.get(refKey({ server: name, tool: tool.name })) ?? null,
        enabled: !disabled.has(tool.name),
      })),
      logPath: server.log.path,
      logTail: server.log.tail(),
    };
  }

  /** Every server, by name. */
  list(): McpServerView[] {
    return [...this.#servers.keys()].sort().map((name) => this.view(name)!);
  }

  /** Stops every server (their process groups, their HTTP sessions). */
  async close(): Promise<void> {
    this.#closed = true;
    const servers = [...this.#servers.values()];
    this.#servers.clear();
    this.#sync();
    await Promise.all(servers.map((server) => server.stop()));
  }

  #add(name: string, entry: McpServerConfig): void {
    const { connectTimeoutMs, restartBackoffMinMs } = this.#options;
    const server = new loadedModules!.connection.ServerConnection(name, entry, {
      logFolder: join(this.#options.logsRoot, "mcp"),
      redact: this.#options.redact,
      ...(connectTimeoutMs ? { connectTimeoutMs } : {}),
      ...(restartBackoffMinMs ? { restartBackoffMinMs } : {}),
      onChange: () => {
        if (this.#servers.get(name) !== server) return;
        this.#sync();
        this.#options.onChange?.(name);
      },
    });
    this.#servers.set(name, server);
    server.start();
  }

  /** Puts the offered tools of every ready server into the tool map, in a stable order. */
  #sync(): void {
    const offered: { ref: McpToolRef; tool: Tool; server: ServerConnection }[] = [];
    const refs: McpToolRef[] = [];
    for (const name of [...this.#servers.keys()].sort()) {
      const server = this.#servers.get(name)!;
      const disabled = new Set(server.config.tools.disabled);
      for (const tool of server.tools()) {
        const ref = { server: name, tool: tool.name };
        refs.push(ref);
        if (!disabled.has(tool.name)) offered.push({ ref, tool, server });
      }
    }
    this.#names = assignToolNames(refs);
    const map = this.#options.tools;
    for (const [id, tool] of map) if ("mcpServer" in tool) map.delete(id);
    const kept = new Map<string, { listed: Tool; definition: McpToolDefinition }>();
    for (const { ref, tool, server } of offered) {
      const name = this.#names.get(refKey(ref))!;
      const key = `${refKey(ref)}\u0000${name}\u0000${server.config.permission ?? ""}`;
      let entry = this.#definitions.get(key);
      if (entry === undefined || entry.listed !== tool) {
        entry = {
          listed: tool,
          // A ready server's tools: its connection loaded the modules before it was added.
          definition: loadedModules!.tool.mcpToolDefinition(
            { server: ref.server, name, tool, ...permissionOf(server.config) },
            (toolName, args, signal, onProgress, workspaceRoot) =>
              server.callTool(toolName, args, signal, onProgress, workspaceRoot),
          ),
        };
      }
      kept.set(key, entry);
      // A built-in tool of the same name is never replaced.
      if (!map.has(name)) map.set(name, entry.definition as ToolDefinition<unknown>);
    }
    this.#definitions.clear();
    for (const [key, entry] of kept) this.#definitions.set(key, entry);
  }
}

function permissionOf(config: McpServerConfig): { permission?: "allow" | "ask" | "deny" } {
  return config.permission ? { permission: config.permission } : {};
}
