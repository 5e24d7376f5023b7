/**
 * Redaction of structured values (tool results' details, facts, RPC error data): every
 * string and every object key, at any depth, goes through the text redactor.
 *
 * @module
 */

/**
 * A copy of a JSON-like value with every string and key redacted; the value itself when
 * nothing changed (so clean values keep their identity).
 *
 * @param value any JSON-like value (a cycle's back reference becomes `"[circular]"`;
 *   instances of classes are kept as they are)
 * @param redact the text redactor
 * @returns the redacted value
 * @example
 * ```ts
 * redactValue({ output: "key sk-live-0123456789" }, (t) => protectedValues.redact(t));
 * ```
 */
export function redactValue<T>(value: T, redact: (text: string) => string): T {
  return walk(value, redact, new Set()) as T;
}

function walk(value: unknown, redact: (text: string) => string, seen: Set<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  // A cycle is not JSON; its back reference would carry the unredacted original.
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item) => walk(item, redact, seen));
      return items.every((item, index) => item === value[index]) ? value : items;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleanKey = redact(key);
      const cleanItem = walk(item, redact, seen);
      changed ||= cleanKey !== key || cleanItem !== item;
      copy[cleanKey] = cleanItem;
    }
    return changed ? copy : value;
  } finally {
    seen.delete(value);
  }
}
