/**
 * Where one HTTP/1.1 request ends and the next begins, on the bytes a client sends
 * (RFC 9112 §2.2, §6): a header block up to the empty line, then a body of
 * `Content-Length` bytes or `chunked` chunks. The connection guard uses it to time the
 * header block and the body of every request on a connection, not only the first. It does
 * not validate more than it needs; Deno's HTTP server still parses every request itself.
 *
 * @module
 */

/** What the bytes fed so far amount to. */
export type FramingPhase =
  /** Between requests: nothing of the next request has arrived. */
  | "idle"
  /** Part of a header block has arrived. */
  | "headers"
  /** The headers are complete; the body is still arriving. */
  | "body"
  /** A request asked for a protocol upgrade (WebSocket); its answer decides what follows. */
  | "upgrade_requested"
  /** The upgrade was granted: the bytes are no longer HTTP/1.1. */
  | "tunnel"
  /** The bytes are not HTTP/1.1 this tracker can follow. */
  | "invalid";

/** A request header block that ended, for the caller to react to. */
export interface FramingProgress {
  /** Header blocks completed by this feed. */
  headersCompleted: number;
  /** Requests (headers and body) completed by this feed. */
  requestsCompleted: number;
}

/** `HTTP/1.1 101`: enough of a status line to tell a granted upgrade. */
const STATUS_PREFIX_BYTES = 12;

/** First capacity of a header buffer; most requests fit, a longer one doubles it. */
const HEADER_BUFFER_START_BYTES = 1024;

const CR = 13;
const LF = 10;

type BodyState =
  | { kind: "length"; remaining: number }
  | { kind: "chunk_size"; line: number[] }
  | { kind: "chunk_data"; remaining: number }
  | { kind: "chunk_data_end"; seen: number }
  | { kind: "trailers"; lineLength: number };

/** Follows the request boundaries of one connection's client-to-server bytes. */
export class RequestFraming {
  readonly #headerMaxBytes: number;
  #phase: FramingPhase = "idle";
  /** The header block so far, as bytes: a stalled client holds no more than the limit. */
  #header = new Uint8Array(HEADER_BUFFER_START_BYTES);
  #headerLength = 0;
  #body: BodyState | null = null;
  /** The start of the server's answer to an upgrade request, until its status is known. */
  #answerStart: number[] = [];

  /** @param headerMaxBytes largest header block; a longer one makes the stream `invalid` */
  constructor(headerMaxBytes: number) {
    this.#headerMaxBytes = headerMaxBytes;
  }

  /** The current phase. */
  get phase(): FramingPhase {
    return this.#phase;
  }

  /**
   * Consumes bytes the client sent.
   *
   * @param bytes the next bytes
   * @returns how many header blocks and requests they completed
   */
  feed(bytes: Uint8Array): FramingProgress {
    const progress: FramingProgress = { headersCompleted: 0, requestsCompleted: 0 };
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] ?? 0;
      const phase = this.#phase;
      if (phase !== "idle" && phase !== "headers" && phase !== "body") return progress;
      if (this.#phase === "idle") {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        if (byte === CR || byte === LF) continue;
        this.#phase = "headers";
      }
      if (this.#phase === "headers") {
        if (this.#headerLength >= this.#headerMaxBytes) {
          this.#phase = "invalid";
          return progress;
        }
        this.#appendHeaderByte(byte);
        if (byte === LF && endsHeaderBlock(this.#header, this.#headerLength)) {
          progress.headersCompleted++;
          const block = this.#header.subarray(0, this.#headerLength);
          const next = this.#afterHeaders(new TextDecoder().decode(block));
          this.#phase = next;
          this.#headerLength = 0;
          // A long block's buffer is not kept for the connection's life.
          if (this.#header.length > HEADER_BUFFER_START_BYTES) {
            this.#header = new Uint8Array(HEADER_BUFFER_START_BYTES);
          }
          if (next === "idle" || next === "upgrade_requested") {
            progress.requestsCompleted++;
          }
        }
        continue;
      }
      // phase === "body": runs of body bytes are skipped whole, not byte by byte.
      const body = this.#body;
      if (body?.kind === "length" || body?.kind === "chunk_data") {
        const take = Math.min(body.remaining, bytes.length - i);
        body.remaining -= take;
        i += take - 1;
        if (body.remaining > 0) continue;
        if (body.kind === "chunk_data") {
          this.#body = { kind: "chunk_data_end", seen: 0 };
          continue;
        }
        this.#phase = "idle";
        this.#body = null;
        progress.requestsCompleted++;
        continue;
      }
      if (this.#consumeBodyByte(byte)) {
        this.#phase = "idle";
        this.#body = null;
        progress.requestsCompleted++;
      }
    }
    return progress;
  }

  /**
   * Follows the server's answer to a request that asked for an upgrade: once the first
   * {@linkcode STATUS_PREFIX_BYTES} bytes of its status line are in (they may come over more
   * than one read), `101 Switching Protocols` makes a tunnel and anything else goes on as
   * HTTP. Bytes the server sends in other phases change nothing.
   *
   * @param bytes the next bytes the server sent
   */
  serverSent(bytes: Uint8Array): void {
    if (this.#phase !== "upgrade_requested") return;
    const wanted = STATUS_PREFIX_BYTES - this.#answerStart.length;
    this.#answerStart.push(...bytes.subarray(0, wanted));
    if (this.#answerStart.length < STATUS_PREFIX_BYTES) return;
    const status = String.fromCharCode(...this.#answerStart);
    this.#answerStart = [];
    this.#phase = /^HTTP\/1\.[01] 101$/.test(status) ? "tunnel" : "idle";
  }

  #appendHeaderByte(byte: number): void {
    if (this.#headerLength === this.#header.length) {
      const grown = new Uint8Array(Math.min(this.#header.length * 2, this.#headerMaxBytes));
      grown.set(this.#header);
      this.#header = grown;
    }
    this.#header[this.#headerLength++] = byte;
  }

  /** The phase after a header block; sets up the body it announces. */
  #afterHeaders(block: string): FramingPhase {
    const lines = block.split("\n").map((line) => line.replace(/\r$/, ""));
    if (!/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(lines[0] ?? "")) {
      return "invalid";
    }
    const fields = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      if (line === "") continue;
      const colon = line.indexOf(":");
      if (colon <= 0) {
        return "invalid";
      }
      const name = line.slice(0, colon).trim().toLowerCase();
      fields.set(name, [...fields.get(name) ?? [], line.slice(colon + 1).trim()]);
    }
    const encodings = (fields.get("transfer-encoding") ?? []).join(",").toLowerCase();
    const lengths = new Set(fields.get("content-length") ?? []);
    if (encodings !== "") {
      if (!/(^|,)\s*chunked\s*$/.test(encodings) || lengths.size > 0) {
        return "invalid";
      }
      this.#body = { kind: "chunk_size", line: [] };
      return "body";
    }
    if (lengths.size > 1) {
      return "invalid";
    }
    const length = lengths.size === 1 ? [...lengths][0] ?? "" : "0";
    if (!/^\d{1,15}$/.test(length)) {
      return "invalid";
    }
    if (fields.has("upgrade") && length === "0") return "upgrade_requested";
    const remaining = Number(length);
    this.#body = remaining === 0 ? null : { kind: "length", remaining };
    return remaining === 0 ? "idle" : "body";
  }

  /** @returns whether the body ended with this byte */
  #consumeBodyByte(byte: number): boolean {
    const body = this.#body;
    if (body === null) return true;
    switch (body.kind) {
      case "length":
      case "chunk_data":
        return false; // skipped whole by feed
      case "chunk_size": {
        if (byte !== LF) {
          body.line.push(byte);
          if (body.line.length > 1024) this.#phase = "invalid";
          return false;
        }
        const text = new TextDecoder().decode(new Uint8Array(body.line)).replace(/\r$/, "");
        const size = /^([0-9A-Fa-f]{1,12})(;.*)?$/.exec(text.trim());
        if (!size) {
          this.#phase = "invalid";
          return false;
        }
        const remaining = parseInt(size[1] ?? "0", 16);
        this.#body = remaining === 0
          ? { kind: "trailers", lineLength: 0 }
          : { kind: "chunk_data", remaining };
        return false;
      }
      case "chunk_data_end":
        if (byte === LF) this.#body = { kind: "chunk_size", line: [] };
        else if (byte !== CR || ++body.seen > 1) this.#phase = "invalid";
        return false;
      case "trailers":
        if (byte !== LF) {
          if (byte !== CR) body.lineLength++;
          if (body.lineLength > this.#headerMaxBytes) this.#phase = "invalid";
          return false;
        }
        if (body.lineLength === 0) return true;
        body.lineLength = 0;
        return false;
    }
  }
}

/**
 * Whether a read of the server's bytes is exactly one interim response (`100 Continue`,
 * `103 Early Hints`; not `101`, which ends HTTP): the request is not answered yet.
 * Deno's server writes `100 Continue` on its own once the handler reads a body the client
 * announced with `Expect: 100-continue` (curl does so for bodies over 1 MiB).
 *
 * @param bytes one read of what the server sent
 * @returns true for an interim response and nothing else
 */
export function isInterimResponse(bytes: Uint8Array): boolean {
  if (bytes.length > INTERIM_RESPONSE_MAX_BYTES) return false;
  return INTERIM_RESPONSE.test(String.fromCharCode(...bytes));
}

const INTERIM_RESPONSE = /^HTTP\/1\.[01] 1(?:0[02-9]|[1-9]\d) [^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n$/;

/** Longest interim response looked at (a `103` carries a few `Link` headers at most). */
const INTERIM_RESPONSE_MAX_BYTES = 4 * 1024;

/** Whether the first `n` header bytes end with an empty line (`\n\n` or `\n\r\n`). */
function endsHeaderBlock(header: Uint8Array, n: number): boolean {
  return (n >= 2 && header[n - 2] === LF) ||
    (n >= 3 && header[n - 2] === CR && header[n - 3] === LF);
}
