/**
 * A Dify chat stream as SSE bytes: each object a `data: <json>\n\n` frame, and the bare
 * frame `event: ping\n\n` (no data line) when the stream starts and every 10 s after, so
 * proxies and clients keep a quiet stream open. The stream closes after `message_end` or
 * `error`; a failure of the event source after the stream started is an `error` frame,
 * never a broken connection. A client that goes away cancels the source.
 *
 * @module
 */
import type { CanonicalEvent } from "@daedalus/protocol";
import { type ScheduleTimer, scheduleTimer } from "../timer.ts";
import type { DifyEncoder, DifyObject } from "./dify_encoder.ts";
import { DIFY_PING_INTERVAL_MS } from "./limits.ts";

/** The ping frame, exactly as Dify sends it. */
export const DIFY_PING_FRAME = "event: ping\n\n";

/** What {@linkcode difySseStream} may be given. */
export interface DifySseOptions {
  /** The timer of the pings; default the real clock's. */
  schedule?: ScheduleTimer;
  /** The time now (epoch ms), for `message_end`'s latency; default `Date.now`. */
  now?: () => number;
  /** Between pings (ms); default {@linkcode DIFY_PING_INTERVAL_MS}. */
  pingIntervalMs?: number;
  /** Told when the client went away before the end (to stop the run). */
  onClientGone?: () => void;
}

/**
 * One SSE data frame.
 *
 * @param object the Dify object
 * @returns `data: <json>\n\n`
 */
export function difyDataFrame(object: DifyObject): string {
  return `data: ${JSON.stringify(object)}\n\n`;
}

/**
 * Serves canonical events as a Dify SSE body.
 *
 * @param events the stream's canonical events (ending with `done`, or throwing)
 * @param encoder the stream's encoder (its ids)
 * @param options timer, clock, ping interval, disconnect hook
 * @returns the body
 */
export function difySseStream(
  events: AsyncIterable<CanonicalEvent>,
  encoder: DifyEncoder,
  options: DifySseOptions = {},
): ReadableStream<Uint8Array> {
  const schedule = options.schedule ?? scheduleTimer;
  const now = options.now ?? Date.now;
  const interval = options.pingIntervalMs ?? DIFY_PING_INTERVAL_MS;
  const bytes = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let cancelPing = () => {};
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(bytes.encode(text));
      };
      const ping = () => {
        send(DIFY_PING_FRAME);
        cancelPing = schedule(ping, interval);
      };
      ping();
      const finish = () => {
        if (closed) return;
        closed = true;
        cancelPing();
        controller.close();
      };
      (async () => {
        try {
          while (!closed) {
            const next = await iterator.next();
            if (next.done) break;
            for (const object of encoder.encode(next.value, now())) send(difyDataFrame(object));
            if (encoder.ended) break;
          }
          if (!encoder.ended && !closed) {
            // The source ended without `done`: the stream still ends in Dify's terms.
            for (
              const object of encoder.encode(
                { type: "done", status: "completed", usage: null },
                now(),
              )
            ) {
              send(difyDataFrame(object));
            }
          }
        } catch (error) {
          for (
            const object of encoder.encode({
              type: "error",
              code: "internal_server_error",
              message: error instanceof Error ? error.message : String(error),
              recoverable: false,
            }, now())
          ) send(difyDataFrame(object));
        }
        finish();
      })();
    },
    cancel() {
      closed = true;
      cancelPing();
      options.onClientGone?.();
      iterator.return?.().catch(() => {});
    },
  });
}
