/**
 * The transport's limits, each with the reason it has that value. The server takes
 * them as {@linkcode ServerLimits}; tests shrink some to reach the edges quickly.
 *
 * @module
 */
import { ATTACHMENT_MAX_BYTES, MESSAGE_DEFAULT_MAX_BYTES } from "@daedalus/protocol";

/** Largest `POST /rpc` body: the protocol's message limit, so HTTP and WebSocket agree. */
export const RPC_BODY_MAX_BYTES: number = MESSAGE_DEFAULT_MAX_BYTES;

/** Largest inbound WebSocket message; the same message limit as HTTP. */
export const WS_MESSAGE_MAX_BYTES: number = MESSAGE_DEFAULT_MAX_BYTES;

/** Most events waiting for one slow WebSocket before it is closed; replay by seq recovers them. */
export const WS_OUTBOUND_QUEUE_MAX_EVENTS = 1024;

/** How long a sent message may stay unflushed before the peer counts as stalled. */
export const WS_SEND_TIMEOUT_MS = 5_000;

/** Bytes the socket may hold unflushed before further messages wait in the outbound queue. */
export const WS_SEND_HIGH_WATER_BYTES = 1024 * 1024;

/** How often a blocked outbound queue looks for room again (Deno's WebSocket has no drain event). */
export const WS_DRAIN_POLL_MS = 10;

/** Most inbound messages waiting behind the one being processed; more is a flood, not a client. */
export const WS_INBOUND_QUEUE_MAX_MESSAGES = 1024;

/** Largest `POST /auth/session` body: it carries one 64-character token. */
export const AUTH_BODY_MAX_BYTES = 4 * 1024;

/** Largest `POST /upload` body: one attachment, so an upload is never refused later by `turn.start`. */
export const UPLOAD_BODY_MAX_BYTES: number = ATTACHMENT_MAX_BYTES;

/** Most live browser sessions; the oldest is dropped beyond it so memory stays bounded. */
export const SESSIONS_MAX_COUNT = 256;

/**
 * How long a login URL's one-time code works: long enough to copy it from a terminal into a
 * browser, short enough that one left in a browser's history is dead.
 */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;

/** Most unredeemed login codes kept; the oldest is dropped beyond it so memory stays bounded. */
export const LOGIN_CODES_MAX_COUNT = 32;

/** How long `daedalus login` waits for the runtime to mint a code; a live local runtime answers at once. */
export const LOGIN_REQUEST_TIMEOUT_MS = 5_000;

/** How often `auth.json` may be stat-ed to notice a rotation by another process. */
export const TOKEN_RECHECK_INTERVAL_MS = 250;

/** How often the running server looks for a rotation to close WebSockets opened with the old token. */
export const TOKEN_SWEEP_INTERVAL_MS = 1_000;

/**
 * Longest a request's header block may take, from its first byte, from the connection's
 * opening, or from the previous answer's last byte (so an idle keep-alive connection is
 * closed after it too). A browser sends its headers at once; a slowloris never finishes.
 */
export const HTTP_HEADER_READ_TIMEOUT_MS = 10_000;

/** Longest a request body may take after its headers: an 8 MiB upload needs ≥ 140 KB/s. */
export const HTTP_BODY_READ_TIMEOUT_MS = 60_000;

/** Largest request header block (hyper's own default is larger, but no client here needs it). */
export const HTTP_HEADER_MAX_BYTES = 64 * 1024;

/** The limits one server runs with. */
export interface ServerLimits {
  /** Largest `POST /rpc` body in bytes; larger is 413. */
  rpcBodyMaxBytes: number;
  /** Largest inbound WebSocket message in bytes; larger closes with 1009. */
  wsMessageMaxBytes: number;
  /** Most queued outbound events per WebSocket; more closes with 4008. */
  wsOutboundQueueMaxEvents: number;
  /** How long a sent message may stay unflushed; longer closes with 4008. */
  wsSendTimeoutMs: number;
  /** Unflushed bytes above which outbound messages wait in the queue. */
  wsSendHighWaterBytes: number;
  /** Most inbound messages waiting per WebSocket; more closes with 1008. */
  wsInboundQueueMaxMessages: number;
  /** Largest `POST /auth/session` body in bytes. */
  authBodyMaxBytes: number;
  /** Most live browser sessions. */
  sessionsMaxCount: number;
  /** Largest `POST /upload` body in bytes; larger is 413. */
  uploadBodyMaxBytes: number;
  /** Longest a request's header block may take; longer closes the connection (408). */
  httpHeaderReadTimeoutMs: number;
  /** Longest a request's body may take after its headers; longer closes the connection. */
  httpBodyReadTimeoutMs: number;
}

/** The limits a server uses unless told otherwise. */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  rpcBodyMaxBytes: RPC_BODY_MAX_BYTES,
  wsMessageMaxBytes: WS_MESSAGE_MAX_BYTES,
  wsOutboundQueueMaxEvents: WS_OUTBOUND_QUEUE_MAX_EVENTS,
  wsSendTimeoutMs: WS_SEND_TIMEOUT_MS,
  wsSendHighWaterBytes: WS_SEND_HIGH_WATER_BYTES,
  wsInboundQueueMaxMessages: WS_INBOUND_QUEUE_MAX_MESSAGES,
  authBodyMaxBytes: AUTH_BODY_MAX_BYTES,
  sessionsMaxCount: SESSIONS_MAX_COUNT,
  uploadBodyMaxBytes: UPLOAD_BODY_MAX_BYTES,
  httpHeaderReadTimeoutMs: HTTP_HEADER_READ_TIMEOUT_MS,
  httpBodyReadTimeoutMs: HTTP_BODY_READ_TIMEOUT_MS,
});
