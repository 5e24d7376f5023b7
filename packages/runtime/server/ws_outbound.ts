/**
 * The outbound side of one WebSocket: responses and event notifications leave in the
 * order they were queued, never faster than the peer reads. Deno's WebSocket only
 * exposes `bufferedAmount` (no drain event), so the queue hands messages to the
 * socket while the unflushed bytes stay under a high-water mark and polls otherwise.
 *
 * A peer is *stalled* when more than `maxEvents` events wait here, or when a message
 * handed to the socket stays unflushed for `sendTimeoutMs`; the owner then closes the
 * connection and the client catches up by replaying from its last seq.
 *
 * @module
 */
import { WS_DRAIN_POLL_MS } from "./limits.ts";

/** The part of a WebSocket the queue writes to. */
export interface OutboundSink {
  /** Sends one text message. */
  send(text: string): void;
  /** Bytes handed to `send` and not yet written to the network. */
  readonly bufferedAmount: number;
}

/** Why a peer was judged too slow. */
export type StallReason = "overflow" | "send_timeout";

/** Options of {@linkcode OutboundQueue}. */
export interface OutboundQueueOptions {
  /** Most events waiting (queued or held); one more is an overflow. */
  maxEvents: number;
  /** How long a sent message may stay unflushed. */
  sendTimeoutMs: number;
  /** Unflushed bytes above which messages wait here. */
  highWaterBytes: number;
  /** How often a blocked queue looks for room; default {@linkcode WS_DRAIN_POLL_MS}. */
  drainPollMs?: number;
  /** Called once, when the peer is judged stalled; the queue stops sending. */
  onStall: (reason: StallReason) => void;
  /** The clock, in milliseconds. */
  now?: () => number;
}

interface Waiting {
  text: string;
  /** Its UTF-8 length, when the sender already knows it. */
  bytes: number | undefined;
  isEvent: boolean;
}

interface InFlight {
  endOffset: number;
  sentAt: number;
}

/** One connection's ordered outbound messages. */
export class OutboundQueue {
  readonly #sink: OutboundSink;
  readonly #options: OutboundQueueOptions;
  readonly #now: () => number;
  readonly #waiting: Waiting[] = [];
  readonly #inFlight: InFlight[] = [];
  #held: Waiting[] | null = null;
  #holds = 0;
  #eventCount = 0;
  #sentBytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDueAt = Number.POSITIVE_INFINITY;
  #finished = false;

  /**
   * Makes an empty queue in front of `sink`.
   *
   * @param sink the socket
   * @param options the limits and the stall callback
   */
  constructor(sink: OutboundSink, options: OutboundQueueOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Events waiting to be handed to the socket (queued and held). */
  get waitingEvents(): number {
    return this.#eventCount;
  }

  /**
   * Queues a response; responses never count toward the event limit.
   *
   * @param text the JSON text
   */
  pushResponse(text: string): void {
    if (this.#finished) return;
    this.#waiting.push({ text, bytes: undefined, isEvent: false });
    this.#flush();
  }

  /**
   * Queues an event notification (or holds it, see {@linkcode holdEvents}).
   *
   * @param text the JSON text
   * @param bytes its UTF-8 length, when known (an event shared by every connection is
   *   measured once); counted here otherwise
   */
  pushEvent(text: string, bytes?: number): void {
    if (this.#finished) return;
    if (this.#eventCount >= this.#options.maxEvents) {
      this.#stall("overflow");
      return;
    }
    this.#eventCount++;
    const waiting = { text, bytes, isEvent: true };
    if (this.#held) {
      this.#held.push(waiting);
      return;
    }
    this.#waiting.push(waiting);
    this.#flush();
  }

  /**
   * Keeps events back (responses still pass) until {@linkcode releaseEvents}. Holds
   * nest: each call needs its own release, so one finished command cannot let out the
   * events another one still holds.
   */
  holdEvents(): void {
    this.#holds++;
    this.#held ??= [];
  }

  /** Ends one hold; the last one queues the held events behind everything queued so far. */
  releaseEvents(): void {
    if (this.#holds === 0) return;
    this.#holds--;
    const held = this.#held;
    if (this.#holds > 0 || !held) return;
    this.#held = null;
    for (const waiting of held) this.#waiting.push(waiting);
    this.#flush();
  }

  /** Drops everything and stops the timer (the connection is closing). */
  dispose(): void {
    this.#finished = true;
    this.#waiting.length = 0;
    this.#inFlight.length = 0;
    this.#held = null;
    this.#holds = 0;
    this.#eventCount = 0;
    this.#clearTimer();
  }

  #flush(): void {
    if (this.#finished) return;
    this.#forgetFlushed();
    while (this.#waiting.length > 0 && this.#sink.bufferedAmount <= this.#options.highWaterBytes) {
      const next = this.#waiting.shift();
      if (!next) break;
      if (next.isEvent) this.#eventCount--;
      this.#sink.send(next.text);
      this.#sentBytes += next.bytes ?? utf8ByteLength(next.text);
      this.#inFlight.push({ endOffset: this.#sentBytes, sentAt: this.#now() });
    }
    const oldest = this.#inFlight[0];
    if (oldest && this.#now() - oldest.sentAt >= this.#options.sendTimeoutMs) {
      this.#stall("send_timeout");
      return;
    }
    this.#schedule();
  }

  /** Drops the in-flight records the socket has written out (it writes in order). */
  #forgetFlushed(): void {
    const flushedOffset = this.#sentBytes - this.#sink.bufferedAmount;
    while (this.#inFlight.length > 0 && this.#inFlight[0].endOffset <= flushedOffset) {
      this.#inFlight.shift();
    }
  }

  /** Polls soon while messages wait; else wakes when the oldest send would time out. */
  #schedule(): void {
    const oldest = this.#inFlight[0];
    if (this.#waiting.length === 0 && !oldest) {
      this.#clearTimer();
      return;
    }
    const untilTimeout = oldest
      ? Math.max(0, oldest.sentAt + this.#options.sendTimeoutMs - this.#now())
      : Number.POSITIVE_INFINITY;
    const delay = this.#waiting.length > 0
      ? Math.min(this.#options.drainPollMs ?? WS_DRAIN_POLL_MS, untilTimeout)
      : untilTimeout;
    const dueAt = this.#now() + delay;
    if (this.#timer !== undefined && this.#timerDueAt <= dueAt) return; // an earlier wake-up suffices
    this.#clearTimer();
    this.#timerDueAt = dueAt;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerDueAt = Number.POSITIVE_INFINITY;
      this.#flush();
    }, delay);
  }

  #stall(reason: StallReason): void {
    if (this.#finished) return;
    this.dispose();
    this.#options.onStall(reason);
  }

  #clearTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDueAt = Number.POSITIVE_INFINITY;
  }
}

/**
 * The UTF-8 length of a string (what `bufferedAmount` counts), without encoding it.
 *
 * @param text the string
 * @returns its length in UTF-8 bytes (a lone surrogate counts as U+FFFD, 3 bytes)
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
