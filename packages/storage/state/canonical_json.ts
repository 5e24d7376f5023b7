/**
 * Canonical JSON for the journal's hash chain: one text per JSON value whatever the order
 * of its object keys, so a payload hashes the same after a `JSON.parse` round trip.
 * Written here rather than imported from `@daedalus/tools` (storage imports only the
 * protocol), and kept in storage rather than moved to protocol because only the journal
 * hashes; it follows the same rules as the tools' canonical JSON.
 *
 * @module
 */
import { CANONICAL_JSON_MAX_DEPTH } from "../limits.ts";
import { JournalError } from "./errors.ts";

/**
 * The canonical JSON text of a value: object keys sorted by UTF-16 code unit at every
 * level, no whitespace, and otherwise exactly `JSON.stringify` (properties whose value is
 * `undefined` left out, an `undefined` array element written `null`, `-0` written `0`).
 *
 * @param value a JSON value
 * @returns its canonical text
 * @throws {JournalError} `invalid_event` for a value JSON cannot carry faithfully (a
 *   non-finite number, a bigint, a function, a symbol, a cycle, an object that is not
 *   plain, a top-level `undefined`) or nesting deeper than 256
 * @example
 * ```ts
 * canonicalJson({ b: [2, { d: 1, c: 0 }], a: "x" }); // '{"a":"x","b":[2,{"c":0,"d":1}]}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0, new Set());
}

function write(value: unknown, depth: number, open: Set<object>): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) refuse(`the number ${value} is not JSON`);
    return JSON.stringify(value);
  }
  if (typeof value !== "object") refuse(`a value of type ${typeof value} is not JSON`);
  if (depth >= CANONICAL_JSON_MAX_DEPTH) {
    refuse(`nesting is deeper than ${CANONICAL_JSON_MAX_DEPTH}`);
  }
  if (open.has(value)) refuse("the value contains itself");
  open.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item) => item === undefined ? "null" : write(item, depth + 1, open));
      return `[${items.join(",")}]`;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      refuse(`a ${prototype?.constructor?.name ?? "non-plain"} object is not JSON`);
    }
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(compareCodeUnits)
      .map((key) => `${JSON.stringify(key)}:${write(record[key], depth + 1, open)}`);
    return `{${members.join(",")}}`;
  } finally {
    open.delete(value);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function refuse(why: string): never {
  throw new JournalError("invalid_event", `An event payload must be JSON: ${why}`);
}
