/**
 * One HTTP exchange with a provider under the provider timeouts: a deadline for the
 * response headers, an idle deadline while reading the body, and the caller's
 * signal for cancellation. Whatever ends the exchange early becomes a classified
 * {@linkcode ProviderError} (`timeout`, `cancelled` or `network`).
 *
 * `fetch` reports no separate "connected" moment, so connecting and waiting for the
 * headers share one deadline of `connectMs + headersMs`, the longest either phase
 * alone may take.
 *
 * The idle deadline is one timer per body, not one per chunk: a streamed answer
 * arrives in thousands of small chunks, and arming and clearing a timer (plus a
 * fresh abort listener) for each was most of the adapter's cost. Each read only
 * records when it started waiting; the timer, when it fires, measures how long the
 * read in progress has waited and either fails the exchange or sleeps for the rest
 * of the idle period. As before, only time spent waiting for the provider counts:
 * while the consumer holds a chunk, no read is waiting and the body cannot be idle.
 * A pending read is ended by cancelling the reader, so a read needs no listener of
 * its own either.
 *
 * A fetched body is a byte stream, read with a BYOB reader into one buffer that is
 * handed back and forth for the whole body: the default reader allocates a fresh
 * 64 KiB buffer for every chunk, and for thousands of chunks of a few dozen bytes
 * that allocation and its garbage collection cost more than the reading.
 * {@linkcode Exchange.body} hands out each chunk as a view of that buffer, valid until
 * the next read (its consumers decode it at once). The buffer is kept for the next body
 * (no native allocation per model call either: those buffers are freed only by a major
 * collection, which resident memory showed). A body that is not a byte stream (an
 * injected one) is read with the default reader.
 *
 * @module
 */
import { ProviderError } from "../provider.ts";
import { networkError } from "./errors.ts";
import {
  BODY_READ_BUFFER_BYTES,
  BODY_READ_BUFFERS_KEPT,
  CONNECT_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
} from "./limits.ts";

/** How long a provider may take, in milliseconds. */
export interface ProviderTimeouts {
  /** To open the connection. */
  connectMs: number;
  /** From the sent request to the response headers. */
  headersMs: number;
  /** Longest silence while reading a body. */
  idleMs: number;
}

/** The seed's timeouts: connect 10 s, headers 30 s, idle 300 s. */
export const DEFAULT_PROVIDER_TIMEOUTS: Readonly<ProviderTimeouts> = Object.freeze({
  connectMs: CONNECT_TIMEOUT_MS,
  headersMs: HEADERS_TIMEOUT_MS,
  idleMs: IDLE_TIMEOUT_MS,
});

/** The start of a body, and whether that was all of it. */
export interface BodyText {
  /** The decoded text read. */
  text: string;
  /** False when the body went on beyond the limit (and was not read further). */
  complete: boolean;
}

/** An HTTP exchange guarded by timeouts and a cancellation signal. */
export class Exchange {
  readonly #fetch: typeof fetch;
  readonly #timeouts: ProviderTimeouts;
  readonly #outer: AbortSignal;
  readonly #controller = new AbortController();
  readonly #onOuterAbort = () => this.#fail(cancelledError());
  #failure: ProviderError | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the read in progress started waiting (performance.now()); null between reads. */
  #waitingSinceMs: number | null = null;
  /** Ends the read in progress when the exchange fails (an injected body may ignore the signal). */
  #onFailure: ((failure: ProviderError) => void) | null = null;

  /**
   * @param fetchFn the fetch to use
   * @param timeouts the deadlines
   * @param signal the caller's cancellation
   */
  constructor(fetchFn: typeof fetch, timeouts: ProviderTimeouts, signal: AbortSignal) {
    this.#fetch = fetchFn;
    this.#timeouts = timeouts;
    this.#outer = signal;
    signal.addEventListener("abort", this.#onOuterAbort, { once: true });
  }

  /**
   * Sends the request and waits for the response headers.
   *
   * @param url where to
   * @param init method, headers and body
   * @returns the response, whatever its status
   * @throws {ProviderError} `cancelled`, `timeout` or `network`
   */
  async open(url: string, init: RequestInit): Promise<Response> {
    if (this.#outer.aborted) throw cancelledError();
    const limitMs = this.#timeouts.connectMs + this.#timeouts.headersMs;
    this.#arm(limitMs, `The provider sent no response headers within ${limitMs} ms`);
    try {
      const signal = this.#controller.signal;
      return await this.#guard(this.#fetch(url, { ...init, signal }));
    } catch (error) {
      throw this.#failure ?? networkError("Could not reach the provider", error);
    } finally {
      this.#disarm();
    }
  }

  /**
   * The body's chunks one read at a time, under the idle deadline: the body may never be
   * silent for longer than `idleMs`. No generator: a model call's stream reads thousands
   * of chunks, and a generator would add its promises to each. Call `close` when done,
   * also after a failure or when stopping early: it cancels what is left of the body.
   *
   * @param response a response from {@linkcode Exchange.open}
   * @returns the chunks; `next` rejects with a {@linkcode ProviderError} `cancelled`,
   *   `timeout`, or `network` when the connection breaks
   */
  body(response: Response): BodyChunks {
    if (!response.body) {
      const end = () => this.#failure ? Promise.reject(this.#failure) : Promise.resolve(null);
      return { next: end, close: () => Promise.resolve() };
    }
    const reader = bodyReader(response.body);
    this.#onFailure = (failure) => void reader.cancel(failure).catch(() => {});
    if (!this.#failure) this.#armIdle();
    let closed = false;
    const onRead = (result: ReadableStreamReadResult<Uint8Array>) => {
      this.#waitingSinceMs = null;
      // A cancelled reader ends with `done`: the failure that cancelled it is the outcome.
      if (this.#failure) throw this.#failure;
      return reader.take(result);
    };
    const onReadError = (error: unknown): never => {
      this.#waitingSinceMs = null;
      throw this.#failure ?? networkError("The connection broke while reading", error);
    };
    return {
      // `then` rather than an async function: one promise per chunk, not three.
      next: () => {
        if (this.#failure) return Promise.reject(this.#failure);
        if (closed) return Promise.resolve(null);
        this.#waitingSinceMs = performance.now();
        return reader.read().then(onRead, onReadError);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        this.#onFailure = null;
        this.#disarm();
        await reader.cancel().catch(() => {
          // The body is being abandoned; a failure to cancel it changes nothing.
        });
        reader.release();
      },
    };
  }

  /**
   * Reads a body as text, up to a limit.
   *
   * @param response a response from {@linkcode Exchange.open}
   * @param maxBytes most bytes read
   * @returns the text, and whether it is the whole body
   * @throws {ProviderError} like {@linkcode Exchange.body}'s reads
   */
  async readText(response: Response, maxBytes: number): Promise<BodyText> {
    const decoder = new TextDecoder();
    let text = "";
    let bytes = 0;
    const body = this.body(response);
    try {
      // Each view is decoded before the next read, so no copy is needed.
      for (let chunk = await body.next(); chunk !== null; chunk = await body.next()) {
        const room = maxBytes - bytes;
        bytes += chunk.byteLength;
        if (chunk.byteLength > room) {
          return { text: text + decoder.decode(chunk.subarray(0, room)), complete: false };
        }
        text += decoder.decode(chunk, { stream: true });
      }
    } finally {
      await body.close();
    }
    return { text: text + decoder.decode(), complete: true };
  }

  /** Ends the exchange: clears the deadline, aborts what is still open, stops listening. */
  close(): void {
    this.#disarm();
    this.#outer.removeEventListener("abort", this.#onOuterAbort);
    this.#controller.abort();
  }

  #arm(ms: number, message: string): void {
    this.#disarm();
    this.#timer = setTimeout(
      () => this.#fail(new ProviderError("timeout", message, { retryable: true })),
      ms,
    );
  }

  /** Starts the body's one idle timer; see the module comment. */
  #armIdle(): void {
    const { idleMs } = this.#timeouts;
    const message = `The provider sent nothing for ${idleMs} ms`;
    const check = () => {
      const since = this.#waitingSinceMs;
      const silentMs = since === null ? 0 : performance.now() - since;
      if (silentMs >= idleMs) {
        this.#timer = undefined;
        this.#fail(new ProviderError("timeout", message, { retryable: true }));
      } else {
        this.#timer = setTimeout(check, idleMs - silentMs);
      }
    };
    this.#disarm();
    this.#timer = setTimeout(check, idleMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #fail(failure: ProviderError): void {
    this.#failure ??= failure;
    this.#controller.abort(failure);
    this.#onFailure?.(this.#failure);
  }

  /** Settles with the promise, or rejects as soon as the exchange fails (an injected fetch may ignore the signal). */
  #guard<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    if (signal.aborted) {
      promise.catch(() => {});
      return Promise.reject(this.#failure ?? cancelledError());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.#failure ?? cancelledError());
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
}

/** A body's chunks, one read at a time ({@linkcode Exchange.body}). */
export interface BodyChunks {
  /**
   * The next chunk, or null at the end of the body. The chunk is a view of the read
   * buffer, valid until the next call: use it (decode it) before asking for the next.
   */
  next(): Promise<Uint8Array | null>;
  /** Stops reading: cancels the rest of the body (again: nothing). */
  close(): Promise<void>;
}

/**
 * Reads a body chunk by chunk; see the module comment for why a byte stream is read BYOB.
 * A read is the reader's own promise and `take` makes its result a chunk synchronously,
 * so a chunk costs one promise and not two.
 */
interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** The chunk a read gave, or null at the end. */
  take(result: ReadableStreamReadResult<Uint8Array>): Uint8Array | null;
  cancel(reason?: unknown): Promise<void>;
  /** Gives the read buffer back for the next body; call once the body is done with. */
  release(): void;
}

/** Read buffers of finished bodies, for the next ones. */
const spareBuffers: Uint8Array[] = [];

function bodyReader(body: ReadableStream<Uint8Array>): BodyReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream: only a byte stream supports a BYOB reader.
    const reader = body.getReader();
    return {
      read: () => reader.read(),
      take: (result) => result.done ? null : result.value,
      cancel: (reason) => reader.cancel(reason),
      release() {},
    };
  }
  let buffer = spareBuffers.pop() ?? new Uint8Array(BODY_READ_BUFFER_BYTES);
  return {
    read: () => byob.read(buffer),
    take(result) {
      if (result.done || result.value === undefined) {
        if (result.value) buffer = new Uint8Array(result.value.buffer);
        return null;
      }
      // The read transferred the buffer into `result.value`; the next read takes it back
      // (and detaches this view, which the caller has used by then).
      const { value } = result;
      buffer = new Uint8Array(value.buffer);
      return value;
    },
    cancel: (reason) => byob.cancel(reason),
    release() {
      // A buffer still held by a read that never completed is detached (length 0): dropped.
      if (
        buffer.byteLength === BODY_READ_BUFFER_BYTES && spareBuffers.length < BODY_READ_BUFFERS_KEPT
      ) {
        spareBuffers.push(buffer);
      }
    },
  };
}

/**
 * The failure of a cancelled call.
 *
 * @returns a `cancelled` failure
 */
export function cancelledError(): ProviderError {
  return new ProviderError("cancelled", "The provider call was cancelled");
}
