/**
 * An MCP server's stderr log: `<home>/logs/mcp/<name>.log`, one line per stderr line,
 * credentials redacted before anything is written or kept (a server may print its
 * environment), rotated to `<name>.log.1` past {@linkcode MCP_LOG_MAX_BYTES}. The last
 * lines are also kept in memory for `mcp.list`'s log tail.
 *
 * @module
 */
import { join } from "node:path";
import { MCP_LOG_LINE_MAX_CHARS, MCP_LOG_MAX_BYTES, MCP_LOG_TAIL_LINES } from "../limits.ts";

/** A server's log. */
export class ServerLog {
  /** The log file. */
  readonly path: string;
  readonly #redact: (text: string) => string;
  readonly #tail: string[] = [];
  #bytes = -1;
  #writing: Promise<void> = Promise.resolve();

  /**
   * @param folder `<home>/logs/mcp`
   * @param name the server's name (a safe file name: config names are `[a-z0-9_-]`)
   * @param redact the runtime's credential redaction
   */
  constructor(folder: string, name: string, redact: (text: string) => string) {
    this.path = join(folder, `${name}.log`);
    this.#redact = redact;
  }

  /** The last lines, oldest first (redacted). */
  tail(): string[] {
    return [...this.#tail];
  }

  /**
   * Writes one line (the runtime's own notes: started, exited, failed).
   *
   * @param line the text
   */
  note(line: string): Promise<void> {
    return this.#append(`[daedalus] ${line}`);
  }

  /**
   * Copies a stderr stream into the log until it ends.
   *
   * @param stream the child's stderr
   */
  async follow(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stream) {
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          await this.#append(pending.slice(0, newline).replace(/\r$/, ""));
          pending = pending.slice(newline + 1);
        }
        if (pending.length > MCP_LOG_LINE_MAX_CHARS) {
          await this.#append(pending);
          pending = "";
        }
      }
    } catch {
      // The stream broke with the process: what was read is written.
    }
    if (pending !== "") await this.#append(pending);
  }

  #append(raw: string): Promise<void> {
    const line = this.#redact(raw.slice(0, MCP_LOG_LINE_MAX_CHARS));
    this.#tail.push(line);
    if (this.#tail.length > MCP_LOG_TAIL_LINES) this.#tail.shift();
    this.#writing = this.#writing.then(() => this.#write(`${line}\n`)).catch((error) => {
      console.error(`mcp log ${this.path}: ${(error as Error).message}`);
    });
    return this.#writing;
  }

  async #write(text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    if (this.#bytes < 0) {
      await Deno.mkdir(join(this.path, ".."), { recursive: true });
      this.#bytes = await Deno.stat(this.path).then((info) => info.size, () => 0);
    }
    if (this.#bytes + bytes.length > MCP_LOG_MAX_BYTES) {
      await Deno.rename(this.path, `${this.path}.1`).catch(() => {});
      this.#bytes = 0;
    }
    await Deno.writeFile(this.path, bytes, { append: true, create: true, mode: 0o600 });
    this.#bytes += bytes.length;
  }
}
