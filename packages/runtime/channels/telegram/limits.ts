/**
 * Limits of the Telegram channel, each with the reason it has this value.
 *
 * @module
 */

/** Longest text of one sendMessage, in UTF-16 code units (Bot API: 1–4096 characters). */
export const TELEGRAM_MESSAGE_MAX_UNITS = 4_096;

/** getUpdates long-polling wait, in seconds: long enough to idle cheaply, short enough to stop fast. */
export const TELEGRAM_POLL_TIMEOUT_S = 25;

/** Slack over the long-poll wait before a getUpdates request counts as hung, in ms. */
export const TELEGRAM_POLL_GRACE_MS = 10_000;

/** Timeout of every other Bot API request, in ms: they answer in well under a second. */
export const TELEGRAM_REQUEST_TIMEOUT_MS = 15_000;

/** Retries of one request after a network error, a 5xx or a 429 (then the caller decides). */
export const TELEGRAM_REQUEST_RETRIES = 3;

/** First backoff after a failed request, in ms; doubled per attempt. */
export const TELEGRAM_BACKOFF_BASE_MS = 500;

/** Longest backoff between attempts, in ms (also the cap on a retry_after waited in place). */
export const TELEGRAM_BACKOFF_MAX_MS = 30_000;

/** Attempts at delivering one outbox row before it is marked failed. */
export const OUTBOX_MAX_ATTEMPTS = 8;

/** How often the outbox is looked at when nothing wakes it, in ms. */
export const OUTBOX_TICK_MS = 1_000;

/** How often "typing…" is re-sent during a Run, in ms (Telegram shows it for ~5 s). */
export const TYPING_INTERVAL_MS = 4_000;

/** Updates fetched per getUpdates (Bot API: 1–100). */
export const TELEGRAM_UPDATES_LIMIT = 100;
