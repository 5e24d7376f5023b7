/**
 * A small fake of the runtime's wire for the client's tests: `POST /rpc` and `GET /ws`
 * on 127.0.0.1, bearer/subprotocol/cookie auth, `initialize` first, a journal with a
 * global gap-free seq pushed to every initialized socket, and `event.replay`. Tests
 * reach in to withhold pushes, gate replies, close sockets and restart on the same port.
 *
 * @module
 */
import {
  compactEvent,
  decodeInbound,
  failureResponse,
  isMethodName,
  type JournalEvent,
  parseParams,
  PROTOCOL_VERSION,
  REPLAY_DEFAULT_LIMIT,
  RPC_ERROR_CODES,
  RpcError,
  successResponse,
} from "@daedalus/protocol";
import { within } from "./_test_helpers.ts";

/** The token the fake accepts unless told otherwise. */
export const TEST_TOKEN = "test-token-0123456789abcdef";
/** The session cookie value the fake accepts. */
export const TEST_SESSION_COOKIE = "session-0123456789abcdef";
/** A thread `thread.get` knows. */
export const KNOWN_THREAD_ID = "thread_000000000000000000000000000000a1";
const BRANCH_ID = "branch_000000000000000000000000000000b1";

/** How a connection or request proved who it is. */
export type AuthMethod = "header" | "subprotocol" | "cookie";

/** A method implementation; throw `RpcError` to answer with an error. */
export type FakeHandler = (params: unknown, connection: FakeConnection | null) => unknown;

/** One accepted WebSocket, seen from the server. */
export interface FakeConnection {
  /** How it authenticated. */
  auth: AuthMethod;
  /** The subprotocols the client offered. */
  offered: string[];
  /** Every request or notification received, in order. */
  received: { method: string; params: unknown }[];
  /** Whether `initialize` succeeded on it. */
  initialized: boolean;
  /** The `eventEncoding` its `initialize` asked for, as the runtime honours it. */
  eventEncoding: "full" | "compact";
  /** Whether the socket has closed. */
  closed: boolean;
  /** Seqs that are journaled but not pushed live on this connection. */
  withhold: Set<number>;
  /** Sends a raw text frame. */
  sendRaw(text: string): void;
  /** Closes the socket from the server's side. */
  close(code: number, reason: string): void;
}

/** The running fake. */
export interface FakeRuntime {
  /** The base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** The bound port. */
  port: number;
  /** Every committed event; `journal[i].seq === i + 1`. */
  journal: JournalEvent[];
  /** Every WebSocket accepted, in order. */
  connections: FakeConnection[];
  /** Every call received over `POST /rpc`. */
  httpCalls: { method: string; params: unknown; auth: AuthMethod }[];
  /** Method implementations; tests may replace them. */
  handlers: Map<string, FakeHandler>;
  /** Commits events and pushes each to every initialized socket. */
  publish(count: number, options?: { closeAfter?: number; closeCode?: number }): JournalEvent[];
  /** Commits events without pushing them (as if published while nobody was connected). */
  append(count: number): JournalEvent[];
  /** Resolves once `check` holds (re-checked after every server-side change: a connection, a message, a close). */
  until<T>(check: () => T | undefined | false, what?: string): Promise<T>;
  /** Closes every socket with the given code. */
  closeAll(code: number, reason?: string): void;
  /** Closes every socket and stops listening. */
  shutdown(): Promise<void>;
}

/** Options of {@linkcode startFakeRuntime}. */
export interface FakeRuntimeOptions {
  /** Port to bind; 0 picks one. */
  port?: number;
  /** Events already committed (restart with the same journal). */
  journal?: JournalEvent[];
}

/**
 * Builds a valid journal event.
 *
 * @param seq its seq
 * @returns a `thread.renamed` event titled after the seq
 */
export function makeEvent(seq: number): JournalEvent {
  const at = new Date(Date.UTC(2026, 9, 1, 10, 0, 0, seq)).toISOString();
  return {
    seq,
    schemaVersion: 1,
    type: "thread.renamed",
    threadId: KNOWN_THREAD_ID,
    branchId: null,
    turnId: null,
    runId: null,
    itemId: null,
    timestamp: at,
    payload: { thread: thread(`Title ${seq}`, at) },
  };
}

function thread(title: string, at: string) {
  return {
    id: KNOWN_THREAD_ID,
    title,
    defaultBranchId: BRANCH_ID,
    workspace: null,
    createdAt: "2026-10-01T10:00:00.000Z",
    updatedAt: at,
    archivedAt: null,
  };
}

/**
 * Starts the fake on 127.0.0.1.
 *
 * @param options port and journal
 * @returns the running fake
 */
export function startFakeRuntime(options: FakeRuntimeOptions = {}): FakeRuntime {
  const journal: JournalEvent[] = [...(options.journal ?? [])];
  const connections: FakeConnection[] = [];
  const sockets = new Map<FakeConnection, { socket: WebSocket; closed: Promise<void> }>();
  const httpCalls: FakeRuntime["httpCalls"] = [];
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const handlers = new Map<string, FakeHandler>([
    ["event.replay", (params) => replayPage(journal, params)],
    ["thread.get", (params) => {
      const { threadId } = params as { threadId: string };
      if (threadId !== KNOWN_THREAD_ID) {
        throw new RpcError(RPC_ERROR_CODES.invalidParams, "thread_not_found", "Thread not found", {
          field: "threadId",
        });
      }
      return { thread: thread("Known", "2026-10-01T10:00:00.000Z"), snapshotSeq: journal.length };
    }],
    ["thread.list", () => ({
      threads: [thread("Known", "2026-10-01T10:00:00.000Z")],
      nextCursor: null,
      hasMore: false,
      snapshotSeq: journal.length,
    })],
  ]);

  async function answer(text: string, connection: FakeConnection | null): Promise<string | null> {
    let decoded;
    try {
      decoded = decodeInbound(text);
    } catch (error) {
      if (error instanceof RpcError) return JSON.stringify(failureResponse(null, error));
      throw error;
    }
    const responses: unknown[] = [];
    for (const entry of decoded.entries) {
      if (!entry.ok) {
        responses.push(failureResponse(entry.id, entry.error));
        continue;
      }
      const call = entry.call;
      connection?.received.push({ method: call.method, params: call.params });
      if (connection === null) {
        httpCalls.push({ method: call.method, params: call.params, auth: "header" });
      }
      changed();
      if (!("id" in call)) continue;
      try {
        responses.push(
          successResponse(call.id, await dispatch(call.method, call.params, connection)),
        );
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        responses.push(failureResponse(call.id, error));
      }
    }
    if (responses.length === 0) return null;
    return JSON.stringify(decoded.batch ? responses : responses[0]);
  }

  async function dispatch(
    method: string,
    params: unknown,
    connection: FakeConnection | null,
  ): Promise<unknown> {
    const override = handlers.get(method);
    if (connection && method === "initialize") {
      return override ? override(params, connection) : initialize(connection, params);
    }
    if (connection && !connection.initialized) {
      throw new RpcError(
        RPC_ERROR_CODES.notInitialized,
        "not_initialized",
        "Session is not initialized",
      );
    }
    const handler = override;
    if (!isMethodName(method) || !handler) {
      throw new RpcError(
        RPC_ERROR_CODES.methodNotFound,
        "method_not_found",
        `Method ${method} not found`,
      );
    }
    return await handler(parseParams(method, params), connection);
  }

  function initialize(connection: FakeConnection, params: unknown) {
    if (connection.initialized) {
      throw new RpcError(
        RPC_ERROR_CODES.alreadyInitialized,
        "already_initialized",
        "Session is already initialized",
      );
    }
    const { protocolVersion, eventEncoding = "full" } = parseParams("initialize", params);
    if (protocolVersion !== PROTOCOL_VERSION) {
      throw new RpcError(
        RPC_ERROR_CODES.unsupportedProtocolVersion,
        "unsupported_protocol_version",
        `Protocol version ${protocolVersion} is not supported; this runtime speaks version 1`,
      );
    }
    connection.initialized = true;
    connection.eventEncoding = eventEncoding;
    changed();
    return {
      protocolVersion: PROTOCOL_VERSION,
      server: { name: "daedalus-runtime", version: "0.0.0-fake" },
      latestSeq: journal.length,
      eventEncoding,
    };
  }

  function acceptSocket(request: Request): Response {
    const offered = (request.headers.get("sec-websocket-protocol") ?? "")
      .split(",").map((p) => p.trim()).filter((p) => p.length > 0);
    const auth = authenticate(request, offered);
    if (!auth) return new Response("unauthorized", { status: 401 });
    const protocol = offered.find((p) => !p.startsWith("bearer."));
    const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol } : {});
    const connection: FakeConnection = {
      auth,
      offered,
      received: [],
      initialized: false,
      eventEncoding: "full",
      closed: false,
      withhold: new Set(),
      sendRaw: (text) => socket.send(text),
      close: (code, reason) => socket.close(code, reason),
    };
    const closed = new Promise<void>((resolve) => {
      socket.onclose = () => {
        connection.closed = true;
        connection.initialized = false;
        resolve();
        changed();
      };
    });
    socket.onerror = () => {};
    socket.onmessage = async (event) => {
      const reply = await answer(String(event.data), connection);
      if (reply !== null && socket.readyState === WebSocket.OPEN) socket.send(reply);
    };
    connections.push(connection);
    sockets.set(connection, { socket, closed });
    changed();
    return response;
  }

  async function serveRpc(request: Request): Promise<Response> {
    if (request.headers.get("authorization") !== `Bearer ${TEST_TOKEN}`) {
      return new Response("unauthorized", { status: 401 });
    }
    const reply = await answer(await request.text(), null);
    if (reply === null) return new Response(null, { status: 204 });
    return new Response(reply, { headers: { "content-type": "application/json" } });
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/ws") return acceptSocket(request);
      if (path === "/rpc" && request.method === "POST") return serveRpc(request);
      return new Response("not found", { status: 404 });
    },
  );
  const port = server.addr.port;

  function commit(count: number): JournalEvent[] {
    const added: JournalEvent[] = [];
    for (let i = 0; i < count; i++) {
      const event = makeEvent(journal.length + 1);
      journal.push(event);
      added.push(event);
    }
    return added;
  }

  function push(event: JournalEvent): void {
    const text = {
      full: JSON.stringify({ jsonrpc: "2.0", method: "event", params: event }),
      compact: JSON.stringify({ jsonrpc: "2.0", method: "event", params: compactEvent(event) }),
    };
    for (const connection of connections) {
      if (connection.initialized && !connection.withhold.has(event.seq)) {
        connection.sendRaw(text[connection.eventEncoding]);
      }
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    journal,
    connections,
    httpCalls,
    handlers,
    publish(count, publishOptions = {}) {
      const added = commit(count);
      added.forEach((event, index) => {
        push(event);
        if (index + 1 === publishOptions.closeAfter) {
          this.closeAll(publishOptions.closeCode ?? 4008, "slow client");
        }
      });
      return added;
    },
    append: commit,
    until<T>(check: () => T | undefined | false, what = "the fake's state"): Promise<T> {
      return within(
        new Promise((resolve) => {
          const watcher = () => {
            const value = check();
            if (value === undefined || value === false) return;
            watchers.delete(watcher);
            resolve(value);
          };
          watchers.add(watcher);
          watcher();
        }),
        what,
      );
    },
    closeAll(code, reason = "closed by test") {
      for (const connection of connections) {
        if (!connection.closed) {
          connection.initialized = false;
          connection.close(code, reason);
        }
      }
    },
    async shutdown() {
      this.closeAll(1001, "server shutting down");
      await Promise.all([...sockets.values()].map((s) => s.closed));
      await server.shutdown();
    },
  };
}

function authenticate(request: Request, offered: string[]): AuthMethod | null {
  if (request.headers.get("authorization") === `Bearer ${TEST_TOKEN}`) return "header";
  if (offered.includes(`bearer.${TEST_TOKEN}`)) return "subprotocol";
  const cookie = request.headers.get("cookie") ?? "";
  if (cookie.split(";").some((c) => c.trim() === `daedalus_session=${TEST_SESSION_COOKIE}`)) {
    return "cookie";
  }
  return null;
}

/**
 * Answers `event.replay` from a journal, as the runtime does.
 *
 * @param journal the committed events
 * @param params `{afterSeq, limit?}`, already validated
 * @returns the page
 */
export function replayPage(journal: readonly JournalEvent[], params: unknown) {
  const { afterSeq, limit = REPLAY_DEFAULT_LIMIT } = params as { afterSeq: number; limit?: number };
  const events = journal.slice(afterSeq, afterSeq + limit);
  const last = events.at(-1)?.seq ?? afterSeq;
  return {
    events,
    latestSeq: journal.length,
    nextAfterSeq: last,
    hasMore: last < journal.length,
  };
}
