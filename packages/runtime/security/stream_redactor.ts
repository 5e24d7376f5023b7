/**
 * Redaction of a text that arrives in pieces (a model's streamed answer or reasoning).
 * Redacting each piece alone misses a credential split over two pieces; this redactor
 * keeps back the end of the text while it could still be the start of a protected value
 * (at most `PROTECTED_WINDOW_CHARS` − 1 code points, or one short value) and
 * releases it once the next piece (or {@linkcode StreamRedactor.flush}) decides it.
 *
 * What it releases, joined, is exactly `redact(whole text)`: a match that runs on across
 * pieces becomes one marker, never a marker per piece.
 *
 * @example
 * ```ts
 * const redactor = new StreamRedactor(protectedValues);
 * let shown = "";
 * for (const piece of ["key: sk-live-01", "23456789 done"]) shown += redactor.push(piece);
 * shown += redactor.flush(); // "key: [redacted] done"
 * ```
 *
 * @module
 */
import { codePointWidthBefore, REDACTED_MARKER, type Span } from "./protected_values.ts";

/** What the redactor needs of {@linkcode ProtectedValues} (read afresh on every piece). */
export interface StreamMatcher {
  /** Merged match spans of a text. */
  matchSpans(text: string): Span[];
  /** Where a text's end stops being final. */
  pendingStart(text: string): number;
}

/** Redacts one streamed text; one instance per stream. */
export class StreamRedactor {
  readonly #matcher: StreamMatcher;
  /** Received text not yet dropped: context before `#final`, then the held-back end. */
  #buffer = "";
  /** Offset in the whole stream of `#buffer[0]`. */
  #base = 0;
  /** Offset in the whole stream up to which output was released. */
  #final = 0;
  /** Offset in the whole stream where the last released marker's match ended. */
  #markerEnd = -1;

  /** @param matcher the protected values */
  constructor(matcher: StreamMatcher) {
    this.#matcher = matcher;
  }

  /**
   * Takes the next piece.
   *
   * @param piece streamed text
   * @returns the text that is now final, redacted (may be empty)
   */
  push(piece: string): string {
    if (piece === "") return "";
    this.#buffer += piece;
    return this.#release(false);
  }

  /**
   * Ends the stream.
   *
   * @returns whatever was held back, redacted
   */
  flush(): string {
    const rest = this.#release(true);
    this.#base += this.#buffer.length;
    this.#final = this.#base;
    this.#buffer = "";
    return rest;
  }

  /** Text held back right now (in UTF-16 units), for tests and bounds. */
  get heldBack(): number {
    return this.#base + this.#buffer.length - this.#final;
  }

  #release(ended: boolean): string {
    const buffer = this.#buffer;
    const spans = this.#matcher.matchSpans(buffer);
    const pending = ended ? buffer.length : this.#matcher.pendingStart(buffer);
    const released = this.#final - this.#base;
    let until = Math.max(pending, released);
    // Text inside a match is redacted whatever follows, so it need not wait.
    for (const [start, end] of spans) if (start < until && until < end) until = end;
    let output = "";
    let cursor = released;
    for (const [start, end] of spans) {
      if (end <= cursor) continue;
      if (start >= until) break;
      output += buffer.slice(cursor, Math.max(start, cursor));
      // A match touching the previous one continues its marker, as redact() merges them.
      if (this.#base + start > this.#markerEnd) output += REDACTED_MARKER;
      this.#markerEnd = this.#base + end;
      cursor = Math.min(end, until);
    }
    output += buffer.slice(cursor, until);
    this.#final = this.#base + until;
    if (!ended) this.#dropContext(Math.min(pending, until));
    return output;
  }

  /** Keeps only what later matches may start in, plus one code point before it. */
  #dropContext(keepFrom: number): void {
    let start = keepFrom;
    // Later matches start at `keepFrom` or after; a short value also needs the code point
    // before it (it matches only as a whole token).
    if (start > 0) start -= codePointWidthBefore(this.#buffer, start);
    if (start <= 0) return;
    this.#buffer = this.#buffer.slice(start);
    this.#base += start;
  }
}
