/**
 * The `event` notification of a journal event, encoded once for every connection.
 * The hub hands the same event object to each subscribed socket; encoding it per
 * socket made the JSON text (and its UTF-8 length, which the outbound queue counts)
 * once per client. The text is kept with the event object, so it lives exactly as
 * long as the event does; each encoding (full, compact) is made at most once.
 *
 * @module
 */
import {
  compactEvent,
  encodeStrictJson,
  type EventEncoding,
  type JournalEvent,
} from "@daedalus/protocol";
import { utf8ByteLength } from "./ws_outbound.ts";

/** An event notification ready for the socket. */
export interface EncodedEvent {
  /** The JSON-RPC notification text. */
  text: string;
  /** Its length in UTF-8 bytes. */
  bytes: number;
}

type Encoded = EncodedEvent | { failure: unknown };

/** Each event's encodings, or the reason it could not be encoded. */
const encodings: Record<EventEncoding, WeakMap<JournalEvent, Encoded>> = {
  full: new WeakMap(),
  compact: new WeakMap(),
};

/**
 * The notification of an event, encoded on first use and shared afterwards. Events
 * are immutable once committed, so the text never goes stale.
 *
 * @param event a committed event
 * @param encoding the connection's `eventEncoding` (default `full`)
 * @returns the notification text and its byte length
 * @throws {StrictJsonError} when the event breaks the strict JSON rules (every caller
 *   gets the same failure)
 */
export function encodeEventNotification(
  event: JournalEvent,
  encoding: EventEncoding = "full",
): EncodedEvent {
  const cache = encodings[encoding];
  let encoded = cache.get(event);
  if (!encoded) {
    try {
      const params = encoding === "compact" ? compactEvent(event) : event;
      const text = encodeStrictJson({ jsonrpc: "2.0", method: "event", params });
      encoded = { text, bytes: utf8ByteLength(text) };
    } catch (failure) {
      encoded = { failure };
    }
    cache.set(event, encoded);
  }
  if ("failure" in encoded) throw encoded.failure;
  return encoded;
}
