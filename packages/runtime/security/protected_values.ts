/**
 * Credential protection (seed 000 §6.16, §7): the configured API keys and header values,
 * and any credential that passed through the runtime (a key given to
 * `provider.discover_models`), must never reach the journal, events, logs, responses,
 * errors or the UI. {@linkcode ProtectedValues} finds them in text, refuses requests that
 * carry them, and redacts them.
 *
 * What counts as a match, by the length of the protected value in Unicode code points:
 * - 8 or more: the value itself, or any 8-code-point piece of it embedded anywhere in the
 *   text ("≥ 8-character embedded detection"). Every 8-code-point window of each value is
 *   kept in a Set, and the text is scanned once with a sliding window of the same size.
 * - 4 to 7: the exact value as a whole token, i.e. not preceded or followed by a letter,
 *   digit, combining mark, `_` or `-`. A short value is too common to match inside words.
 * - fewer than 4 (or blank): not protected. Values like `1` or `yes` are not credentials and
 *   would otherwise block ordinary text.
 *
 * Matching is exact: case-sensitive and without Unicode normalization. Values are never
 * forgotten while the runtime runs: a rotated or removed key stays protected, because it may
 * still be echoed by something that saw it.
 *
 * @example
 * ```ts
 * const protectedValues = ProtectedValues.fromConfig(config);
 * protectedValues.find("Bearer sk-live-0123456789"); // true when that key is configured
 * protectedValues.assertSafe(params, "params"); // throws RpcError protected_value
 * protectedValues.redact(output); // "... [redacted] ..."
 * ```
 *
 * @module
 */
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import type { DaedalusConfig } from "@daedalus/storage";
import { isSecretEnvName } from "./secret_env_names.ts";

/** Length in code points of the embedded pieces that count as a leak. */
export const PROTECTED_WINDOW_CHARS = 8;

/** The rolling hash of a window: Σ point × BASE^(7 − i), modulo 2^32. */
const HASH_BASE = 0x01000193;
const HASH_BASE_POW = Array.from({ length: PROTECTED_WINDOW_CHARS }).reduce<number>(
  (power) => Math.imul(power, HASH_BASE),
  1,
);

function windowHash(chars: readonly string[]): number {
  let hash = 0;
  for (const char of chars) hash = (Math.imul(hash, HASH_BASE) + char.codePointAt(0)!) >>> 0;
  return hash;
}

/** Values shorter than this many code points are not protected (they are not credentials). */
export const PROTECTED_VALUE_MIN_CHARS = 4;

/** What a redacted match is replaced with. */
export const REDACTED_MARKER = "[redacted]";

const TOKEN_CHAR = /[\p{L}\p{N}\p{M}_-]/u;

/** A half-open range of UTF-16 offsets `[start, end)`. */
export type Span = [start: number, end: number];

/**
 * The protected values of a runtime: every configured credential plus those registered
 * while it runs.
 */
export class ProtectedValues {
  readonly #values = new Set<string>();
  readonly #windows = new Set<string>();
  readonly #windowHashes = new Set<number>();
  readonly #shortValues = new Set<string>();
  /** Every beginning (1 to 7 code points) of a window: text that may still grow into one. */
  readonly #windowHeads = new Set<string>();
  /** Every beginning of a short value, the whole value included (its end is not known yet). */
  readonly #shortHeads = new Set<string>();
  #longestHeadChars = 0;

  /**
   * Collects the credentials of a config.
   *
   * @param config the config; its API keys and header values become protected
   * @returns the protected values
   */
  static fromConfig(config: DaedalusConfig): ProtectedValues {
    const protectedValues = new ProtectedValues();
    protectedValues.update(config);
    return protectedValues;
  }

  /**
   * Adds the credentials of a (new) config. Values of the previous config stay protected.
   *
   * @param config the config just read or written
   */
  update(config: DaedalusConfig): void {
    for (const value of configuredCredentials(config)) this.register(value);
  }

  /**
   * Protects one more value, e.g. a key that was used but not saved.
   *
   * @param value the credential; blank values and values under
   *   {@linkcode PROTECTED_VALUE_MIN_CHARS} code points are ignored
   */
  register(value: string): void {
    if (value.trim() === "" || this.#values.has(value)) return;
    const chars = Array.from(value);
    if (chars.length < PROTECTED_VALUE_MIN_CHARS) return;
    this.#values.add(value);
    if (chars.length < PROTECTED_WINDOW_CHARS) {
      this.#shortValues.add(value);
      for (let length = 1; length <= chars.length; length++) {
        this.#shortHeads.add(chars.slice(0, length).join(""));
      }
      this.#longestHeadChars = Math.max(this.#longestHeadChars, chars.length);
      return;
    }
    for (let index = 0; index + PROTECTED_WINDOW_CHARS <= chars.length; index++) {
      const window = chars.slice(index, index + PROTECTED_WINDOW_CHARS);
      this.#windows.add(window.join(""));
      this.#windowHashes.add(windowHash(window));
      for (let length = 1; length < PROTECTED_WINDOW_CHARS; length++) {
        this.#windowHeads.add(chars.slice(index, index + length).join(""));
      }
    }
    this.#longestHeadChars = Math.max(this.#longestHeadChars, PROTECTED_WINDOW_CHARS - 1);
  }

  /**
   * The protected values themselves (to hand to a sandboxed tool worker).
   *
   * @returns every registered value
   */
  values(): string[] {
    return [...this.#values];
  }

  /** How many distinct values are protected. */
  get size(): number {
    return this.#values.size;
  }

  /**
   * Tells whether text contains a protected value (see the module doc for what matches).
   *
   * @param text any text
   * @returns true when it contains a protected value or an 8-code-point piece of one
   */
  find(text: string): boolean {
    if (this.#windows.size > 0) {
      for (const _span of this.#windowMatches(text)) return true;
    }
    for (const value of this.#shortValues) {
      for (const _span of tokenMatches(text, value)) return true;
    }
    return false;
  }

  /**
   * Replaces every protected value (and every embedded piece of one) with
   * {@linkcode REDACTED_MARKER}; overlapping and adjacent matches become one marker.
   *
   * @param text any text
   * @returns the text without protected values
   */
  redact(text: string): string {
    const spans = this.matchSpans(text);
    if (spans.length === 0) return text;
    let output = "";
    let cursor = 0;
    for (const [start, end] of spans) {
      output += text.slice(cursor, start) + REDACTED_MARKER;
      cursor = end;
    }
    return output + text.slice(cursor);
  }

  /**
   * Where the protected values (and embedded pieces) are in a text, as {@linkcode redact}
   * replaces them: sorted, overlapping and adjacent matches merged into one span.
   *
   * @param text any text
   * @returns the spans, as UTF-16 offsets
   */
  matchSpans(text: string): Span[] {
    const spans: Span[] = [...this.#windowMatches(text)];
    for (const value of this.#shortValues) spans.push(...tokenMatches(text, value));
    spans.sort((a, b) => a[0] - b[0]);
    const merged: Span[] = [];
    for (const [start, end] of spans) {
      const last = merged.at(-1);
      if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    return merged;
  }

  /**
   * Where the end of a text stops being final: the start of its longest suffix that more
   * text could turn into a match (the head of a window, or of a short value). A streamed
   * text is safe to show up to here; the rest must wait for the next piece.
   *
   * @param text the text received so far
   * @returns a UTF-16 offset; `text.length` when no suffix can grow into a match
   */
  pendingStart(text: string): number {
    let pending = text.length;
    let start = text.length;
    for (let chars = 1; chars <= this.#longestHeadChars && start > 0; chars++) {
      start -= codePointWidthBefore(text, start);
      const suffix = text.slice(start);
      if (this.#windowHeads.has(suffix) || this.#shortHeads.has(suffix)) pending = start;
    }
    return pending;
  }

  /**
   * Refuses a value (request params, a title, tool arguments…) that carries a protected
   * value in any string or object key, at any depth.
   *
   * @param value any JSON-like value
   * @param field the name of the value, the root of the reported path
   * @throws {RpcError} -32602 with reasonCode `protected_value` and `data.field` naming the
   *   offending path (never the value itself)
   */
  assertSafe(value: unknown, field: string): void {
    if (this.#values.size === 0) return;
    const pending: { value: unknown; path: string }[] = [{ value, path: field }];
    const seen = new Set<object>();
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { value: current, path } = next;
      if (typeof current === "string") {
        if (this.find(current)) throw protectedValueError(path);
        continue;
      }
      if (typeof current !== "object" || current === null || seen.has(current)) continue;
      seen.add(current);
      if (Array.isArray(current)) {
        current.forEach((item, index) => pending.push({ value: item, path: join(path, index) }));
        continue;
      }
      for (const [key, item] of Object.entries(current)) {
        // The key is checked before it becomes part of a reported path.
        if (this.find(key)) throw protectedValueError(path);
        pending.push({ value: item, path: join(path, key) });
      }
    }
  }

  /** Spans of the text's 8-code-point windows that are pieces of a protected value. */
  *#windowMatches(text: string): Generator<Span> {
    if (this.#windows.size === 0) return;
    // The last PROTECTED_WINDOW_CHARS code points and their start offsets, as rings, and a
    // rolling hash of them: a window is sliced and looked up only when its hash is known.
    const starts = new Array<number>(PROTECTED_WINDOW_CHARS).fill(0);
    const points = new Array<number>(PROTECTED_WINDOW_CHARS).fill(0);
    let count = 0;
    let offset = 0;
    let hash = 0;
    while (offset < text.length) {
      const width = codePointWidth(text, offset);
      const point = width === 2 ? text.codePointAt(offset)! : text.charCodeAt(offset);
      const slot = count % PROTECTED_WINDOW_CHARS;
      const leaving = count >= PROTECTED_WINDOW_CHARS ? Math.imul(points[slot], HASH_BASE_POW) : 0;
      hash = (Math.imul(hash, HASH_BASE) + point - leaving) >>> 0;
      starts[slot] = offset;
      points[slot] = point;
      count++;
      offset += width;
      if (count < PROTECTED_WINDOW_CHARS || !this.#windowHashes.has(hash)) continue;
      const start = starts[count % PROTECTED_WINDOW_CHARS];
      if (this.#windows.has(text.slice(start, offset))) yield [start, offset];
    }
  }
}

/**
 * The credentials a config holds: every provider's `api_key` and header values, and every
 * MCP server's header values and the `env` values whose names say they are secrets
 * (`secret_env_names.ts`).
 *
 * @param config a validated config
 * @returns the credentials, in config order
 */
export function configuredCredentials(config: DaedalusConfig): string[] {
  const values: string[] = [];
  for (const provider of Object.values(config.providers)) {
    if (provider.api_key !== undefined) values.push(provider.api_key);
    values.push(...Object.values(provider.headers ?? {}));
  }
  for (const server of Object.values(config.mcp?.servers ?? {})) {
    values.push(...Object.values(server.headers ?? {}));
    for (const [name, value] of Object.entries(server.env ?? {})) {
      if (isSecretEnvName(name)) values.push(value);
    }
  }
  return values;
}

function* tokenMatches(text: string, value: string): Generator<Span> {
  for (let index = text.indexOf(value); index >= 0; index = text.indexOf(value, index + 1)) {
    const end = index + value.length;
    if (isTokenChar(charBefore(text, index)) || isTokenChar(text.codePointAt(end))) continue;
    yield [index, end];
  }
}

function isTokenChar(codePoint: number | undefined): boolean {
  return codePoint !== undefined && TOKEN_CHAR.test(String.fromCodePoint(codePoint));
}

function charBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const unit = text.charCodeAt(index - 1);
  const isLowSurrogate = unit >= 0xdc00 && unit <= 0xdfff;
  if (!isLowSurrogate || index < 2) return unit;
  const previous = text.charCodeAt(index - 2);
  return previous >= 0xd800 && previous <= 0xdbff ? text.codePointAt(index - 2) : unit;
}

/** The UTF-16 width of the code point that ends at `offset` (which must be > 0). */
export function codePointWidthBefore(text: string, offset: number): number {
  const unit = text.charCodeAt(offset - 1);
  if (unit < 0xdc00 || unit > 0xdfff || offset < 2) return 1;
  const previous = text.charCodeAt(offset - 2);
  return previous >= 0xd800 && previous <= 0xdbff ? 2 : 1;
}

function codePointWidth(text: string, offset: number): number {
  const unit = text.charCodeAt(offset);
  if (unit < 0xd800 || unit > 0xdbff || offset + 1 >= text.length) return 1;
  const next = text.charCodeAt(offset + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

function join(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function protectedValueError(path: string): RpcError {
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "protected_value",
    `${path || "The request"} contains a protected credential value`,
    path ? { field: path } : {},
  );
}
