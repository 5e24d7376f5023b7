/**
 * Server-sent events framing, as the HTML standard defines it: lines end with CRLF,
 * LF or CR; `data:` lines of one event are joined with LF; a blank line dispatches;
 * comments (`:`) and the `event`, `id` and `retry` fields carry nothing a model stream
 * needs and are skipped. An event cut off by the end of the stream is discarded.
 *
 * @module
 */
import { ProviderError } from "../provider.ts";
import { SSE_EVENT_MAX_CHARS } from "./limits.ts";

const LINE_TERMINATOR = /[\r\n]/g;

/**
 * An incremental SSE parser: feed it decoded text in any split, get the data of each
 * complete event.
 *
 * @example
 * ```ts
 * const parser = new SseParser();
 * parser.push("data: a\r\nda"); // []
 * parser.push("ta: b\r\n\r\n"); // ["a\nb"]
 * ```
 */
export class SseParser {
  readonly #maxEventChars: number;
  #pendingLine = "";
  #eventChars = 0;
  #data: string[] = [];
  #hasData = false;
  #skipLineFeed = false;

  /** @param maxEventChars longest event (its lines, terminators excluded) */
  constructor(maxEventChars: number = SSE_EVENT_MAX_CHARS) {
    this.#maxEventChars = maxEventChars;
  }

  /**
   * Parses the next piece of the stream.
   *
   * @param text decoded text, split anywhere
   * @returns the data of every event completed by it, in order
   * @throws {ProviderError} `protocol` when an event grows beyond the limit
   */
  push(text: string): string[] {
    const events: string[] = [];
    let start = this.#skipLineFeed && text.startsWith("\n") ? 1 : 0;
    if (text.length > 0) this.#skipLineFeed = false;
    while (start < text.length) {
      LINE_TERMINATOR.lastIndex = start;
      const found = LINE_TERMINATOR.exec(text);
      if (!found) {
        this.#pendingLine += text.slice(start);
        this.#checkSize(this.#pendingLine.length);
        break;
      }
      const end = found.index;
      const line = this.#pendingLine + text.slice(start, end);
      this.#pendingLine = "";
      this.#acceptLine(line, events);
      start = end + 1;
      if (text[end] !== "\r") continue;
      if (start === text.length) this.#skipLineFeed = true;
      else if (text[start] === "\n") start += 1;
    }
    return events;
  }

  /**
   * Ends the stream: an event without its closing blank line is discarded, as the
   * standard says.
   */
  end(): void {
    this.#pendingLine = "";
    this.#resetEvent();
  }

  #acceptLine(line: string, events: string[]): void {
    if (line === "") {
      if (this.#hasData) events.push(this.#data.join("\n"));
      this.#resetEvent();
      return;
    }
    this.#checkSize(line.length);
    this.#eventChars += line.length;
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "data") return;
    const value = colon === -1 ? "" : line.slice(colon + 1);
    this.#data.push(value.startsWith(" ") ? value.slice(1) : value);
    this.#hasData = true;
  }

  #checkSize(lineChars: number): void {
    if (this.#eventChars + lineChars <= this.#maxEventChars) return;
    throw new ProviderError(
      "protocol",
      `An event of the stream is longer than ${this.#maxEventChars} characters`,
    );
  }

  #resetEvent(): void {
    this.#data = [];
    this.#hasData = false;
    this.#eventChars = 0;
  }
}
