/** The JSON-RPC protocol version a client names in `initialize`. Bump on any breaking wire change. */
export const PROTOCOL_VERSION = 1;

/** The version of the journal event envelope (`schemaVersion` of every event). */
export const EVENT_SCHEMA_VERSION = 1;

/** The server name reported by `initialize`. */
export const SERVER_NAME = "daedalus-runtime";
