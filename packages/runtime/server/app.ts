/**
 * The runtime's HTTP surface, assembled: the Host guard on every request, `GET
 * /health`, the session routes, `POST /rpc`, `GET /ws`, (optionally) `POST /upload` and
 * `GET /attachments/<image>`, (optionally) `GET /api/threads/<id>/export`, `POST
 * /auth/login-code`, and the PWA's files (with the
 * browser security headers); and {@linkcode startServer}, which serves it on `Deno.serve`.
 *
 * @example
 * ```ts ignore
 * const server = await startServer({
 *   hostname: "127.0.0.1",
 *   port: 7420,
 *   dispatcher,
 *   events,
 *   tokens: await TokenStore.open(`${home}/auth.json`),
 *   serverVersion: RUNTIME_VERSION,
 * });
 * console.log(JSON.stringify({ ready: true, url: server.url, port: server.port }));
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import type { Dispatcher, EventSource } from "./dispatcher.ts";
import type { TokenStore } from "./auth_token.ts";
import { requireAuth, type ServerEnv, sessionRoutes } from "./auth.ts";
import { SessionStore } from "./session_store.ts";
import { LoginCodeStore, type MintedLoginCode } from "./login_codes.ts";
import { loginCodeRoute } from "./login_code_route.ts";
import { allowedHostHeaders, type BoundAddress, formatHostHeader, hostGuard } from "./guards.ts";
import { httpRpcHandler } from "./http_rpc.ts";
import { ConnectionRegistry, webSocketHandler, WS_CLOSE_CODES } from "./ws_connection.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits, TOKEN_SWEEP_INTERVAL_MS } from "./limits.ts";
import { type GuardedServeOptions, type GuardedServer, serveGuarded } from "./connection_guard.ts";
import { jsonResponse, RequestBodyAbortedError, transportError } from "./_http.ts";
import { reportToStderr, type ServerErrorReporter } from "./_rpc_call.ts";

export type { ServerErrorReporter };
import { staticFilesHandler } from "./_static_files.ts";
import { uploadHandler } from "./upload.ts";
import { attachmentImagesHandler } from "./attachment_images.ts";
import { type ThreadExporter, threadExportHandler } from "./thread_export.ts";

/** What {@linkcode createServerApp} needs. */
export interface ServerAppOptions {
  /** Runs the methods. */
  dispatcher: Dispatcher;
  /** The committed events pushed to WebSocket clients. */
  events: EventSource;
  /** The access token. */
  tokens: TokenStore;
  /** The runtime's version, reported by `initialize`. */
  serverVersion: string;
  /** Where the server listens, for the Host guard. */
  bound: BoundAddress;
  /** Limits to change; the rest are {@linkcode DEFAULT_SERVER_LIMITS}. */
  limits?: Partial<ServerLimits>;
  /** A directory of static files (the built PWA) served at `/`. */
  staticRoot?: string;
  /** Where internal errors go; default one line on stderr. Never given a credential. */
  report?: ServerErrorReporter;
  /** `sessions.json`, so browser sessions survive restarts; in memory only without. */
  sessionsFile?: string;
  /** Where `POST /upload` stores attachments (`<home>/attachments`); no upload route without. */
  attachmentsDir?: string;
  /** Told every secret the server issues (session ids), so the runtime can protect it. */
  onSecretIssued?: (secret: string) => void;
  /** A thread's export for `GET /api/threads/:threadId/export`; no export route without. */
  exportThread?: ThreadExporter;
  /**
   * Sub-apps mounted at their paths before the PWA's files, with their own auth (the
   * gateway's app keys): the owner's token and sessions are not checked for them.
   */
  mounts?: readonly { path: string; app: Hono<GatewayMountEnv> }[];
}

/** The env of a mounted sub-app: its own variables, none of the server's. */
// deno-lint-ignore no-explicit-any
export type GatewayMountEnv = any;

/** The assembled app. */
export interface ServerApp {
  /** The Hono app: more routes may be mounted on it (they get the Host guard too). */
  readonly hono: Hono<ServerEnv>;
  /** The open WebSocket connections. */
  readonly connections: ConnectionRegistry;
  /** The browser sessions. */
  readonly sessions: SessionStore;
  /** The unredeemed one-time login codes. */
  readonly loginCodes: LoginCodeStore;
  /**
   * Mints a one-time login code under the current token.
   *
   * @returns the code and its expiry
   * @throws {Error} while `auth.json` is missing or invalid (no token, no code)
   */
  mintLoginCode(): Promise<MintedLoginCode>;
  /**
   * Answers one request.
   *
   * @param request the request
   * @returns the response
   */
  fetch(request: Request): Response | Promise<Response>;
  /** Stops listening for token rotations (the server is going away). */
  dispose(): void;
}

/**
 * Builds the app.
 *
 * @param options the dispatcher, the events, the token, where it is bound, limits
 * @returns the app
 */
export function createServerApp(options: ServerAppOptions): ServerApp {
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const report = options.report ?? reportToStderr;
  const { tokens, dispatcher, events, serverVersion } = options;
  const sessions = new SessionStore({
    maxCount: limits.sessionsMaxCount,
    file: options.sessionsFile,
    onSecretIssued: options.onSecretIssued,
  });
  const loginCodes = new LoginCodeStore();
  const connections = new ConnectionRegistry();
  const revoked = (reason: string) => [WS_CLOSE_CODES.credentialsRevoked, reason] as const;
  const stopWatching = tokens.onRotation((generation) => {
    sessions.dropOtherGenerations(generation);
    loginCodes.dropOtherGenerations(generation);
    connections.closeWhere(
      (connection) => connection.auth.generation !== generation,
      ...revoked("token rotated; sign in again"),
    );
  });

  const hono = new Hono<ServerEnv>();
  hono.use("*", hostGuard(allowedHostHeaders(options.bound)));
  hono.get("/health", () => jsonResponse(200, '{"ok":true}'));
  hono.route(
    "/",
    sessionRoutes({
      tokens,
      sessions,
      loginCodes,
      maxBodyBytes: limits.authBodyMaxBytes,
      onLogout: (sessionKey) =>
        connections.closeWhere(
          (connection) => connection.auth.sessionKey === sessionKey,
          ...revoked("logged out"),
        ),
    }),
  );
  hono.route("/", loginCodeRoute({ tokens, sessions, loginCodes }));
  hono.post(
    "/rpc",
    requireAuth({ tokens, sessions }),
    httpRpcHandler({
      dispatcher,
      events,
      serverVersion,
      maxBodyBytes: limits.rpcBodyMaxBytes,
      report,
    }),
  );
  hono.get(
    "/ws",
    requireAuth({ tokens, sessions, acceptSubprotocol: true }),
    webSocketHandler({
      dispatcher,
      events,
      tokens,
      sessions,
      serverVersion,
      connections,
      limits,
      report,
    }),
  );
  if (options.attachmentsDir !== undefined) {
    hono.post(
      "/upload",
      requireAuth({ tokens, sessions }),
      uploadHandler({ dir: options.attachmentsDir, maxBodyBytes: limits.uploadBodyMaxBytes }),
    );
    hono.get(
      "/attachments/:name",
      requireAuth({ tokens, sessions, sameOriginEmbeds: true }),
      attachmentImagesHandler(options.attachmentsDir),
    );
  }
  if (options.exportThread !== undefined) {
    // Side-effect free, so a same-origin fetch without an Origin header may use the cookie.
    hono.get(
      "/api/threads/:threadId/export",
      requireAuth({ tokens, sessions, sameOriginEmbeds: true }),
      threadExportHandler(options.exportThread),
    );
  }
  for (const mount of options.mounts ?? []) hono.route(mount.path, mount.app);
  if (options.staticRoot !== undefined) hono.get("*", staticFilesHandler(options.staticRoot));
  hono.notFound(() => transportError(404, "not_found", "Not found"));
  hono.onError((error) => {
    if (error instanceof RequestBodyAbortedError) {
      report(error.message, "handling a request"); // one line: a trace would say nothing more
      return transportError(400, "request_aborted", error.message);
    }
    report(error, "handling a request");
    return transportError(500, "internal_error", "Internal error");
  });

  return {
    hono,
    connections,
    sessions,
    loginCodes,
    mintLoginCode: async () => {
      const generation = await tokens.currentGeneration();
      if (generation === null) {
        throw new Error("No usable access token: auth.json is missing or invalid");
      }
      return loginCodes.mint(generation);
    },
    fetch: (request) => hono.fetch(request),
    dispose: stopWatching,
  };
}

/** What {@linkcode startServer} needs: the app's options, minus `bound`, plus where to listen. */
export interface StartServerOptions extends Omit<ServerAppOptions, "bound"> {
  /** The hostname to bind (`127.0.0.1` unless the user said otherwise). */
  hostname: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** More hostnames the Host guard accepts (for a non-loopback bind). */
  extraHostnames?: readonly string[];
  /** How often to re-check `auth.json` for a rotation; default {@linkcode TOKEN_SWEEP_INTERVAL_MS}. */
  tokenSweepIntervalMs?: number;
}

/** A listening server. */
export interface RunningServer {
  /** The base URL, e.g. `http://127.0.0.1:7420`. */
  readonly url: string;
  /** The bound hostname. */
  readonly hostname: string;
  /** The bound port (the real one when 0 was asked). */
  readonly port: number;
  /** The app it serves. */
  readonly app: ServerApp;
  /** Closes every WebSocket with 1001, stops listening and waits for open requests. */
  shutdown(): Promise<void>;
}

/** Why the server could not start. */
export type ServerStartErrorCode = "port_in_use" | "listen_failed";

/** Thrown by {@linkcode startServer} when it cannot listen. */
export class ServerStartError extends Error {
  /** What went wrong, stable for callers. */
  readonly code: ServerStartErrorCode;

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param message a sentence naming the address
   * @param options the original error as `cause`
   */
  constructor(code: ServerStartErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ServerStartError";
    this.code = code;
  }
}

/**
 * Listens on `hostname:port` and serves the app. Prints nothing (stdout belongs to
 * the ready line).
 *
 * @param options where to listen and what the app needs
 * @returns the running server
 * @throws {ServerStartError} `port_in_use` when the port is taken, `listen_failed` otherwise
 */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { hostname } = options;
  const target: { app: ServerApp | null } = { app: null };
  let server: GuardedServer;
  try {
    // `target.app` is set right below, before the event loop can deliver any request.
    const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
    server = listen({
      hostname,
      port: options.port,
      headerReadTimeoutMs: limits.httpHeaderReadTimeoutMs,
      bodyReadTimeoutMs: limits.httpBodyReadTimeoutMs,
    }, (request) => target.app?.fetch(request) ?? unready());
  } catch (error) {
    return Promise.reject(error);
  }
  const port = server.addr.port;
  const running = createServerApp({
    ...options,
    bound: { hostname, port, extraHostnames: options.extraHostnames },
  });
  target.app = running;
  const report = options.report ?? reportToStderr;
  const sweep = setInterval(() => {
    options.tokens.refresh().catch((error) => report(error, "re-checking auth.json"));
  }, options.tokenSweepIntervalMs ?? TOKEN_SWEEP_INTERVAL_MS);
  let stopping: Promise<void> | null = null;
  const urlHost = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  return Promise.resolve({
    url: `http://${formatHostHeader(urlHost, port)}`,
    hostname,
    port,
    app: running,
    shutdown: () => {
      stopping ??= (async () => {
        clearInterval(sweep);
        running.dispose();
        running.connections.closeAll(WS_CLOSE_CODES.goingAway, "server shutting down");
        await server.shutdown();
        // A login or logout just before the shutdown still reaches sessions.json.
        await running.sessions.flushed();
      })();
      return stopping;
    },
  });
}

function listen(
  options: GuardedServeOptions,
  handler: (request: Request) => Response | Promise<Response>,
): GuardedServer {
  const where = formatHostHeader(options.hostname, options.port);
  try {
    return serveGuarded(options, handler);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new ServerStartError("port_in_use", `${where} is already in use`, { cause: error });
    }
    throw new ServerStartError("listen_failed", `Cannot listen on ${where}`, { cause: error });
  }
}

function unready(): Response {
  return transportError(503, "internal_error", "The server is starting");
}
