/**
 * Test doubles and clients for the server tests: a fake dispatcher and event source,
 * a real server on 127.0.0.1:0 in a temp home, raw HTTP/1.1 (to send any Host), a
 * Deno WebSocket wrapper, and a raw WebSocket client that can stop reading.
 *
 * @module
 */
import type { ThreadExporter } from "./thread_export.ts";
import {
  type JournalEvent,
  mirrorScope,
  newId,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import type { Dispatcher, DispatchOutcome, EventSource, RpcSession } from "./dispatcher.ts";
import { readAuthFile, TokenStore } from "./auth_token.ts";
import { type RunningServer, startServer } from "./app.ts";
import type { ServerLimits } from "./limits.ts";
import { within } from "../_test_wait.ts";

/** An event source whose events the test commits and publishes by hand. */
export class FakeEventSource implements EventSource {
  #committed = 0;
  readonly #listeners = new Set<(event: JournalEvent) => void>();

  /** @returns the newest committed seq */
  latestSeq(): number {
    return this.#committed;
  }

  /**
   * @param listener receives each published event
   * @returns unsubscribe
   */
  subscribe(listener: (event: JournalEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many listeners are subscribed (one per initialized WebSocket). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /**
   * Commits `count` `item.delta` events without publishing them.
   *
   * @param count how many
   * @param deltaChars the length of each delta
   * @returns the events
   */
  commit(count: number, deltaChars = 8): JournalEvent[] {
    const [threadId, branchId, turnId, runId, itemId] = [
      newId("thread"),
      newId("branch"),
      newId("turn"),
      newId("run"),
      newId("item"),
    ];
    return Array.from({ length: count }, () => ({
      seq: ++this.#committed,
      schemaVersion: 1 as const,
      type: "item.delta" as const,
      threadId,
      branchId,
      turnId,
      runId,
      itemId,
      timestamp: new Date().toISOString(),
      payload: mirrorScope({ turnId, runId, itemId }, { delta: "d".repeat(deltaChars) }),
    }));
  }

  /** @param events events to deliver to every listener, in order */
  publish(events: readonly JournalEvent[]): void {
    for (const event of events) for (const listener of [...this.#listeners]) listener(event);
  }

  /**
   * Commits and publishes at once.
   *
   * @param count how many
   * @param deltaChars the length of each delta
   * @returns the events
   */
  emit(count: number, deltaChars = 8): JournalEvent[] {
    const events = this.commit(count, deltaChars);
    this.publish(events);
    return events;
  }
}

/** One call the fake dispatcher saw. */
export interface SeenCall {
  /** The method. */
  method: string;
  /** The params. */
  params: unknown;
  /** Who called. */
  session: RpcSession;
}

/**
 * A dispatcher with test methods: `test.echo` (result `{echo: params}`), `test.emit`
 * (`{count}` events committed now, published in `afterResponse`), `test.fail` (an
 * RpcError), `test.crash` (a plain Error with a secret message), `test.nan` (a result
 * that cannot be encoded), `test.wait` (until {@linkcode release}); anything else -32601.
 */
export class FakeDispatcher implements Dispatcher {
  /** Every call, in order. */
  readonly calls: SeenCall[] = [];
  /** Methods whose `afterResponse` ran, in order. */
  readonly afterResponses: string[] = [];
  readonly #events: FakeEventSource;
  readonly #pending = new Map<string, () => void>();

  /** @param events where `test.emit` commits */
  constructor(events: FakeEventSource) {
    this.#events = events;
  }

  /**
   * Lets a pending waiting call finish.
   *
   * @param method `test.wait` (a command) or `file.preview` (a read)
   */
  release(method: "test.wait" | "file.preview" = "test.wait"): void {
    this.#pending.get(method)?.();
    this.#pending.delete(method);
  }

  /**
   * @param method the method
   * @param params the params
   * @param session who calls
   * @returns the outcome
   */
  async dispatch(method: string, params: unknown, session: RpcSession): Promise<DispatchOutcome> {
    this.calls.push({ method, params, session });
    const after = (publish?: () => void) => () => {
      this.afterResponses.push(method);
      publish?.();
    };
    switch (method) {
      case "test.echo":
        return { result: { echo: params ?? null }, afterResponse: after() };
      case "test.emit": {
        const count = readCount(params);
        const events = this.#events.commit(count);
        const seqs = events.map((event) => event.seq);
        return { result: { seqs }, afterResponse: after(() => this.#events.publish(events)) };
      }
      case "test.fail":
        throw new RpcError(RPC_ERROR_CODES.invalidParams, "thread_not_found", "Thread not found");
      case "test.crash":
        throw new Error("secret internal detail");
      case "test.nan":
        return { result: { value: Number.NaN } };
      case "test.wait":
      case "file.preview": // a read that waits, like a big file's preview
        await new Promise<void>((resolve) => this.#pending.set(method, resolve));
        return { result: { waited: true } };
      case "thread.list": // a read that answers at once
        return { result: { echo: params ?? null } };
      default:
        throw new RpcError(
          RPC_ERROR_CODES.methodNotFound,
          "method_not_found",
          `Method ${method} not found`,
        );
    }
  }
}

function readCount(params: unknown): number {
  if (typeof params === "object" && params !== null && "count" in params) {
    if (typeof params.count === "number") return params.count;
  }
  return 1;
}

/** A real server on 127.0.0.1:0 with fakes behind it. */
export interface TestServer {
  /** The running server. */
  server: RunningServer;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** `ws://127.0.0.1:PORT/ws`. */
  wsUrl: string;
  /** The bound port. */
  port: number;
  /** The token as the test knows it (read from auth.json). */
  token: string;
  /** The path of auth.json. */
  authPath: string;
  /** The temp home (uploads go to `attachments/` in it). */
  home: string;
  /** The fake event source. */
  events: FakeEventSource;
  /** The fake dispatcher. */
  dispatcher: FakeDispatcher;
  /** What the server reported as internal errors. */
  reports: Array<{ error: unknown; context: string }>;
  /** Shuts the server down and removes the temp home. */
  close(): Promise<void>;
}

/**
 * Starts a server in a temp home with a fresh token.
 *
 * @param options limits, a static root, the rotation sweep interval
 * @returns the server and its fakes
 */
export async function startTestServer(
  options: {
    limits?: Partial<ServerLimits>;
    staticRoot?: string;
    tokenSweepIntervalMs?: number;
    attachmentsDir?: string;
    exportThread?: ThreadExporter;
  } = {},
): Promise<TestServer> {
  const home = await Deno.makeTempDir({ prefix: "daedalus_server_test_" });
  const authPath = `${home}/auth.json`;
  const tokens = await TokenStore.open(authPath, { recheckIntervalMs: 0 });
  const events = new FakeEventSource();
  const dispatcher = new FakeDispatcher(events);
  const reports: Array<{ error: unknown; context: string }> = [];
  const server = await startServer({
    hostname: "127.0.0.1",
    port: 0,
    dispatcher,
    events,
    tokens,
    serverVersion: "0.0.0-test",
    report: (error, context) => reports.push({ error, context }),
    attachmentsDir: `${home}/attachments`,
    ...options,
  });
  return {
    server,
    url: server.url,
    wsUrl: `ws://127.0.0.1:${server.port}/ws`,
    port: server.port,
    token: (await readAuthFile(authPath)).token,
    authPath,
    home,
    events,
    dispatcher,
    reports,
    close: async () => {
      await server.shutdown();
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** A response read off a raw socket. */
export interface RawResponse {
  /** The status code. */
  status: number;
  /** The headers, names lowercase. */
  headers: Headers;
  /** The body as text. */
  body: string;
  /** Everything received. */
  raw: string;
}

/**
 * Sends one hand-written HTTP/1.1 request (so any Host header can be sent) and reads
 * the response until the server closes.
 *
 * @param port the server's port
 * @param head the request line and headers, without the final blank line
 * @param body an optional body
 * @returns the response
 */
export async function rawHttpRequest(port: number, head: string, body = ""): Promise<RawResponse> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const headers = `${head}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
    await writeAll(connection, new TextEncoder().encode(headers + body));
    const raw = new TextDecoder().decode(
      await within(readAll(connection), "the server to answer and close"),
    );
    const [headText, ...rest] = raw.split("\r\n\r\n");
    const [statusLine, ...headerLines] = headText.split("\r\n");
    const parsed = new Headers();
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      parsed.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    return { status: Number(statusLine.split(" ")[1]), headers: parsed, body: rest.join(""), raw };
  } finally {
    connection.close();
  }
}

/** A Deno WebSocket with a message queue and awaitable open/close. */
export class TestSocket {
  readonly socket: WebSocket;
  readonly #closed: Promise<CloseEvent>;
  readonly #messages: unknown[] = [];
  readonly #waiters: Array<(message: unknown) => void> = [];

  private constructor(socket: WebSocket) {
    this.socket = socket;
    this.#closed = new Promise((resolve) => socket.addEventListener("close", resolve));
    socket.addEventListener("message", (event) => {
      const message: unknown = JSON.parse(String(event.data));
      const waiter = this.#waiters.shift();
      if (waiter) waiter(message);
      else this.#messages.push(message);
    });
  }

  /**
   * Opens a WebSocket; rejects when the upgrade is refused.
   *
   * @param url the `ws://` URL
   * @param options headers and subprotocols to send
   * @returns the open socket
   */
  static open(
    url: string,
    options: { headers?: Record<string, string>; protocols?: string[] } = {},
  ): Promise<TestSocket> {
    const socket = new WebSocket(url, { headers: options.headers, protocols: options.protocols });
    const wrapped = new TestSocket(socket);
    const opened = new Promise<TestSocket>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(wrapped));
      socket.addEventListener("error", (event) => {
        const message = event instanceof ErrorEvent ? event.message : "WebSocket error";
        reject(new Error(message));
      });
    });
    return within(opened, `the WebSocket to ${url} to open`);
  }

  /** Resolves with the close event; rejects once the hang guard passed first. */
  get closed(): Promise<CloseEvent> {
    return within(this.#closed, "the WebSocket to close");
  }

  /** @returns the next message, parsed; rejects once the hang guard passed first */
  next(): Promise<unknown> {
    const queued = this.#messages.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return within(new Promise((resolve) => this.#waiters.push(resolve)), "a WebSocket message");
  }

  /**
   * Sends a value as JSON.
   *
   * @param value the message
   */
  send(value: unknown): void {
    this.socket.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  /**
   * Sends a request and returns the next message (the test knows nothing else is due).
   *
   * @param id the request id
   * @param method the method
   * @param params the params
   * @returns the next message
   */
  request(id: number, method: string, params?: Record<string, unknown>): Promise<unknown> {
    this.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    return this.next();
  }

  /** Closes the socket and waits until it is closed. */
  async close(): Promise<void> {
    if (this.socket.readyState < WebSocket.CLOSING) this.socket.close();
    await this.closed;
  }
}

/** A WebSocket client on a raw TCP socket: it reads only when told to. */
export class RawWebSocket {
  /** The server's handshake response (status line and headers). */
  readonly handshake: string;
  readonly #connection: Deno.TcpConn;
  #buffer: Uint8Array;

  private constructor(connection: Deno.TcpConn, handshake: string, leftover: Uint8Array) {
    this.#connection = connection;
    this.handshake = handshake;
    this.#buffer = leftover;
  }

  /**
   * Performs the upgrade handshake.
   *
   * @param port the server's port
   * @param headers extra headers (e.g. Authorization)
   * @returns the client
   * @throws {Error} naming the status line when the server does not answer 101
   */
  static async connect(port: number, headers: Record<string, string>): Promise<RawWebSocket> {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      return await within(
        RawWebSocket.#handshake(connection, port, headers),
        "the WebSocket upgrade answer",
      );
    } catch (error) {
      try {
        connection.close();
      } catch { /* already closed by a refused upgrade */ }
      throw error;
    }
  }

  static async #handshake(
    connection: Deno.TcpConn,
    port: number,
    headers: Record<string, string>,
  ): Promise<RawWebSocket> {
    const lines = [
      "GET /ws HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Key: ${btoa("daedalus-test-key")}`,
      "Sec-WebSocket-Version: 13",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    await writeAll(connection, new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`));
    let received: Uint8Array = new Uint8Array(0);
    while (true) {
      const chunk = new Uint8Array(4096);
      const count = await connection.read(chunk);
      if (count === null) throw new Error("connection closed during the handshake");
      received = concat(received, chunk.subarray(0, count));
      const text = new TextDecoder().decode(received);
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) continue;
      if (!text.startsWith("HTTP/1.1 101")) {
        connection.close();
        throw new Error(`upgrade refused: ${text.split("\r\n")[0]}`);
      }
      return new RawWebSocket(connection, text.slice(0, end), received.subarray(end + 4));
    }
  }

  /**
   * Sends one masked text frame.
   *
   * @param text the message
   */
  async sendText(text: string): Promise<void> {
    const payload = new TextEncoder().encode(text);
    const length = payload.byteLength;
    const header = length < 126
      ? [0x81, 0x80 | length]
      : [0x81, 0x80 | 126, length >> 8, length & 0xff];
    const mask = crypto.getRandomValues(new Uint8Array(4));
    const masked = payload.map((byte, index) => byte ^ mask[index % 4]);
    await writeAll(this.#connection, concat(new Uint8Array([...header, ...mask]), masked));
  }

  /**
   * Reads frames until a close frame.
   *
   * @returns the close code and reason, and the text frames before it
   */
  readUntilClose(): Promise<{ code: number; reason: string; texts: string[] }> {
    return within(this.#readUntilClose(), "the server to close the WebSocket");
  }

  async #readUntilClose(): Promise<{ code: number; reason: string; texts: string[] }> {
    const texts: string[] = [];
    while (true) {
      const frame = await this.#readFrame();
      if (frame === null) return { code: 1006, reason: "", texts };
      if (frame.opcode === 0x8) {
        const code = frame.payload.byteLength >= 2
          ? (frame.payload[0] << 8) | frame.payload[1]
          : 1005;
        return { code, reason: new TextDecoder().decode(frame.payload.subarray(2)), texts };
      }
      if (frame.opcode === 0x1) texts.push(new TextDecoder().decode(frame.payload));
    }
  }

  /** Closes the TCP connection. */
  close(): void {
    this.#connection.close();
  }

  async #readFrame(): Promise<{ opcode: number; payload: Uint8Array } | null> {
    while (true) {
      const frame = parseFrame(this.#buffer);
      if (frame) {
        this.#buffer = this.#buffer.subarray(frame.consumed);
        return frame;
      }
      const chunk = new Uint8Array(1 << 20);
      const count = await this.#connection.read(chunk);
      if (count === null) return null;
      this.#buffer = concat(this.#buffer, chunk.subarray(0, count));
    }
  }
}

/** Parses one unmasked server frame from the start of `buffer`, if complete. */
function parseFrame(
  buffer: Uint8Array,
): { opcode: number; payload: Uint8Array; consumed: number } | null {
  if (buffer.byteLength < 2) return null;
  let length = buffer[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.byteLength < 4) return null;
    length = (buffer[2] << 8) | buffer[3];
    offset = 4;
  } else if (length === 127) {
    if (buffer.byteLength < 10) return null;
    length = Number(new DataView(buffer.buffer, buffer.byteOffset + 2, 8).getBigUint64(0));
    offset = 10;
  }
  if (buffer.byteLength < offset + length) return null;
  return {
    opcode: buffer[0] & 0x0f,
    payload: buffer.subarray(offset, offset + length),
    consumed: offset + length,
  };
}

async function writeAll(connection: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.byteLength) written += await connection.write(bytes.subarray(written));
}

async function readAll(connection: Deno.Conn): Promise<Uint8Array> {
  let received: Uint8Array = new Uint8Array(0);
  const chunk = new Uint8Array(16 * 1024);
  while (true) {
    const count = await connection.read(chunk);
    if (count === null) return received;
    received = concat(received, chunk.subarray(0, count));
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.byteLength + b.byteLength);
  joined.set(a);
  joined.set(b, a.byteLength);
  return joined;
}

/**
 * Asserts that no text contains the token (case-insensitive), naming where it leaked.
 *
 * @param token the token
 * @param texts labelled texts: bodies, serialized headers
 * @throws {Error} naming the first text that holds it
 */
export function assertTokenAbsent(token: string, texts: Record<string, string>): void {
  for (const [where, text] of Object.entries(texts)) {
    if (text.toLowerCase().includes(token.toLowerCase())) {
      throw new Error(`the token leaked into ${where}`);
    }
  }
}

/**
 * Serializes response headers for {@linkcode assertTokenAbsent}.
 *
 * @param headers the headers
 * @returns `name: value` lines
 */
export function headerText(headers: Headers): string {
  return [...headers].map(([name, value]) => `${name}: ${value}`).join("\n");
}
