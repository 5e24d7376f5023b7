/**
 * Freezing what the store shares between readers.
 *
 * @module
 */

/**
 * Freezes a value and everything in it: what is shared between readers (cached Run
 * configs and their parts, kept history), so no reader may change what another reads.
 * A part already frozen is not walked again.
 *
 * @param value the value
 * @returns the same value, frozen
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
