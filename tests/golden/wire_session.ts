/**
 * A recording JSON-RPC session over a raw WebSocket: it sends exactly what a case
 * says and records every message in wire order, so a case run against the live
 * server becomes a golden-trace case.
 */
import type { GoldenCase, GoldenStep } from "@daedalus/protocol";

/** A server message received on the socket. */
type Incoming = Record<string, unknown>;

/** One recording session. */
export class WireSession {
  readonly steps: GoldenStep[] = [];
  readonly #socket: WebSocket;
  readonly #inbox: Incoming[] = [];
  #waiters: (() => void)[] = [];
  #nextId = 1;
  #closed = false;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.onmessage = (message) => {
      const parsed = JSON.parse(String(message.data)) as Incoming;
      this.steps.push({ from: "server", message: parsed });
      this.#inbox.push(parsed);
      this.#wake();
    };
    socket.onclose = () => {
      this.#closed = true;
      this.#wake();
    };
  }

  /**
   * Opens a session.
   *
   * @param url the runtime's base URL
   * @param token the access token
   */
  static async open(url: string, token: string): Promise<WireSession> {
    const socket = new WebSocket(url.replace(/^http/, "ws") + "ws", {
      headers: { authorization: `Bearer ${token}` },
      protocols: ["daedalus.rpc.v1"],
    });
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = (event) =>
        reject(new Error(`socket failed: ${(event as ErrorEvent).message}`));
    });
    return new WireSession(socket);
  }

  /** Sends a request and waits for its response (result or error). */
  async request(method: string, params: unknown, options: { invalid?: boolean } = {}) {
    const id = this.#nextId++;
    const message = { jsonrpc: "2.0", id, method, params };
    this.steps.push({ from: "client", ...(options.invalid ? { invalid: true } : {}), message });
    this.#socket.send(JSON.stringify(message));
    const response = await this.#waitFor((m) => m.id === id);
    return response as { result?: Record<string, unknown>; error?: Record<string, unknown> };
  }

  /** Waits until an event of `type` (optionally matching) has been received. */
  async event(type: string, match: (params: Record<string, unknown>) => boolean = () => true) {
    return await this.#waitFor((m) =>
      m.method === "event" &&
      (m.params as Record<string, unknown>).type === type &&
      match(m.params as Record<string, unknown>)
    );
  }

  /** The recorded case. */
  record(name: string, description: string): GoldenCase {
    return { name, description, steps: this.steps };
  }

  /** Closes the socket. */
  close(): void {
    this.#socket.close();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async #waitFor(predicate: (message: Incoming) => boolean): Promise<Incoming> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = this.#inbox.find(predicate);
      if (found) return found;
      if (this.#closed) throw new Error("socket closed while waiting");
      if (Date.now() > deadline) throw new Error("timed out waiting for a server message");
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }
}
