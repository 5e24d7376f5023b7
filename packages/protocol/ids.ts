/**
 * Stable ids: a typed prefix plus 32 lowercase hex digits from the platform's
 * cryptographic random source.
 *
 * @module
 */

/** The prefixes of every id the runtime mints. */
export const ID_PREFIXES = [
  "thread",
  "branch",
  "turn",
  "run",
  "item",
  "memory",
  "process",
  "workspace",
  "approval",
] as const;

/** One of {@linkcode ID_PREFIXES}. */
export type IdPrefix = typeof ID_PREFIXES[number];

/**
 * Mints a new id such as `thread_0123456789abcdef0123456789abcdef`.
 *
 * @param prefix what the id names
 * @returns the prefix, an underscore and 32 lowercase hex digits
 */
export function newId<P extends IdPrefix>(prefix: P): `${P}_${string}` {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return `${prefix}_${hex}`;
}
