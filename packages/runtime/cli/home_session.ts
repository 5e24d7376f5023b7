/**
 * A headless command's way into a home: if a runtime already holds the home, a
 * @daedalus/client WebSocket session with it (its address from `<home>/runtime.json`, its
 * token from `auth.json`), so the work shows in its open web app; otherwise the runtime
 * core opened in this process — no HTTP server, no app — and closed again (releasing the
 * lock) when the command ends. Both answer the same methods and deliver the same journal
 * events, so the commands do not care which one they got.
 *
 * @module
 */
import { HomeLockedError, homePaths } from "@daedalus/storage";
import type { JournalEvent, MethodName, ParamsOf, ResultOf } from "@daedalus/protocol";
import { readServeOptions, type ServeOptions } from "./serve_options.ts";
import { readRuntimeAddress } from "./runtime_address.ts";
import { RUNTIME_ADDRESS_POLL_MS, RUNTIME_ADDRESS_WAIT_MS } from "./limits.ts";
import { readAuthFile } from "../server/auth_token.ts";
import { formatHostHeader } from "../server/guards.ts";
import { load } from "./_load.ts";

/** An open way into a home. */
export interface HomeSession {
  /** `attached` to a running runtime, or the home opened `in_process`. */
  readonly mode: "attached" | "in_process";
  /** The runtime's base URL when attached. */
  readonly url: string | null;
  /**
   * Calls a method, as a client would over the WebSocket.
   *
   * @throws {RpcError} the method's refusal
   */
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /**
   * Subscribes to the journal events committed from now on, in seq order.
   *
   * @returns unsubscribe
   */
  onEvent(listener: (event: JournalEvent) => void): () => void;
  /** Settles with a sentence when the session is lost for good (an attached runtime went away). */
  readonly lost: Promise<string>;
  /** Closes the session: the socket, or the core (cancelling its Runs, releasing the lock). */
  close(): Promise<void>;
}

/** Options of {@linkcode openHomeSession}. */
export interface HomeSessionOptions {
  /** The `--home` flag, when given. */
  home?: string;
  /** The environment (`DAEDALUS_*`, `HOME`). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Why a session could not be opened (exit code 1). */
export class HomeSessionError extends Error {
  /** Stable code. */
  readonly code: "runtime_unreachable";

  /**
   * @param message what went wrong and what to do
   * @param options the original error as `cause`
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "HomeSessionError";
    this.code = "runtime_unreachable";
  }
}

/**
 * Opens the home in this process, or attaches to the runtime that holds it.
 *
 * @param options the home flag and the environment
 * @returns the session
 * @throws {OptionError} for a bad `DAEDALUS_*` value
 * @throws {HomeSessionError} when a runtime holds the home but cannot be reached
 * @throws {AuthFileError} when attaching and `auth.json` is missing or invalid
 */
export async function openHomeSession(options: HomeSessionOptions): Promise<HomeSession> {
  const flags = new Map(options.home === undefined ? [] : [["home", options.home]]);
  const serveOptions = readServeOptions(flags, options.env);
  // Loaded on use: an attached command never loads the agent loop, tools and SQLite, an
  // in-process one never loads the WebSocket client.
  const { openInProcessSession }: typeof import("./in_process_session.ts") = await load(
    "./in_process_session.ts",
    import.meta.url,
  );
  try {
    return await openInProcessSession(serveOptions);
  } catch (error) {
    if (!(error instanceof HomeLockedError)) throw error;
  }
  const url = await runtimeUrl(serveOptions);
  const { token } = await readAuthFile(homePaths(serveOptions.home).auth);
  const { connectToRuntime }: typeof import("./attached_session.ts") = await load(
    "./attached_session.ts",
    import.meta.url,
  );
  return await connectToRuntime(url, token, serveOptions.home);
}

/** The holder's published address, else where `serve` would listen with these options. */
async function runtimeUrl(options: ServeOptions): Promise<string> {
  const deadline = Date.now() + RUNTIME_ADDRESS_WAIT_MS;
  for (;;) {
    const address = await readRuntimeAddress(options.home);
    if (address) return reachable(address.url);
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, RUNTIME_ADDRESS_POLL_MS));
  }
  // A runtime that publishes no address (an older one): where login would look for it.
  return reachable(`http://${formatHostHeader(options.host, options.port)}/`);
}

/** A runtime bound to every interface is reached on loopback. */
function reachable(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === "0.0.0.0") parsed.hostname = "127.0.0.1";
  if (parsed.hostname === "[::]") parsed.hostname = "[::1]";
  return parsed.href;
}
