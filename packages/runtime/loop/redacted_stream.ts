/**
 * The agent loop's credential filter for what a model call yields: streamed text and
 * reasoning go through a {@linkcode StreamRedactor} (a key split over deltas is caught),
 * tool-call names and arguments and the response's ids are redacted whole.
 *
 * @module
 */
import type { ProviderEvent } from "../providers/provider.ts";
import { type StreamMatcher, StreamRedactor } from "../security/stream_redactor.ts";
import { DeltaCoalescer } from "./delta_coalescer.ts";

/** The protected values as the loop sees them (absent: nothing is protected). */
export interface LoopRedaction {
  /** Configured credentials. */
  protectedValues?: StreamMatcher & { redact(text: string): string };
}

type Finish = Extract<ProviderEvent, { type: "finish" }>;
type ToolCall = Extract<ProviderEvent, { type: "tool_call" }>;

/** A coalesced delta stream whose text is redacted as one whole. */
export interface RedactedStream {
  /** Adds a delta. */
  push(text: string): void;
  /** Releases what was held back and writes everything buffered. */
  flush(): void;
}

/**
 * A delta writer behind a stream redactor and a coalescer.
 *
 * A cancelled stream drops what the redactor still holds back (fewer than 8 code points
 * at the cut, which may be the start of a key): nothing is journaled after the cancel, as
 * before redaction held anything back.
 *
 * @param deps the protected values
 * @param signal the Run's cancellation
 * @param write persists one (redacted) piece
 * @returns the stream
 */
export function redactedStream(
  deps: LoopRedaction,
  signal: AbortSignal,
  write: (delta: string) => void,
): RedactedStream {
  const coalescer = new DeltaCoalescer(write);
  const values = deps.protectedValues;
  if (!values) return coalescer;
  const redactor = new StreamRedactor(values);
  return {
    push: (text) => coalescer.push(redactor.push(text)),
    flush: () => {
      const held = redactor.flush();
      if (!signal.aborted) coalescer.push(held);
      coalescer.flush();
    },
  };
}

/**
 * A tool call with its id, name and (JSON) arguments redacted; the marker is plain text, so
 * redacted arguments stay valid JSON.
 *
 * @param deps the protected values
 * @param call the call as streamed
 * @returns the call as it is journaled and run
 */
export function redactToolCall<T extends ToolCall>(deps: LoopRedaction, call: T): T {
  const values = deps.protectedValues;
  if (!values) return call;
  return {
    ...call,
    id: values.redact(call.id),
    name: values.redact(call.name),
    arguments: values.redact(call.arguments),
  };
}

/**
 * The finish event with its response model id and request id (a response header, or the
 * chunk id) redacted.
 *
 * @param deps the protected values
 * @param finish the event
 * @returns the event as it is journaled
 */
export function redactFinish(deps: LoopRedaction, finish: Finish): Finish {
  const values = deps.protectedValues;
  if (!values) return finish;
  const redact = (text: string | null) => text === null ? null : values.redact(text);
  return {
    ...finish,
    responseModelId: redact(finish.responseModelId),
    requestId: redact(finish.requestId),
  };
}
