/**
 * The MCP stdio transport of a configured server: the child runs in its own process group
 * (a new session, `Deno.Command` `detached`), so stopping it also stops whatever it
 * started; its stderr goes line by line, credentials redacted, to a log under the home;
 * its environment is the SDK's safe inherited set (`HOME`, `PATH`, `USER`…) plus the
 * configured `env`, never the runtime's own. Messages are one JSON-RPC object per line
 * (the SDK's `ReadBuffer` framing); a line that is not JSON-RPC, or one longer than
 * {@linkcode MCP_STDIO_LINE_MAX_BYTES}, ends the connection with the reason (the server is
 * then failed, not trusted with half a stream).
 *
 * @module
 */
import {
  deserializeMessage,
  getDefaultEnvironment,
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
} from "./_sdk.ts";
import { MCP_STDIO_LINE_MAX_BYTES, MCP_STOP_GRACE_MS } from "../limits.ts";
import type { ServerLog } from "./server_log.ts";
import { custodyPath, recordCustody, releaseCustody } from "./server_custody.ts";

/** What starts a stdio server. */
export interface StdioServerParams {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** Configured variables (over the safe inherited set). */
  env: Readonly<Record<string, string>>;
  /** Its working directory (absent: the runtime's). */
  cwd?: string;
}

/** A stdio {@linkcode Transport} over a child in its own process group. */
export class ProcessGroupStdioTransport implements Transport {
  /** Called once when the connection ends, for any reason. */
  onclose?: () => void;
  /** Called for framing and process errors. */
  onerror?: (error: Error) => void;
  /** Called for each message from the server. */
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #params: StdioServerParams;
  readonly #log: ServerLog;
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #closed = false;
  #exit: Promise<Deno.CommandStatus> | null = null;
  /** Why the connection ended, once it has (the exit status or a framing error). */
  endReason: string | null = null;
  /** The protocol version `initialize` negotiated (the SDK tells the transport). */
  protocolVersion: string | null = null;

  /**
   * @param params command, arguments, env, cwd
   * @param log where the child's stderr goes
   */
  constructor(params: StdioServerParams, log: ServerLog) {
    this.#params = params;
    this.#log = log;
  }

  /** The child's pid (its process group's id), once started. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /**
   * Spawns the server.
   *
   * @throws the spawn error (an unknown command: `NotFound`)
   */
  async start(): Promise<void> {
    const child = new Deno.Command(this.#params.command, {
      args: [...this.#params.args],
      env: { ...getDefaultEnvironment(), ...this.#params.env },
      clearEnv: true,
      ...(this.#params.cwd ? { cwd: this.#params.cwd } : {}),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#exit = child.status;
    void this.#readMessages(child.stdout);
    void this.#log.follow(child.stderr);
    child.status.then((status) => {
      void releaseCustody(custodyPath(this.#log.path));
      this.#end(
        status.signal
          ? `the server process was killed (${status.signal})`
          : `the server process exited with code ${status.code}`,
      );
    }, (error) => this.#end(`the server process failed: ${error}`));
    // A runtime that dies without stopping it leaves this record for the next one.
    await recordCustody(custodyPath(this.#log.path), child.pid).catch((error) =>
      console.error(`mcp custody ${this.#log.path}: ${(error as Error).message}`)
    );
  }

  /**
   * Keeps the negotiated protocol version (called by the SDK after `initialize`).
   *
   * @param version the version
   */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Writes one message.
   *
   * @param message the JSON-RPC message
   * @throws when the connection has ended
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || this.#writer === null) throw new Error("The MCP server is not running");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Stops the server: SIGTERM to its process group, SIGKILL after a grace period. */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === null) return this.#end("closed");
    this.endReason ??= "closed";
    this.#signalGroup(child.pid, "SIGTERM");
    let grace: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      grace = setTimeout(() => {
        this.#signalGroup(child.pid, "SIGKILL");
        resolve();
      }, MCP_STOP_GRACE_MS);
    });
    await Promise.race([this.#exit?.then(() => {}), killed]);
    clearTimeout(grace);
    await this.#exit?.catch(() => {});
    this.#end("closed");
    // The group may hold children that ignored SIGTERM: they go too.
    this.#signalGroup(child.pid, "SIGKILL");
  }

  #signalGroup(pid: number, signal: Deno.Signal): void {
    try {
      Deno.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  }

  async #readMessages(stdout: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stdout) {
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline).replace(/\r$/, "");
          pending = pending.slice(newline + 1);
          if (line.trim() === "") continue;
          this.#deliver(line);
          if (this.#closed) return;
        }
        if (pending.length > MCP_STDIO_LINE_MAX_BYTES) {
          return this.#fail(`the server sent a message over ${MCP_STDIO_LINE_MAX_BYTES} bytes`);
        }
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      const what = error instanceof SyntaxError
        ? "malformed JSON"
        : "a message that is not JSON-RPC";
      return this.#fail(`the server sent ${what} on stdout: ${line.slice(0, 120)}`);
    }
    this.onmessage?.(message);
  }

  #fail(reason: string): void {
    this.endReason = reason;
    this.onerror?.(new Error(reason));
    void this.close();
  }

  #end(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.endReason ??= reason;
    this.#writer?.close().catch(() => {});
    this.onclose?.();
  }
}
