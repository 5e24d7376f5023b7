/**
 * Limits of the state reads, each with the reason it has this value. Page sizes are the
 * protocol's, so a request the protocol accepts is never refused here.
 *
 * @module
 */
import {
  PAGE_DEFAULT_LIMIT,
  PAGE_MAX_LIMIT,
  REPLAY_DEFAULT_LIMIT,
  REPLAY_MAX_LIMIT,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_QUERY_MAX_CHARS,
} from "@daedalus/protocol";

/** Threads or turns per page when the caller names no limit; the protocol's default. */
export const PAGE_DEFAULT_ROWS: number = PAGE_DEFAULT_LIMIT;

/** Most threads or turns per page; the protocol's `thread.list`/`turn.list` maximum. */
export const PAGE_MAX_ROWS: number = PAGE_MAX_LIMIT;

/** Events per replay page when the caller names no limit; the protocol's default. */
export const REPLAY_DEFAULT_EVENTS: number = REPLAY_DEFAULT_LIMIT;

/** Most events per replay page; the protocol's `event.replay` maximum. */
export const REPLAY_MAX_EVENTS: number = REPLAY_MAX_LIMIT;

/** Format version written into every cursor; a cursor of another version is refused. */
export const CURSOR_FORMAT_VERSION = 1;

/** Longest cursor accepted; the protocol's `Cursor` allows at most this many characters. */
export const CURSOR_MAX_CHARS = 1024;

/** Widest usage window in days (about ten years); more than any chart shows. */
export const USAGE_WINDOW_MAX_DAYS = 3660;

/** Milliseconds in a calendar day, for whole-day arithmetic on UTC-anchored local dates. */
export const DAY_MS = 86_400_000;

/**
 * Most branches a branch's lineage walks through (itself and its ancestors); far more
 * forks of forks than a conversation has, and a guard against a corrupt parent cycle.
 */
export const BRANCH_LINEAGE_MAX_DEPTH = 1000;

/** Search results per page when the caller names no limit; the protocol's default. */
export const SEARCH_DEFAULT_ROWS: number = SEARCH_DEFAULT_LIMIT;

/** Most search results per page; the protocol's `thread.search` maximum. */
export const SEARCH_MAX_ROWS: number = SEARCH_MAX_LIMIT;

/** Longest search query in UTF-16 code units after trimming; the protocol's maximum. */
export const SEARCH_QUERY_MAX_LENGTH: number = SEARCH_QUERY_MAX_CHARS;

/**
 * Shortest query (in code points) the trigram index can answer; shorter ones are a LIKE
 * scan over the same table, newest first (two characters are a whole word in Chinese).
 */
export const SEARCH_TRIGRAM_MIN_CHARS = 3;

/**
 * Deepest result a search pages to: nobody reads past a few pages of matches, and each
 * page re-ranks every match before it, so the depth bounds the cost of one request.
 */
export const SEARCH_MAX_DEPTH = 1000;
