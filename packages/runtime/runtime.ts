/**
 * A whole runtime: the core (lock, journal, hub, scheduler, services) behind the
 * HTTP / WebSocket server, with its access token. `daedalus serve` and the
 * end-to-end tests start it the same way.
 *
 * @module
 */
import {
  ensureHome,
  exportThreadChunks,
  homePaths,
  readReferencedAttachmentPaths,
} from "@daedalus/storage";
import { sweepAttachments } from "./attachments/sweep.ts";
import { openRuntimeCore, type RuntimeCore, type RuntimeCoreOptions } from "./runtime_core.ts";
import { loadOrCreateToken, TokenStore } from "./server/auth_token.ts";
import { type RunningServer, startServer } from "./server/app.ts";
import {
  AG_UI_PATH,
  agUiGatewayApp,
  difyGatewayApp,
  type GatewayAppDeps,
} from "./gateway/gateway_app.ts";
import { loginUrlFor } from "./server/login_codes.ts";
import type { ServerLimits } from "./server/limits.ts";
import { RUNTIME_VERSION } from "./version.ts";
import { SHUTDOWN_WORKER_WAIT_MS } from "./limits.ts";

/** Options of {@linkcode startRuntime}. */
export interface StartRuntimeOptions extends RuntimeCoreOptions {
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks one. */
  port: number;
  /** The built PWA to serve at `/`, when present. */
  staticRoot?: string;
  /** Transport limits other than the defaults (the HTTP read timeouts). */
  serverLimits?: Partial<ServerLimits>;
}

/** A running runtime. */
export interface Runtime {
  /** Base URL, e.g. `http://127.0.0.1:7420/`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The access token (for programs and tests; never logged, never in a login URL). */
  readonly token: string;
  /** The core. */
  readonly core: RuntimeCore;
  /**
   * Mints a one-time login code and returns the URL that carries it.
   *
   * @returns e.g. `http://127.0.0.1:7420/#code=…`
   */
  loginUrl(): Promise<string>;
  /** Resolves once a shutdown has been requested (signal or `runtime.shutdown`). */
  readonly shutdownRequested: Promise<void>;
  /** Stops accepting work, cancels Runs, closes connections and databases. */
  shutdown(): Promise<void>;
}

/**
 * Starts the runtime: opens the core on the home, loads (or creates) the access
 * token, and listens.
 *
 * @param options home, address, workers, providers, tools
 * @returns the running runtime
 * @throws {HomeLockedError} when another runtime holds the home
 * @throws {ServerStartError} `port_in_use` when the port is taken
 */
export async function startRuntime(options: StartRuntimeOptions): Promise<Runtime> {
  let requestShutdown = () => {};
  const shutdownRequested = new Promise<void>((resolve) => requestShutdown = resolve);
  const paths = homePaths(options.home);
  // The access token is a protected value before any Run (a recovered one) can start.
  await ensureHome(paths);
  const startToken = await loadOrCreateToken(paths.auth);
  const core = await openRuntimeCore({
    ...options,
    protectedSecrets: [...options.protectedSecrets ?? [], startToken],
    onShutdownRequested: () => requestShutdown(),
  });
  const protect = (secret: string) => core.protectedValues.register(secret);
  let server: RunningServer;
  let token: string;
  try {
    // Before anyone can upload: uploads nobody sent, and cut-off temp files, go.
    const referenced = core.store.read((db) => readReferencedAttachmentPaths(db));
    const swept = await sweepAttachments(paths.attachments, referenced);
    const removed = swept.unsent.length + swept.temp.length;
    if (removed > 0) console.error(`attachments: removed ${removed} stale upload(s)`);
  } catch (error) {
    // A sweep that fails costs only disk space; the runtime starts anyway.
    console.error(`attachments: sweep failed: ${(error as Error).message}`);
  }
  try {
    const authPath = paths.auth;
    token = await loadOrCreateToken(authPath);
    const tokens = await TokenStore.open(authPath, {
      onWarning: (message) => console.error(`auth: ${message}`),
      onSecretIssued: protect,
    });
    server = await startServer({
      hostname: options.host ?? "127.0.0.1",
      port: options.port,
      dispatcher: core.dispatcher,
      events: core.hub,
      tokens,
      serverVersion: RUNTIME_VERSION,
      staticRoot: options.staticRoot,
      sessionsFile: paths.sessions,
      attachmentsDir: paths.attachments,
      exportThread: (threadId, format) =>
        exportThreadChunks((fn) => core.store.read((db) => fn(db.connection)), threadId, format),
      onSecretIssued: protect,
      limits: options.serverLimits,
      mounts: gatewayMounts(core.gateway.difyPrefix, {
        dispatcher: core.dispatcher,
        store: core.store,
        live: core.hub,
        ...core.gateway,
        attachmentsDir: paths.attachments,
        redact: (text) => core.protectedValues.redact(text),
        onKeyAccepted: protect,
      }),
    });
  } catch (error) {
    await core.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const url = server.url.endsWith("/") ? server.url : `${server.url}/`;
  return {
    url,
    loginUrl: async () => loginUrlFor(url, (await server.app.mintLoginCode()).code),
    port: server.port,
    token,
    core,
    shutdownRequested,
    shutdown: () =>
      stopped ??= (async () => {
        requestShutdown();
        // Runs settle (and clients see it) before connections close.
        await core.scheduler.shutdown(SHUTDOWN_WORKER_WAIT_MS);
        await server.shutdown();
        await core.close();
      })(),
  };
}

/** The gateway's sub-apps: the Dify-compatible API (at its configured prefix) and AG-UI. */
function gatewayMounts(difyPrefix: string, deps: GatewayAppDeps) {
  return [
    { path: difyPrefix, app: difyGatewayApp(deps) },
    { path: AG_UI_PATH, app: agUiGatewayApp(deps) },
  ];
}
