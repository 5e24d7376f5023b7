/**
 * Limits of memory.db and recall (seed 000 §memory). Kept beside the memory modules
 * until the package's limits.ts absorbs them. Content length, preview length and page
 * sizes are the protocol's (`MEMORY_CONTENT_MAX_CHARS`, `PAGE_MAX_LIMIT`, …).
 *
 * @module
 */

/** How long a statement waits for another connection's write lock (as state.db). */
export const MEMORY_BUSY_TIMEOUT_MS = 5_000;

/** Longest workspace scope key (the schema's CHECK). */
export const MEMORY_SCOPE_KEY_MAX_CHARS = 200;

/** Deepest each recall pool ranks; past this a record adds almost nothing under RRF. */
export const RECALL_POOL_MAX_DEPTH = 200;

/** Most candidates recall reads from the index per query; bounds the work per Run. */
export const RECALL_CANDIDATES_MAX = 2_000;

/**
 * Most index rows recall ranks by BM25 per query; at about 1.3 µs a row (plus the
 * terms' IDF scan) this keeps the ranked scan near 3 ms at any size, and it equals the
 * candidate budget. Rarer tokens are taken first up to this budget.
 */
export const RECALL_RANKED_SCAN_MAX_ROWS = 2_000;

/** Most terms whose document counts recall caches per connection between writes. */
export const RECALL_FREQUENCY_CACHE_MAX_TERMS = 4_096;

/** RRF's k: damps the head of each pool so neither ranking dominates (Cormack et al.). */
export const RECALL_RRF_K = 60;

/** Most memories injected into one Run; a handful of facts, not a database dump. */
export const RECALL_SELECT_MAX_RECORDS = 8;

/** Most memory content characters injected into one Run; about 1,500 tokens. */
export const RECALL_SELECT_MAX_CHARS = 6_000;

/** Most distinct query tokens used; a long prompt's tail adds cost, not precision. */
export const RECALL_QUERY_MAX_TOKENS = 64;
