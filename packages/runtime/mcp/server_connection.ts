/**
 * One configured MCP server: its connection through the official SDK client, its status
 * (`connecting`, `ready`, `failed` with the reason, `disabled`), its tools (every page of
 * `tools/list`, read again on `notifications/tools/list_changed`) and its calls. A server
 * that crashes, closes its connection or fails to start is started again after a backoff,
 * a few times a minute at most (`restart_policy.ts`); then it stays failed until
 * `mcp.restart`. Nothing here blocks the runtime: connecting runs in the background and a
 * failure only changes the status.
 *
 * A ready Streamable HTTP server is pinged every {@linkcode MCP_HTTP_PING_INTERVAL_MS}
 * (`session_health.ts`): a ping that fails marks it failed with the reason and restarts it
 * with the same backoff; a 404 (the spec's "session expired") starts a new session at once.
 *
 * Roots are offered: `roots/list` is answered with the workspaces of the Runs whose calls
 * are on this server at that moment (a server asks while it serves a call; asked at
 * another time, the list is empty, and server-filesystem then keeps its own folders).
 * Sampling and elicitation are not: the SDK answers them `-32601` (method not found).
 *
 * @module
 */
import {
  Client,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type Progress,
  StreamableHTTPClientTransport,
  StreamableHTTPError,
  type Tool,
  ToolListChangedNotificationSchema,
} from "./_sdk.ts";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerConfig } from "@daedalus/storage";
import { ToolError, type ToolProgress, type ToolResult } from "@daedalus/tools";
import { RUNTIME_VERSION } from "../version.ts";
import {
  MCP_CONNECT_TIMEOUT_MS,
  MCP_HTTP_PING_INTERVAL_MS,
  MCP_HTTP_PING_TIMEOUT_MS,
  MCP_TOOL_PAGES_MAX,
  MCP_TOOLS_PER_SERVER_MAX,
} from "../limits.ts";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";
import { ServerLog } from "./server_log.ts";
import { RestartPolicy } from "./restart_policy.ts";
import { mcpImages, mcpToolResult } from "./call_result.ts";
import type { McpCallAnswer } from "./mcp_tool.ts";
import { jsonSchemaParams } from "./mcp_tool.ts";
import { pingFailure, type PingTimers, SessionPinger } from "./session_health.ts";

/** Where a server stands. */
export type McpServerState = "connecting" | "ready" | "failed" | "disabled";

/** A server's status as `mcp.list` shows it. */
export interface McpConnectionStatus {
  /** Where it stands. */
  state: McpServerState;
  /** Why it failed (or what it is doing), else null. */
  message: string | null;
  /** The negotiated protocol version, once connected. */
  protocolVersion: string | null;
  /** The server's own name and version from `initialize`. */
  serverInfo: { name: string; version: string } | null;
  /** The HTTP session id, when the server gave one. */
  sessionId: string | null;
  /** The stdio child's pid while it runs. */
  pid: number | null;
  /** Automatic restarts since the runtime started (or since `mcp.restart`). */
  restarts: number;
}

/** What a connection needs from its owner. */
export interface ServerConnectionDeps {
  /** `<home>/logs/mcp`. */
  readonly logFolder: string;
  /** The runtime's credential redaction (logs and messages). */
  readonly redact: (text: string) => string;
  /** Told after every change of status or tools. */
  readonly onChange: () => void;
  /** How long `initialize` and each tools/list page may take (default 30 s; tests lower it). */
  readonly connectTimeoutMs?: number;
  /** The first wait before a restart (default 0.5 s: `MCP_RESTART_BACKOFF_MIN_MS`). */
  readonly restartBackoffMinMs?: number;
  /** Time between pings of a ready HTTP session (default `MCP_HTTP_PING_INTERVAL_MS`). */
  readonly pingIntervalMs?: number;
  /** How long a ping may take (default `MCP_HTTP_PING_TIMEOUT_MS`). */
  readonly pingTimeoutMs?: number;
  /** The timers pings are scheduled with (the platform's by default; tests step time). */
  readonly pingTimers?: PingTimers;
}

const NOT_CONNECTED: Omit<McpConnectionStatus, "state" | "message" | "restarts"> = {
  protocolVersion: null,
  serverInfo: null,
  sessionId: null,
  pid: null,
};

/** One MCP server's connection. */
export class ServerConnection {
  /** The server's configured name. */
  readonly name: string;
  #config: McpServerConfig;
  /** Its stderr log (stdio) and the runtime's notes about it. */
  readonly log: ServerLog;
  readonly #deps: ServerConnectionDeps;
  #status: McpConnectionStatus;
  #tools: readonly Tool[] = [];
  #client: Client | null = null;
  #transport: ProcessGroupStdioTransport | StreamableHTTPClientTransport | null = null;
  #stopped = false;
  #restartTimer: ReturnType<typeof setTimeout> | null = null;
  readonly #restarts: RestartPolicy;
  #refreshing: Promise<void> | null = null;
  /** The workspace of each call in flight (what `roots/list` answers). */
  readonly #callRoots = new Map<number, string>();
  #nextCall = 1;
  #refreshAgain = false;
  /** Pings the HTTP session while it is ready. */
  #pinger: SessionPinger | null = null;

  /**
   * @param name the server's name
   * @param config its entry
   * @param deps log folder, redaction, change listener
   */
  constructor(name: string, config: McpServerConfig, deps: ServerConnectionDeps) {
    this.name = name;
    this.#config = config;
    this.#deps = deps;
    this.log = new ServerLog(deps.logFolder, name, deps.redact);
    this.#restarts = new RestartPolicy(deps.restartBackoffMinMs);
    this.#status = {
      ...NOT_CONNECTED,
      state: config.enabled ? "connecting" : "disabled",
      message: null,
      restarts: 0,
    };
  }

  /** Its entry in config.yaml. */
  get config(): McpServerConfig {
    return this.#config;
  }

  /**
   * Whether an entry can replace this one without reconnecting: the same way to reach
   * the same server (only the timeout, switched-off tools or permission differ).
   *
   * @param entry the new entry
   * @returns true when {@linkcode ServerConnection.adopt} may take it
   */
  sameConnection(entry: McpServerConfig): boolean {
    const reach = ({ command, args, env, cwd, url, headers, enabled }: McpServerConfig) =>
      JSON.stringify([command, args, env, cwd, url, headers, enabled]);
    return reach(entry) === reach(this.#config);
  }

  /**
   * Takes a new entry that reaches the server the same way (see
   * {@linkcode ServerConnection.sameConnection}); the connection stays as it is.
   *
   * @param entry the new entry
   */
  adopt(entry: McpServerConfig): void {
    this.#config = entry;
    this.#deps.onChange();
  }

  get #connectTimeoutMs(): number {
    return this.#deps.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  }

  /** `stdio` or `http`. */
  get transport(): "stdio" | "http" {
    return this.config.command !== undefined ? "stdio" : "http";
  }

  /** Its status now (a copy). */
  status(): McpConnectionStatus {
    return { ...this.#status };
  }

  /** The tools it listed (the callable ones: a task-only tool cannot be called plainly). */
  tools(): readonly Tool[] {
    return this.#status.state === "ready" ? this.#tools : [];
  }

  /** Starts connecting in the background (nothing to do for a disabled server). */
  start(): void {
    if (!this.config.enabled || this.#stopped) return;
    void this.#connect();
  }

  /**
   * Stops and starts it again now, forgetting earlier crashes (`mcp.restart`).
   *
   * @returns once the new connection is ready or failed
   */
  async restart(): Promise<void> {
    if (!this.config.enabled) return;
    this.#clearRestart();
    this.#restarts.reset();
    this.#status.restarts = 0;
    await this.#disconnect();
    this.#stopped = false;
    await this.#connect();
  }

  /** Ends it for good: the child's process group is stopped, an HTTP session deleted. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearRestart();
    await this.#disconnect();
  }

  /**
   * Calls one of its tools.
   *
   * @param tool the tool's own name
   * @param args validated arguments
   * @param signal the Run's cancellation (sent on as `notifications/cancelled`)
   * @param onProgress told each progress notification of the call
   * @param workspaceRoot the calling Run's workspace (a root while the call runs)
   * @returns the mapped result and its image blocks
   * @throws {ToolError} `mcp_server_unavailable`, `mcp_timeout`, `cancelled`, `mcp_call_failed`
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (update: ToolProgress) => void,
    workspaceRoot?: string,
  ): Promise<McpCallAnswer> {
    const client = this.#client;
    if (this.#status.state !== "ready" || client === null) {
      const why = this.#status.message ? `: ${this.#status.message}` : "";
      throw new ToolError(
        "mcp_server_unavailable",
        `MCP server ${this.name} is ${this.#status.state}${why}`,
      );
    }
    let progress: Progress | undefined;
    const call = this.#nextCall++;
    if (workspaceRoot) this.#callRoots.set(call, workspaceRoot);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.config.timeout_ms,
        onprogress: (update) => {
          progress = update;
          onProgress?.({
            progress: update.progress,
            ...(update.total === undefined ? {} : { total: update.total }),
            ...(update.message === undefined ? {} : { message: update.message }),
          });
        },
      });
      const mapped: ToolResult = mcpToolResult(result as never, { server: this.name, tool });
      const images = result.isError === true ? [] : mcpImages(result as never);
      return progress === undefined ? { result: mapped, images } : {
        result: { ...mapped, details: { ...mapped.details, progress: { ...progress } } },
        images,
      };
    } catch (error) {
      throw this.#callError(tool, error, signal);
    } finally {
      this.#callRoots.delete(call);
    }
  }

  /** The roots offered now: the workspaces of the calls in flight, each once. */
  #roots(): { uri: string; name: string }[] {
    return [...new Set(this.#callRoots.values())].map((root) => ({
      uri: pathToFileURL(root).href,
      name: basename(root),
    }));
  }

  #callError(tool: string, error: unknown, signal: AbortSignal): ToolError {
    if (signal.aborted) return new ToolError("cancelled", `The ${tool} call was cancelled`);
    const said = this.#deps.redact(error instanceof Error ? error.message : String(error));
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolError(
        "mcp_timeout",
        `${tool} on MCP server ${this.name} did not answer within ` +
          `${this.config.timeout_ms} ms; the call was cancelled`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new ToolError(
        "mcp_server_unavailable",
        `MCP server ${this.name} closed the connection during ${tool}`,
      );
    }
    if (!(error instanceof McpError) && this.transport === "http") {
      // The endpoint is gone or the session expired: reconnect in the background.
      if (error instanceof StreamableHTTPError && error.code === 404) {
        this.#newSession(`the session expired (404 during ${tool}); starting a new session`);
      } else {
        this.#failed(`the call failed: ${said}`);
      }
    }
    return new ToolError("mcp_call_failed", `${tool} failed on MCP server ${this.name}: ${said}`);
  }

  /** @param doing what the status says while connecting (why, for a new session) */
  async #connect(doing: string | null = null): Promise<void> {
    this.#stopPinging();
    this.#set({ ...NOT_CONNECTED, state: "connecting", message: doing });
    const client = new Client({ name: "daedalus", version: RUNTIME_VERSION }, {
      capabilities: { roots: {} },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.#roots() }));
    const transport = this.#makeTransport();
    this.#client = client;
    this.#transport = transport;
    client.onclose = () => {
      if (this.#client !== client) return; // an old connection, replaced on purpose
      const ended = transport instanceof ProcessGroupStdioTransport ? transport.endReason : null;
      this.#failed(ended ?? "the connection closed");
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.#client === client) void this.#refreshTools(client);
    });
    try {
      await client.connect(transport, { timeout: this.#connectTimeoutMs });
      const tools = await this.#listTools(client);
      if (this.#client !== client) return;
      this.#tools = tools;
      this.#restarts.ready();
      const info = client.getServerVersion();
      this.#set({
        state: "ready",
        message: null,
        protocolVersion: transport instanceof ProcessGroupStdioTransport
          ? transport.protocolVersion
          : transport.protocolVersion ?? null,
        serverInfo: info ? { name: info.name, version: info.version } : null,
        sessionId: transport instanceof StreamableHTTPClientTransport
          ? transport.sessionId ?? null
          : null,
        pid: transport instanceof ProcessGroupStdioTransport ? transport.pid : null,
      });
      void this.log.note(`ready: ${tools.length} tools`);
      if (transport instanceof StreamableHTTPClientTransport) this.#startPinging(client);
    } catch (error) {
      if (this.#client !== client) return;
      const ended = transport instanceof ProcessGroupStdioTransport ? transport.endReason : null;
      const said = error instanceof Error ? error.message : String(error);
      this.#failed(ended && ended !== "closed" ? ended : said);
    }
  }

  #makeTransport(): ProcessGroupStdioTransport | StreamableHTTPClientTransport {
    const config = this.config;
    if (config.command !== undefined) {
      return new ProcessGroupStdioTransport({
        command: config.command,
        args: config.args ?? [],
        env: config.env ?? {},
        ...(config.cwd ? { cwd: config.cwd } : {}),
      }, this.log);
    }
    return new StreamableHTTPClientTransport(new URL(config.url!), {
      requestInit: { headers: { ...config.headers } },
    });
  }

  /** Every page, bounded; a tool that needs task augmentation cannot be called plainly. */
  async #listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MCP_TOOL_PAGES_MAX; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: this.#connectTimeoutMs,
      });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    const callable = tools.filter((tool) => tool.execution?.taskSupport !== "required");
    for (const tool of callable) {
      try {
        jsonSchemaParams(tool.inputSchema as Record<string, unknown>);
      } catch (error) {
        throw new Error(`tool ${tool.name} has an input schema that cannot be used: ${error}`);
      }
    }
    return callable.slice(0, MCP_TOOLS_PER_SERVER_MAX);
  }

  /** Reads the list again; a change during a read reads once more after it. */
  async #refreshTools(client: Client): Promise<void> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return await this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#refreshAgain = false;
        try {
          const tools = await this.#listTools(client);
          if (this.#client !== client || this.#status.state !== "ready") return;
          this.#tools = tools;
          this.#deps.onChange();
        } catch (error) {
          if (this.#client !== client) return;
          this.#failed(`tools/list failed: ${error instanceof Error ? error.message : error}`);
          return;
        }
      } while (this.#refreshAgain);
    })().finally(() => this.#refreshing = null);
    await this.#refreshing;
  }

  /** Pings the ready HTTP session; a failed ping fails it, or starts a new session (404). */
  #startPinging(client: Client): void {
    const timeoutMs = this.#deps.pingTimeoutMs ?? MCP_HTTP_PING_TIMEOUT_MS;
    const pinger = new SessionPinger({
      ping: (timeout) => client.ping({ timeout }),
      onFailure: (error) => {
        if (this.#client !== client || this.#pinger !== pinger) return;
        const failure = pingFailure(error, timeoutMs);
        if (failure.sessionExpired) this.#newSession(failure.message);
        else this.#failed(failure.message);
      },
      intervalMs: this.#deps.pingIntervalMs ?? MCP_HTTP_PING_INTERVAL_MS,
      timeoutMs,
      ...(this.#deps.pingTimers ? { timers: this.#deps.pingTimers } : {}),
    });
    this.#pinger = pinger;
    pinger.start();
  }

  #stopPinging(): void {
    this.#pinger?.stop();
    this.#pinger = null;
  }

  /**
   * The server forgot the session (404): drop it (no DELETE: it is gone) and initialize a
   * new one now; a new session that fails takes the usual failure path and its backoff.
   */
  #newSession(reason: string): void {
    if (this.#stopped) return;
    const message = this.#deps.redact(reason);
    void this.log.note(message);
    const old = this.#client;
    this.#client = null;
    this.#transport = null;
    void old?.close().catch(() => {});
    void this.#connect(message);
  }

  /** Fails the server with a reason and, unless stopped or over its limit, restarts it. */
  #failed(reason: string): void {
    if (this.#stopped) return;
    this.#stopPinging();
    const message = this.#deps.redact(reason);
    void this.log.note(`failed: ${message}`);
    const old = this.#client;
    this.#client = null;
    this.#transport = null;
    void old?.close().catch(() => {});
    const wait = this.#restarts.afterFailure();
    if (wait === null) {
      this.#set({
        ...NOT_CONNECTED,
        state: "failed",
        message: `${message} (restarted ${this.#restarts.recentRestarts} times within a minute; ` +
          "not restarting again until mcp.restart)",
      });
      return;
    }
    this.#set({ ...NOT_CONNECTED, state: "failed", message });
    this.#clearRestart();
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = null;
      if (this.#stopped) return;
      this.#restarts.restarted();
      this.#status.restarts++;
      void this.#connect();
    }, wait);
  }

  async #disconnect(): Promise<void> {
    this.#stopPinging();
    const client = this.#client;
    const transport = this.#transport;
    this.#client = null;
    this.#transport = null;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => {});
    }
    await client?.close().catch(() => {});
    if (!this.config.enabled) return;
    this.#set({ ...NOT_CONNECTED, state: "failed", message: "stopped" });
  }

  #clearRestart(): void {
    if (this.#restartTimer !== null) clearTimeout(this.#restartTimer);
    this.#restartTimer = null;
  }

  #set(status: Omit<McpConnectionStatus, "restarts">): void {
    this.#status = { ...status, restarts: this.#status.restarts };
    this.#deps.onChange();
  }
}
