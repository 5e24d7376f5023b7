/**
 * The client's constants, each with the reason for its value.
 *
 * @module
 */
import { REPLAY_MAX_LIMIT } from "@daedalus/protocol";

/** Waits before each reconnect attempt; after the last one fails the client goes offline. */
export const RECONNECT_DELAYS_MS: readonly number[] = Object.freeze([50, 100, 200, 400, 800]);

/**
 * The longest wait between attempts of a client that keeps reconnecting (`keepReconnecting`):
 * a page left open while the runtime restarts or the laptop sleeps is back within 5 s of
 * the runtime, and an absent runtime costs one attempt per 5 s.
 */
export const RECONNECT_MAX_DELAY_MS = 5_000;

/**
 * Past the ladder, each wait is drawn from [1 − this, 1] × the doubled delay, so that many
 * tabs of one browser (or many clients after a restart) do not retry in lockstep.
 */
export const RECONNECT_JITTER = 0.5;

/** The page size of every `event.replay` the client sends: the largest the server allows. */
export const REPLAY_PAGE_LIMIT: number = REPLAY_MAX_LIMIT;

/** Events held for a consumer that has not attached yet; more means nobody is listening. */
export const HELD_EVENTS_MAX = 10_000;

/** The application subprotocol the runtime's WebSocket speaks; offered first, echoed back. */
export const RPC_SUBPROTOCOL = "daedalus.rpc.v1";

/** Prefix of the subprotocol that carries the token where headers cannot be set (browsers). */
export const BEARER_SUBPROTOCOL_PREFIX = "bearer.";

/** The close code of a deliberate, normal close (RFC 6455 §7.4.1). */
export const NORMAL_CLOSE_CODE = 1000;
