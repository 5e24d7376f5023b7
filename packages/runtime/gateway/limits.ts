/**
 * The gateway's limits, each with the reason it has that value.
 *
 * @module
 */

/** Random bytes in an app key (hex-encoded after `app-`): 160 bits, beyond guessing. */
export const GATEWAY_KEY_RANDOM_BYTES = 20;

/** Requests one app key may make per minute by default: a chat front end's pace, not a flood. */
export const GATEWAY_RATE_LIMIT_PER_MINUTE = 60;

/** The burst an app key may spend at once (requests): a page that loads messages, conversations and parameters together. */
export const GATEWAY_RATE_LIMIT_BURST = 10;

/** How stale a key's `lastUsedAt` may get on disk (ms): a write per request would be one per message. */
export const GATEWAY_LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** Largest `gateway_keys.json` read (bytes): 500 keys of a few hundred bytes each, with room. */
export const GATEWAY_KEYS_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** How often a Dify stream sends `event: ping` (ms): Dify's own interval, which its clients and proxies expect. */
export const DIFY_PING_INTERVAL_MS = 10_000;

/** Conversations a `createServer` app keeps in memory (all users): past it the least recently used is dropped, so a long-lived server's memory stays bounded. */
export const CREATE_SERVER_CONVERSATIONS_MAX = 1_000;

/** Messages a `createServer` conversation keeps (each a query and its answer): past it the oldest are dropped, and the agent's history shrinks with them. */
export const CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX = 200;

/** Characters of the first query a `createServer` conversation is named after: a list entry's width, as Dify's generated names are short. */
export const CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS = 60;

/** Dify's page size when `limit` is absent (`GET /messages`, `GET /conversations`). */
export const DIFY_PAGE_DEFAULT = 20;

/** Dify's largest page size: a larger `limit` is a 400, as Dify refuses it. */
export const DIFY_PAGE_MAX = 100;

/** How long a browser may cache a gateway preflight (s): ten minutes, so a revoked origin stops working soon. */
export const GATEWAY_CORS_MAX_AGE_SECONDS = 600;

/** Most Dify `inputs` variables in one request: an app's form has a handful, never hundreds. */
export const DIFY_INPUTS_MAX_COUNT = 50;

/** Longest Dify `inputs` variable name (chars): Dify's own variable names are short identifiers. */
export const DIFY_INPUT_NAME_MAX_CHARS = 100;

/** Longest Dify `inputs` value (chars): Dify's paragraph fields hold a few thousand characters; this leaves room. */
export const DIFY_INPUT_VALUE_MAX_CHARS = 48_000;

/** Gateway tasks (runs) remembered for stop (count): far more than run at once; the oldest go first. */
export const GATEWAY_RUNS_MAX_COUNT = 1_000;

/** How long a gateway task is remembered for stop (ms): a day, longer than any run waits for approval. */
export const GATEWAY_RUN_KEEP_MS = 24 * 60 * 60 * 1000;

/** Dify uploads remembered (count): a few per conversation; the oldest go first. */
export const DIFY_UPLOADS_MAX_COUNT = 2_000;

/** How long a Dify upload id stays usable (ms): the runtime's sweep keeps an unsent upload a week, so a day is safely within it. */
export const DIFY_UPLOAD_KEEP_MS = 24 * 60 * 60 * 1000;

/** Room for a multipart upload's framing beyond the file itself (bytes): boundaries, part headers and the `user` field. */
export const DIFY_UPLOAD_FRAMING_MAX_BYTES = 64 * 1024;
