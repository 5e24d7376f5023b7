/**
 * The strict JSON codec used on every inbound and outbound message: standard JSON
 * plus four rules JavaScript's own `JSON.parse` does not enforce.
 *
 * @module
 */
import { JSON_MAX_DEPTH, MESSAGE_DEFAULT_MAX_BYTES } from "./limits.ts";

/** Why a text was refused by the strict codec; each has its own message. */
export type StrictJsonViolation =
  | "invalid_json"
  | "message_too_large"
  | "nesting_too_deep"
  | "non_finite_number"
  | "unsafe_integer";

/** Thrown when a text or value breaks the strict JSON rules. */
export class StrictJsonError extends Error {
  /** Which rule was broken. */
  readonly code: StrictJsonViolation;

  /**
   * Names the broken rule.
   *
   * @param code the broken rule
   * @param message a sentence-case description
   * @param options the original error, when there is one
   */
  constructor(code: StrictJsonViolation, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StrictJsonError";
    this.code = code;
  }
}

/** Options of {@linkcode decodeStrictJson}. */
export interface DecodeOptions {
  /** Largest accepted input in UTF-8 bytes. */
  maxBytes?: number;
  /** Deepest accepted nesting of arrays and objects. */
  maxDepth?: number;
}

const encoder = new TextEncoder();

/**
 * Parses one JSON text under the strict rules: at most `maxBytes` UTF-8 bytes, no
 * nesting deeper than `maxDepth`, no `NaN`/`Infinity` (literal or overflowing like
 * `1e400`), and no integer outside ±(2^53 − 1).
 *
 * @param text the JSON text, or its UTF-8 bytes
 * @param options limits; defaults are {@linkcode MESSAGE_DEFAULT_MAX_BYTES} and {@linkcode JSON_MAX_DEPTH}
 * @returns the parsed value
 * @throws {StrictJsonError} naming the broken rule
 * @example
 * ```ts
 * decodeStrictJson('{"a":1}'); // { a: 1 }
 * ```
 */
export function decodeStrictJson(text: string | Uint8Array, options: DecodeOptions = {}): unknown {
  const maxBytes = options.maxBytes ?? MESSAGE_DEFAULT_MAX_BYTES;
  const maxDepth = options.maxDepth ?? JSON_MAX_DEPTH;
  const byteLength = typeof text === "string" ? utf8Length(text, maxBytes) : text.byteLength;
  if (byteLength > maxBytes) {
    throw new StrictJsonError(
      "message_too_large",
      `Message is larger than the limit of ${maxBytes} bytes`,
    );
  }
  const source = typeof text === "string" ? text : new TextDecoder().decode(text);
  scanDepthAndNonFinite(source, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new StrictJsonError("invalid_json", "Message is not valid JSON", { cause: error });
  }
  assertStrictJsonValue(value, maxDepth);
  return value;
}

/**
 * Serializes a value under the same rules {@linkcode decodeStrictJson} enforces,
 * so nothing the runtime sends could be refused by a strict peer.
 *
 * @param value any JSON-compatible value
 * @returns the JSON text
 * @throws {StrictJsonError} for non-finite numbers, unsafe integers or too-deep nesting
 */
export function encodeStrictJson(value: unknown): string {
  assertStrictJsonValue(value, JSON_MAX_DEPTH);
  return JSON.stringify(value);
}

/**
 * Checks an already-parsed value against the strict rules (numbers finite and
 * safe, depth bounded). `undefined` members are allowed: JSON drops them.
 *
 * @param value the value to check
 * @param maxDepth deepest accepted nesting
 * @throws {StrictJsonError} naming the broken rule and the path of the bad value
 */
export function assertStrictJsonValue(value: unknown, maxDepth: number = JSON_MAX_DEPTH): void {
  // Every message passes here, so the check builds no path strings; only a value that
  // breaks a rule is walked again to name where it is.
  if (isStrict(value, 0, maxDepth)) return;
  walk(value, 0, "$");

  function walk(node: unknown, depth: number, path: string): void {
    if (typeof node === "number") {
      if (!Number.isFinite(node)) {
        throw new StrictJsonError("non_finite_number", `Number at ${path} is not finite`);
      }
      if (Number.isInteger(node) && !Number.isSafeInteger(node)) {
        throw new StrictJsonError(
          "unsafe_integer",
          `Integer at ${path} is outside ±(2^53 − 1)`,
        );
      }
      return;
    }
    if (typeof node === "bigint") {
      throw new StrictJsonError("unsafe_integer", `BigInt at ${path} cannot be sent as JSON`);
    }
    if (node === null || typeof node !== "object") return;
    if (depth >= maxDepth) {
      throw new StrictJsonError(
        "nesting_too_deep",
        `Nesting is deeper than the limit of ${maxDepth} levels`,
      );
    }
    if (Array.isArray(node)) {
      node.forEach((child, index) => walk(child, depth + 1, `${path}[${index}]`));
      return;
    }
    for (const [key, child] of Object.entries(node)) walk(child, depth + 1, `${path}.${key}`);
  }
}

/** Whether a value keeps every strict rule (the same rules as `walk`, without paths). */
function isStrict(node: unknown, depth: number, maxDepth: number): boolean {
  if (typeof node === "number") {
    return Number.isSafeInteger(node) || (Number.isFinite(node) && !Number.isInteger(node));
  }
  if (typeof node === "bigint") return false;
  if (node === null || typeof node !== "object") return true;
  if (depth >= maxDepth) return false;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (!isStrict(node[i], depth + 1, maxDepth)) return false;
    return true;
  }
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!isStrict(record[key], depth + 1, maxDepth)) return false;
  }
  return true;
}

/** Counts UTF-8 bytes but stops early once past the limit (huge strings are cheap to refuse). */
function utf8Length(text: string, limit: number): number {
  if (text.length > limit) return text.length; // at least one byte per UTF-16 unit
  if (text.length * 3 <= limit) return text.length; // cannot exceed even if all 3-byte
  return encoder.encode(text).byteLength;
}

/**
 * One pass over the raw text, outside string literals: refuses nesting beyond
 * the limit before `JSON.parse` recurses into it, and names `NaN`/`Infinity`
 * literals (which `JSON.parse` would only call a syntax error).
 */
function scanDepthAndNonFinite(source: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped char
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > maxDepth) {
        throw new StrictJsonError(
          "nesting_too_deep",
          `Nesting is deeper than the limit of ${maxDepth} levels`,
        );
      }
    } else if (ch === 0x7d || ch === 0x5d) depth--;
    else if (ch === 0x4e /* N */ && source.startsWith("NaN", i)) {
      throw new StrictJsonError("non_finite_number", "NaN is not a JSON number");
    } else if (ch === 0x49 /* I */ && source.startsWith("Infinity", i)) {
      throw new StrictJsonError("non_finite_number", "Infinity is not a JSON number");
    }
  }
}
