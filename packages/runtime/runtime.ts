/**
 * A whole runtime: the core (lock, journal, hub, scheduler, services) behind the
 * HTTP / WebSocket server, with its access token. `daedalus serve` and the
 * end-to-end tests start it the same way.
 *
 * @module
 */
import { homePaths, readReferencedAttachmentPaths } from "@daedalus/storage";
import { sweepAttachments } from "./attachments/sweep.ts";
import { openRuntimeCore, type RuntimeCore, type RuntimeCoreOptions } from "./runtime_core.ts";
import { loadOrCreateToken, TokenStore } from "./server/auth_token.ts";
import { type RunningServer, startServer } from "./server/app.ts";
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
  /** The access token (for the login URL and for tests; never logged). */
  readonly token: string;
  /** The core. */
  readonly core: RuntimeCore;
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
  const core = await openRuntimeCore({
    ...options,
    onShutdownRequested: () => requestShutdown(),
  });
  let server: RunningServer;
  let token: string;
  const paths = homePaths(options.home);
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
      limits: options.serverLimits,
    });
  } catch (error) {
    await core.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: server.url.endsWith("/") ? server.url : `${server.url}/`,
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
