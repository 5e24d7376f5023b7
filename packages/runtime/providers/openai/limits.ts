/**
 * Limits and defaults of the OpenAI-compatible adapter, each with the reason for its
 * value.
 *
 * @module
 */

/** Longest SSE event (its lines, terminators excluded); a bigger one is a broken or hostile stream. */
export const SSE_EVENT_MAX_CHARS = 1_000_000;
/** Most characters of tool-call arguments accumulated in one response; bounds memory. */
export const TOOL_ARGUMENTS_MAX_CHARS = 1_000_000;
/** Most reasoning characters accepted in one response; bounds what the journal receives. */
export const REASONING_MAX_CHARS = 1_000_000;
/** Most tool calls in one response; guards memory against endless fragments with new indexes. */
export const TOOL_CALLS_MAX = 1_024;

/** Largest `/models` body read; a bigger one is not a model list we can trust. */
export const DISCOVERY_BODY_MAX_BYTES = 1024 * 1024;
/** Most models taken from one `/models` answer; more would only flood the picker. */
export const DISCOVERY_MODELS_MAX = 1_000;

/**
 * The one buffer each response body is read into, reused for every chunk: fetch's own
 * reader allocates 64 KiB per chunk however small (an SSE chunk is ~250 bytes), which was
 * most of the runtime's native memory churn per model call.
 */
export const BODY_READ_BUFFER_BYTES = 16 * 1024;
/** Read buffers kept for the next bodies: one per model call in flight (the Run worker cap is 8). */
export const BODY_READ_BUFFERS_KEPT = 8;

/** Largest error body read to explain a failed request; the message is near the start. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;
/** Largest non-streamed JSON answer read; the stream limits (events, arguments, reasoning) allow about this much. */
export const JSON_ANSWER_MAX_BYTES = 4 * 1024 * 1024;
/** Longest provider message quoted in a `ProviderError`; enough to explain, short enough to log. */
export const ERROR_MESSAGE_MAX_CHARS = 500;

/** Time to open the connection (seed §6.5). */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Time from a sent request to the response headers (seed §6.5). */
export const HEADERS_TIMEOUT_MS = 30_000;
/** Longest silence (no bytes at all) while reading a body (seed §6.5). */
export const IDLE_TIMEOUT_MS = 300_000;

/** Retries of a request that got no usable response (no response, 429, 5xx, timeout). */
export const REQUEST_RETRIES = 4;
/** Retries of a stream that broke before any model content arrived. */
export const STREAM_RETRIES = 5;
/** First retry delay; doubled on each further retry. */
export const RETRY_BASE_DELAY_MS = 200;
/** Longest single retry delay, `retry-after` included, so a Run never stalls for long. */
export const RETRY_MAX_DELAY_MS = 5_000;
/** Smallest jitter factor; spreads retries of concurrent Runs apart. */
export const RETRY_JITTER_MIN = 0.9;
/** Largest jitter factor. */
export const RETRY_JITTER_MAX = 1.1;

/** Shortest piece of a credential that is redacted wherever it appears (seed §6.5). */
export const SECRET_FRAGMENT_MIN_CHARS = 8;
/** Shorter configured values are not credentials, and redacting them would mangle every message. */
export const SECRET_EXACT_MIN_CHARS = 4;
