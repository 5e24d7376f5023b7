/**
 * The tombstone a deleted thread's journal rows carry in place of their payload
 * (thread_delete.ts). The row keeps its envelope and its `payload_hash`, so every hash
 * link survives; the verifier accepts this exact text in place of the hashed one only
 * for a row whose thread a later `thread.deleted` event names (journal_verify.ts).
 * Reads of the journal skip such rows: there is nothing left to replay.
 *
 * @module
 */

/**
 * The fixed payload text of an erased row: valid JSON (a reader that parses every row
 * does not fail on it) that no event type's payload schema accepts.
 */
export const ERASED_PAYLOAD_JSON = '{"erased":"thread.deleted"}';

/**
 * Whether a stored payload text is the tombstone.
 *
 * @param payloadJson the `payload_json` text
 * @returns true for exactly {@linkcode ERASED_PAYLOAD_JSON}
 */
export function isErasedPayload(payloadJson: string): boolean {
  return payloadJson === ERASED_PAYLOAD_JSON;
}
