/**
 * @daedalus/client — a typed JSON-RPC client for the Daedalus runtime over
 * WebSocket and HTTP, with reconnect and replay by seq.
 *
 * Imports only `@daedalus/protocol`. Nothing is exported yet: the client lands
 * with the server issue.
 *
 * @module
 */
export {};
