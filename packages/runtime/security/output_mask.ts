/**
 * Credentials masked in raw output bytes (a command's log on disk), keeping the length:
 * cursors into the log are byte offsets, so a match is overwritten in place rather than
 * replaced by the shorter or longer marker.
 *
 * Matching runs on bytes (each byte one character), so the window of an embedded piece is
 * 8 bytes, which for ASCII keys and the access token is the same 8 characters.
 *
 * @example
 * ```ts
 * const mask = outputMask(() => protectedValues.values());
 * const masked = mask(bytes); // null when the bytes carry no credential
 * ```
 *
 * @module
 */
import { ProtectedValues } from "./protected_values.ts";

// windows-1252 maps every byte to one BMP code point, and back: one byte, one UTF-16 unit.
const BYTE_TEXT = new TextDecoder("windows-1252");
const MASK = "[redacted]";

/**
 * A same-length masker over the current protected values.
 *
 * @param values the protected values (read on each call; new ones are picked up)
 * @returns a function giving the masked copy of some bytes, or null when none matched
 */
export function outputMask(
  values: () => readonly string[],
): (bytes: Uint8Array) => Uint8Array | null {
  const byteValues = new ProtectedValues();
  let known = 0;
  return (bytes) => {
    const current = values();
    if (current.length !== known) {
      for (const value of current) byteValues.register(asByteText(new TextEncoder().encode(value)));
      known = current.length;
    }
    if (byteValues.size === 0) return null;
    const spans = byteValues.matchSpans(asByteText(bytes));
    if (spans.length === 0) return null;
    const masked = bytes.slice();
    for (const [start, end] of spans) masked.set(maskOfLength(end - start), start);
    return masked;
  };
}

/** `[redacted]` padded with `*` (or cut) to exactly `length` bytes. */
function maskOfLength(length: number): Uint8Array {
  const text = length >= MASK.length ? MASK + "*".repeat(length - MASK.length) : "*".repeat(length);
  return new TextEncoder().encode(text);
}

function asByteText(bytes: Uint8Array): string {
  return BYTE_TEXT.decode(bytes);
}
