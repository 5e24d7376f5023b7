/**
 * A WebSocket constructor for @daedalus/client that lets a test cut the connection the
 * way a network drop does: the client sees an abnormal close (1006) at once, and whatever
 * the server sends afterwards on that socket is lost. While the "network is down" new
 * connections fail, so events committed meanwhile can only reach the client by replay.
 *
 * @module
 */
import type { WebSocketConstructor, WebSocketLike, WebSocketOptions } from "@daedalus/client";

type Listener = (event: never) => void;

/** One real Deno WebSocket behind a switch. */
class KillableSocket implements WebSocketLike {
  readonly #socket: WebSocket;
  readonly #listeners = new Map<string, Listener[]>();
  readonly closed: Promise<void>;
  #killed = false;

  constructor(url: string, protocolsOrOptions?: string[] | WebSocketOptions) {
    this.#socket = new WebSocket(url, protocolsOrOptions);
    this.closed = new Promise((resolve) => this.#socket.addEventListener("close", () => resolve()));
    for (const type of ["open", "message", "error", "close"]) {
      this.#socket.addEventListener(type, (event) => {
        if (!this.#killed) this.#dispatch(type, event);
      });
    }
  }

  get readyState(): number {
    return this.#killed ? WebSocket.CLOSED : this.#socket.readyState;
  }

  send(data: string): void {
    if (this.#killed) throw new Error("socket was killed by the test");
    this.#socket.send(data);
  }

  close(code?: number, reason?: string): void {
    if (!this.#killed) this.#socket.close(code, reason);
  }

  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  /** Drops the connection: the client hears 1006 now, the server sees the socket close. */
  kill(): void {
    if (this.#killed) return;
    this.#killed = true;
    if (this.#socket.readyState < WebSocket.CLOSING) this.#socket.close();
    queueMicrotask(() => this.#dispatch("close", { code: 1006, reason: "killed by the test" }));
  }

  #dispatch(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) {
      (listener as (e: unknown) => void)(event);
    }
  }
}

/** Hands out killable sockets and tells how they were used. */
export class SocketSwitch implements AsyncDisposable {
  /** The constructor to give the client. */
  readonly WebSocket: WebSocketConstructor;
  /** Every socket opened, oldest first. */
  readonly sockets: KillableSocket[] = [];
  /** Connection attempts refused while the network was down. */
  refusedAttempts = 0;
  #down = false;

  constructor() {
    const admit = () => {
      if (!this.#down) return;
      this.refusedAttempts++;
      throw new Error("network is down (test)");
    };
    const opened = (socket: KillableSocket) => this.sockets.push(socket);
    this.WebSocket = class extends KillableSocket {
      constructor(url: string, protocolsOrOptions?: string[] | WebSocketOptions) {
        admit();
        super(url, protocolsOrOptions);
        opened(this);
      }
    };
  }

  /** Kills the newest socket and refuses new ones until {@linkcode restore}. */
  cut(): void {
    this.#down = true;
    this.sockets.at(-1)?.kill();
  }

  /** Lets connections through again. */
  restore(): void {
    this.#down = false;
  }

  /** Waits until every real socket has finished closing. */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.sockets.map((socket) => socket.closed));
  }
}
