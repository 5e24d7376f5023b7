/**
 * Dify's ids for Daedalus's: a conversation id is a UUID, and a Daedalus thread id is
 * `thread_` and 32 hex digits, so the two map one to one by the same digits (no table to
 * keep in step). A run id maps to a message id the same way. Dify accepts any UUID form
 * (it parses, it does not check the version), and so does the reverse map.
 *
 * @module
 */

const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
const DAEDALUS_ID = /^(thread|run)_([0-9a-f]{32})$/;

/**
 * The UUID of a Daedalus thread or run id.
 *
 * @param id `thread_<32 hex>` or `run_<32 hex>`
 * @returns the UUID with the same digits
 * @throws {RangeError} for any other id (a bug: Daedalus made the id)
 */
export function uuidOf(id: string): string {
  const match = DAEDALUS_ID.exec(id);
  if (!match) throw new RangeError(`not a thread or run id: ${id}`);
  const hex = match[2];
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)]
    .join("-");
}

/**
 * Whether a string is a UUID (any version, either case).
 *
 * @param value the string
 * @returns true for a UUID
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The Daedalus thread id a conversation id names.
 *
 * @param conversationId a UUID
 * @returns `thread_<its 32 hex digits, lowercase>`, or null when it is not a UUID
 */
export function threadIdOfConversation(conversationId: string): string | null {
  if (!isUuid(conversationId)) return null;
  return `thread_${conversationId.replaceAll("-", "").toLowerCase()}`;
}
