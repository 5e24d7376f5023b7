/**
 * The thin accept layer in front of `Deno.serve` that closes slow or stalled connections.
 * Deno 2.9's `Deno.serve` has no header or body read timeout (hyper's is never armed; a
 * socket that sends nothing stays open for ever), so the runtime listens itself, times
 * each request's header block and body as the bytes pass (see `_request_framing.ts`), and
 * hands the bytes to `Deno.serve` on a private Unix socket (a loopback port where Unix
 * sockets are missing). A connection is closed (with `408` while a header block is part-way
 * in or when nothing was ever sent; a stalled body is cut without an answer, as Deno's
 * server may be answering it already) when
 *
 * - its request's header block is not complete {@linkcode HTTP_HEADER_READ_TIMEOUT_MS}
 *   after its first byte (or after the connection opened, or after the previous response's
 *   last byte: an idle keep-alive connection counts as a request that never starts);
 * - its body is not complete {@linkcode HTTP_BODY_READ_TIMEOUT_MS} after its headers.
 *
 * While the server works on a request nothing is timed; a granted WebSocket upgrade is
 * passed through untimed (the WebSocket layer has its own limits).
 *
 * Known limit: answers are not parsed, only their first bytes seen. A client that pipelines
 * a request behind another (browsers and Deno's fetch do not) has the header timeout
 * running from the first answer's bytes on, so work on the second request that takes
 * longer than {@linkcode HTTP_HEADER_READ_TIMEOUT_MS} closes the connection.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { isInterimResponse, RequestFraming } from "./_request_framing.ts";
import { HTTP_HEADER_MAX_BYTES } from "./limits.ts";
import {
  BACKEND_FOLDER_PREFIX,
  BACKEND_SOCKET_NAME,
  sweepStaleBackendFolders,
} from "./_stale_backends.ts";

/** Where and how strictly {@linkcode serveGuarded} listens. */
export interface GuardedServeOptions {
  /** The hostname to bind. */
  hostname: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** Longest a request's header block may take. */
  headerReadTimeoutMs: number;
  /** Longest a request's body may take after its headers. */
  bodyReadTimeoutMs: number;
  /**
   * Where the private socket's folder is made and stale ones are swept (default: the
   * system temp directory). Tests pass their own, as TMPDIR is shared by parallel tests.
   */
  backendParent?: string;
}

/** A guarded server. */
export interface GuardedServer {
  /** The public address. */
  readonly addr: Deno.NetAddr;
  /** How many client connections are open now. */
  readonly openConnections: number;
  /** Stops accepting, lets `Deno.serve` finish open requests, closes every connection. */
  shutdown(): Promise<void>;
}

/** Read buffer per direction of a connection: small, as a stalled socket holds one too. */
const CONNECTION_BUFFER_BYTES = 16 * 1024;

/** How long shutdown lets connections pass on the server's last bytes before closing them. */
const SHUTDOWN_DRAIN_MS = 1_000;

/** The pause after an accept failed for another reason than the close (e.g. `EMFILE`). */
const ACCEPT_RETRY_DELAY_MS = 100;

const REQUEST_TIMEOUT = new TextEncoder().encode(
  "HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
);

/**
 * Listens on `hostname:port` and serves `handler` behind the connection guard.
 *
 * @param options where to listen, the timeouts
 * @param handler the request handler, as for `Deno.serve`
 * @returns the server
 * @throws {Deno.errors.AddrInUse} when the port is taken, or what `Deno.listen` throws
 */
export function serveGuarded(
  options: GuardedServeOptions,
  handler: (request: Request) => Response | Promise<Response>,
): GuardedServer {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  let backend: PrivateBackend;
  try {
    backend = startPrivateBackend(handler, options.backendParent);
  } catch (error) {
    listener.close();
    throw error;
  }
  const open = new Set<GuardedConnection>();
  let stopping: Promise<void> | null = null;
  const accepting = acceptConnections(listener, () => stopping !== null, (conn) => {
    // Without it Nagle holds the frames that follow a small answer until the client's
    // delayed ACK: ~40 ms on every tool turn (Deno.serve sets it on its own sockets).
    conn.setNoDelay(true);
    const guarded = new GuardedConnection(conn, backend.connect, options, () => {
      open.delete(guarded);
    });
    open.add(guarded);
    guarded.start();
  });
  return {
    addr: listener.addr as Deno.NetAddr,
    get openConnections() {
      return open.size;
    },
    shutdown: () =>
      stopping ??= (async () => {
        listener.close();
        await accepting;
        // A connection that never sent a byte has nothing to finish: it is not drained.
        for (const connection of [...open]) connection.closeIfSilent();
        await backend.server.shutdown();
        // What the server sent last (a WebSocket's 1001 close frame) is still being passed on.
        let drainTimer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all([...open].map((connection) => connection.closed)),
          new Promise((resolve) => drainTimer = setTimeout(resolve, SHUTDOWN_DRAIN_MS)),
        ]);
        clearTimeout(drainTimer);
        for (const connection of [...open]) connection.close();
        await backend.sweeping;
        await backend.cleanUp();
      })(),
  };
}

/**
 * Accepts connections until the listener is closed. A failed accept that is not the close
 * (too many open files, a handshake reset before it was accepted) waits
 * {@linkcode ACCEPT_RETRY_DELAY_MS} and goes on: ending the loop there would leave the
 * runtime running but deaf, as the listener's async iterator does on such an error.
 *
 * @param listener where connections arrive
 * @param stopped whether shutdown began (then any failure ends the loop)
 * @param onConnection takes each accepted connection
 * @param retryDelayMs the pause after a failed accept
 * @returns resolves once the listener is closed
 */
export async function acceptConnections<C extends Deno.Conn>(
  listener: Pick<Deno.Listener<C>, "accept">,
  stopped: () => boolean,
  onConnection: (conn: C) => void,
  retryDelayMs: number = ACCEPT_RETRY_DELAY_MS,
): Promise<void> {
  for (;;) {
    let conn: C;
    try {
      conn = await listener.accept();
    } catch (error) {
      const closed = error instanceof Deno.errors.BadResource ||
        error instanceof Deno.errors.Interrupted;
      if (closed || stopped()) return;
      // Not reported: under descriptor exhaustion this repeats every pause; the open
      // connections are the cause, and their own timeouts end the stalled ones.
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      continue;
    }
    if (stopped()) {
      closeQuietly(conn);
      return;
    }
    onConnection(conn);
  }
}

interface PrivateBackend {
  server: Deno.HttpServer;
  connect: () => Promise<Deno.Conn>;
  cleanUp: () => Promise<void>;
  /** The sweep of folders crashed runtimes left (never rejects). */
  sweeping: Promise<void>;
}

/**
 * `Deno.serve` where only this process can reach it: a Unix socket in a 0700 folder. The
 * folders that killed runtimes left beside it are swept meanwhile (`_stale_backends.ts`).
 */
function startPrivateBackend(
  handler: (request: Request) => Response | Promise<Response>,
  parent: string | undefined,
): PrivateBackend {
  const quiet = { onListen: () => {/* the caller prints the ready line */} };
  let dir: string | null = null;
  try {
    dir = Deno.makeTempDirSync({ prefix: BACKEND_FOLDER_PREFIX, dir: parent });
    const path = join(dir, BACKEND_SOCKET_NAME);
    const server = Deno.serve({ ...quiet, transport: "unix", path }, handler);
    const own = dir;
    return {
      server,
      connect: () => Deno.connect({ transport: "unix", path }),
      cleanUp: () => Deno.remove(own, { recursive: true }).catch(() => {}),
      // Best effort: a folder that cannot be swept costs a few bytes of the temp directory.
      sweeping: sweepStaleBackendFolders(dirname(own), own).then(() => {}, () => {}),
    };
  } catch {
    // No Unix sockets here (older Windows): a loopback port the guard alone talks to.
    if (dir !== null) Deno.removeSync(dir, { recursive: true });
    const server = Deno.serve({ ...quiet, hostname: "127.0.0.1", port: 0 }, handler);
    const port = server.addr.port;
    return {
      server,
      connect: async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        conn.setNoDelay(true);
        return conn;
      },
      cleanUp: () => Promise.resolve(),
      sweeping: Promise.resolve(),
    };
  }
}

/** One client connection and its private counterpart. */
class GuardedConnection {
  readonly #client: Deno.Conn;
  readonly #connectBackend: () => Promise<Deno.Conn>;
  readonly #options: GuardedServeOptions;
  readonly #onClosed: () => void;
  readonly #framing = new RequestFraming(HTTP_HEADER_MAX_BYTES);
  #backend: Promise<Deno.Conn> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #awaitingResponse = false;
  /** Whether the server has sent anything since the latest header block ended. */
  #answeredSinceHeaders = false;
  #closed = false;
  #markClosed = () => {};
  /** Resolves once the connection is closed. */
  readonly closed: Promise<void> = new Promise((resolve) => this.#markClosed = resolve);

  constructor(
    client: Deno.Conn,
    connectBackend: () => Promise<Deno.Conn>,
    options: GuardedServeOptions,
    onClosed: () => void,
  ) {
    this.#client = client;
    this.#connectBackend = connectBackend;
    this.#options = options;
    this.#onClosed = onClosed;
  }

  start(): void {
    this.#arm(this.#options.headerReadTimeoutMs);
    this.#pumpClient().catch(() => this.close());
  }

  /** Closes the connection when the client never sent anything (no backend was opened). */
  closeIfSilent(): void {
    if (this.#backend === null) this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    closeQuietly(this.#client);
    this.#backend?.then(closeQuietly, () => {});
    this.#onClosed();
    this.#markClosed();
  }

  async #pumpClient(): Promise<void> {
    const buffer = new Uint8Array(CONNECTION_BUFFER_BYTES);
    for (;;) {
      const read = await this.#client.read(buffer);
      if (read === null) {
        // The client is done sending; the server may still answer what it sent.
        if (this.#backend === null) return this.close();
        await (await this.#backend).closeWrite().catch(() => this.close());
        return;
      }
      const bytes = buffer.subarray(0, read);
      this.#timeClientBytes(bytes);
      if (this.#backend === null) {
        this.#backend = this.#connectBackend();
        const backend = await this.#backend;
        if (this.#closed) return closeQuietly(backend);
        this.#pumpBackend(backend).catch(() => this.close());
      }
      await writeAll(await this.#backend, bytes);
    }
  }

  async #pumpBackend(backend: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(CONNECTION_BUFFER_BYTES);
    for (;;) {
      const read = await backend.read(buffer);
      if (read === null) return this.close();
      const bytes = buffer.subarray(0, read);
      this.#timeServerBytes(bytes);
      await writeAll(this.#client, bytes);
    }
  }

  #timeClientBytes(bytes: Uint8Array): void {
    const before = this.#framing.phase;
    const progress = this.#framing.feed(bytes);
    const phase = this.#framing.phase;
    if (progress.headersCompleted > 0) this.#answeredSinceHeaders = false;
    if (phase === "headers" && (before !== "headers" || progress.requestsCompleted > 0)) {
      this.#arm(this.#options.headerReadTimeoutMs); // a request started: its headers are timed
    } else if (phase === "body" && progress.headersCompleted > 0) {
      this.#arm(this.#options.bodyReadTimeoutMs); // headers done: the whole body is timed
    } else if (phase === "idle" || phase === "upgrade_requested") {
      if (progress.requestsCompleted > 0 && this.#answeredSinceHeaders) {
        // Answered before its body was in (a refusal): the wait for the next request begins.
        this.#arm(this.#options.headerReadTimeoutMs);
      } else if (progress.requestsCompleted > 0) {
        this.#awaitingResponse = true;
        this.#disarm(); // the server is working on it
      }
    } else if (phase === "tunnel") {
      this.#disarm();
    } else if (phase === "invalid" && before !== "invalid") {
      // Deno.serve answers what this tracker cannot follow; one more deadline, then it ends.
      this.#arm(this.#options.headerReadTimeoutMs);
    }
  }

  #timeServerBytes(bytes: Uint8Array): void {
    this.#framing.serverSent(bytes);
    const phase = this.#framing.phase;
    if (phase === "tunnel") return this.#disarm();
    if (phase === "upgrade_requested") return; // the status line is still arriving
    if (isInterimResponse(bytes)) return; // `100 Continue`: the answer is still to come
    this.#awaitingResponse = false;
    this.#answeredSinceHeaders = true;
    // An answered connection waits for its next request from the answer's last byte on.
    if (phase === "idle") this.#arm(this.#options.headerReadTimeoutMs);
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#expire(), ms);
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expire(): void {
    // A 408 only where no answer is pending and the client is not between requests: an
    // idle kept-alive connection is closed silently, as a client reusing it right then
    // would otherwise read the 408 as the answer to its new request.
    const startedOrSilent = this.#framing.phase === "headers" ||
      (this.#framing.phase === "idle" && this.#backend === null);
    if (this.#awaitingResponse || !startedOrSilent) return this.close();
    this.#client.write(REQUEST_TIMEOUT).catch(() => {}).finally(() => this.close());
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}
