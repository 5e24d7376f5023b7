/**
 * The browser's `localStorage`, or null where there is none (tests, disabled storage,
 * some private modes throw on access). Callers treat null as "remember nothing".
 *
 * @module
 */

/** @returns `localStorage`, or null when unavailable */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}
