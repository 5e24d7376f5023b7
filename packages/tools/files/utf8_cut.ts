/**
 * Cutting UTF-8 bytes on a character boundary, for files read only up to a limit.
 *
 * @module
 */

/**
 * The last character boundary at or before `limit` (a UTF-8 continuation byte, 10xxxxxx,
 * at `limit` belongs to a character that starts earlier).
 *
 * @param bytes UTF-8 bytes longer than `limit`
 * @param limit the most bytes kept
 * @returns the cut point
 */
export function utf8CutPoint(bytes: Uint8Array, limit: number): number {
  let end = limit;
  while (end > 0 && end > limit - 4 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}
