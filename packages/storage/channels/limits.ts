/**
 * Limits of channels.yaml and channels.db, each with the reason it has this value.
 *
 * @module
 */

/** Largest channels.yaml read or written (seed 000 §4: 64 KiB); a real file is a few lines. */
export const CHANNELS_CONFIG_MAX_BYTES = 64 * 1024;

/** The channels.yaml format this code reads and writes (seed 000: version 1). */
export const CHANNELS_CONFIG_VERSION = 1;

/** The channels.db schema this code writes and accepts (seed 000: channel 1); no migrations. */
export const CHANNELS_SCHEMA_VERSION = 1;

/** How long a channels.db statement waits for a lock held by another connection, in ms. */
export const CHANNELS_BUSY_TIMEOUT_MS = 5_000;

/** Longest bot token accepted; BotFather's are ~46 characters, self-hosted ones similar. */
export const TELEGRAM_TOKEN_MAX_CHARS = 200;

/** Longest proxy or API base URL accepted: one line in a settings field. */
export const CHANNEL_URL_MAX_CHARS = 2_048;

/** Longest error text kept on an outbox row: enough for Telegram's `description`. */
export const OUTBOX_ERROR_MAX_CHARS = 500;
