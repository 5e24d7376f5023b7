/**
 * Limits and fixed constants of `@daedalus/tools`, each with the reason it has this value.
 *
 * @module
 */

// --- Paths and file sniffing ---------------------------------------------------------------

/** Longest path a tool accepts (seed 000: 4,096 characters, the common PATH_MAX). */
export const TOOL_PATH_MAX_CHARS = 4096;

/**
 * Rounds of the after-open check (the path still names the opened inode, with no symlink on
 * the way). One round defeats a link swapped in at the last component; a folder higher up
 * flipped to a link and back must line up with every round, so each extra round makes that
 * (path-API-only, see files/access.ts) residual rarer. Two rounds cost four syscalls more.
 */
export const OPEN_VERIFY_ROUNDS = 2;

/** Bytes sampled to tell a binary file from text (seed 000: 4,096). */
export const BINARY_SNIFF_BYTES = 4096;

/** Extensions refused for text reads without sniffing: their content is never useful as text. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  ".exe",
  ".dll",
  ".so",
  ".zip",
  ".gz",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".pdf",
  ".docx",
  ".xlsx",
  ".pptx",
  ".class",
  ".jar",
  ".wasm",
  ".bin",
  ".o",
  ".a",
]);

// --- read ----------------------------------------------------------------------------------

/** Most lines in one read page (seed 000): enough context, bounded model input. */
export const READ_MAX_LINES = 2000;

/** Most bytes of file text in one read page (seed 000: 50 KiB). */
export const READ_MAX_BYTES = 50 * 1024;

/**
 * How much of a checked file `read` takes with synchronous reads before the rest goes
 * through the thread pool: bounds how long one call holds the runtime's thread (about a
 * millisecond from the page cache).
 */
export const FILE_SYNC_READ_MAX_BYTES = 1024 * 1024;

/** Longest line shown by read and grep; longer lines are cut (minified files, seed 000). */
export const LINE_MAX_CHARS = 2000;

// --- write / edit --------------------------------------------------------------------------

/** Largest file write/edit hold in memory (content, old text and the diff of both). */
export const FILE_EDIT_MAX_BYTES = 8 * 1024 * 1024;

/** Largest before/after text kept in a file change capture (seed 000: 256 KiB). */
export const CAPTURE_MAX_BYTES = 256 * 1024;

/** Most lines of before/after text kept in a file change capture (seed 000: 5,000). */
export const CAPTURE_MAX_LINES = 5000;

/** Largest unified diff kept in a file change fact; the serialised event stays ≤ 256 KiB. */
export const DIFF_MAX_BYTES = 256 * 1024;

/** Largest serialized file change fact (seed 000: the event stays ≤ 256 KiB; larger keep metadata). */
export const CHANGE_EVENT_MAX_BYTES = 256 * 1024;

/** Unchanged lines shown around each change in a unified diff (the `diff -u` default). */
export const DIFF_CONTEXT_LINES = 3;

/** Largest edit distance the line diff searches; beyond it the middle is replaced whole. */
export const DIFF_MAX_EDIT_DISTANCE = 1000;

// --- list / glob / grep --------------------------------------------------------------------

/** Most entries one list call returns (seed 000 bounds every listing). */
export const LIST_MAX_ENTRIES = 1000;

/** Default and largest number of glob results (seed 000: 1,000). */
export const GLOB_MAX_RESULTS = 1000;

/** Default and largest number of grep matches. */
export const GREP_MAX_MATCHES = 1000;

/** Files larger than this are skipped by grep: scanning them would stall the call. */
export const GREP_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** Longest grep pattern: patterns are written by a model, and compiling costs with their size. */
export const GREP_PATTERN_MAX_CHARS = 1000;

/**
 * Largest compiled grep pattern (RE2 program size). Matching costs up to this much work per
 * character searched, so `(\pL|\pN){900}`-style patterns are refused instead of run.
 */
export const GREP_PATTERN_MAX_PROGRAM_SIZE = 2000;

/** Largest compiled glob (RE2 program size): every path is matched against it. */
export const GLOB_PATTERN_MAX_PROGRAM_SIZE = 2000;

/** Most time a grep call may spend matching (file I/O not counted); then it stops with an error. */
export const GREP_SEARCH_MAX_MS = 10_000;
/**
 * Most time starting grep's search Worker and compiling the pattern may take. Not matching
 * time: nothing blocks meanwhile, and a cancel still stops it. Generous because a first
 * start can wait seconds for its module graph (type-checked under `deno test` in a fresh
 * clone, on 2 busy cores), which the search proper must not be charged for.
 */
export const GREP_WORKER_START_MAX_MS = 60_000;

/** Longest grep matches without letting the event loop run (a cancel must get through). */
export const GREP_MATCH_SLICE_MS = 20;

/** Directories glob and grep never enter: version control and dependency trees. */
export const SEARCH_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules"]);

// --- Large results -------------------------------------------------------------------------

/** Tool results larger than this go to an artifact file (seed 000: 64 KiB). */
export const ARTIFACT_THRESHOLD_BYTES = 64 * 1024;

/** Most lines of an artifact's preview kept in the model's result (seed 000: ~200). */
export const ARTIFACT_PREVIEW_MAX_LINES = 200;

/** Most bytes of an artifact's preview kept in the model's result (seed 000: 32 KiB). */
export const ARTIFACT_PREVIEW_MAX_BYTES = 32 * 1024;

/** Longest slice text a session read (`history_read`, `thread_read`) returns, in characters. */
export const SESSION_READ_MAX_CHARS = 24_000;
/** Items a session read returns at most (the anchor and 20 on each side). */
export const SESSION_READ_MAX_ITEMS = 41;
/** Longest chain of cross-thread messages (`thread_send` hops, THREAD_SEND_MAX_HOPS). */
export const THREAD_SEND_MAX_HOPS = 3;
/** Non-blocking sub-agents one Run may have alive at once. */
export const SUBAGENTS_LIVE_MAX = 4;

// --- Governance: circuit breakers (gate stage 6) -------------------------------------------

/** Calls a breaker's failure-rate window holds (issue 14: the last 10 calls). */
export const BREAKER_WINDOW_CALLS = 10;

/** Fewest calls in the window before its failure rate may open a breaker (issue 14: 4). */
export const BREAKER_MIN_CALLS = 4;

/** Share of failed calls in the window that opens a breaker, in percent (issue 14: ≥ 50 %). */
export const BREAKER_FAILURE_RATE_PERCENT = 50;

/** Failures in a row that open a breaker whatever the window holds (issue 14: 5). */
export const BREAKER_CONSECUTIVE_FAILURES = 5;

/** How long an open breaker fails calls fast before one probe may pass (issue 14: 30 s). */
export const BREAKER_OPEN_MS = 30_000;

/**
 * How long a half-open breaker waits for its probe's outcome before it lets another probe
 * through, in ms. Longer than any tool call may run; it exists so that a caller that died
 * without recording cannot hold the breaker half-open (failing every call) until a restart.
 */
export const BREAKER_PROBE_LEASE_MS = 10 * 60_000;

/**
 * Most breakers kept in memory. Keys are tool, provider and MCP server ids, so a few dozen in
 * practice; the cap only bounds memory should a caller key by something unbounded, and a
 * closed breaker (the only kind evicted) is as good as a new one bar its window.
 */
export const BREAKER_KEYS_MAX = 1000;

/** Longest breaker key, in characters (ids are far shorter; longer means a caller bug). */
export const BREAKER_KEY_MAX_CHARS = 256;

// --- Governance: loop and duplicate detection (gate stage 4) -------------------------------

/**
 * Identical calls (same tool, arguments and result) a Run may execute before the next one is
 * refused with `repeated_call` (issue 14: N = 3).
 */
export const LOOP_REPEAT_LIMIT = 3;

/** Identical call attempts at which the Run pauses with `loop_detected` (issue 14: M = 5). */
export const LOOP_PAUSE_LIMIT = 5;

/**
 * Rounds of two calls alternating with unchanged results (A B A B A B) after which the next
 * call of either is refused. Three, like {@linkcode LOOP_REPEAT_LIMIT}: a pair that undoes
 * itself (edit a→b, edit b→a) escapes the per-call count, as each success resets the other.
 */
export const LOOP_PING_PONG_ROUNDS = 3;

/** Distinct calls one Run's detector remembers; the least recently seen is forgotten first. */
export const LOOP_KEYS_MAX = 256;

/**
 * Largest result (content characters) kept for reuse by a repeated read-only call. Results
 * over 64 KiB are already an artifact preview (ARTIFACT_THRESHOLD_BYTES), so all fit.
 */
export const LOOP_REUSE_RESULT_MAX_CHARS = 64 * 1024;

/** Total result characters one Run's detector keeps for reuse; the oldest are dropped first. */
export const LOOP_REUSE_TOTAL_MAX_CHARS = 2 * 1024 * 1024;
// --- Permission rules ----------------------------------------------------------------------

/**
 * Compiled permission globs kept for the next rule set (entries, least recently used out):
 * twice the protocol's 500 rules a list, so config.yaml's and a thread's stay compiled.
 */
export const PERMISSION_GLOB_CACHE_MAX_ENTRIES = 1000;
// --- Governance ----------------------------------------------------------------------------

/**
 * Shells inside shells (`sh -c`, `eval`, `$(…)`, here-documents) the high-risk classifier
 * follows. Real command lines nest two or three deep; a deeper one is treated as high-risk
 * (`command_too_nested`) rather than followed, so a crafted line cannot make it work without end.
 */
export const HIGH_RISK_MAX_NESTING_DEPTH = 8;

/**
 * Quotes, substitutions and function bodies nested in one another that the shell parser of
 * the classifier reads. It recurses on each; real lines nest a handful, and a bound keeps a
 * crafted 32 KiB line from overflowing the stack (the line is then `unparseable_command`).
 */
export const SHELL_PARSE_MAX_NESTING = 64;

// --- The plan tool -------------------------------------------------------------------------

/** Most items of a `plan`: a plan a person follows at a glance above the composer, not a backlog. */
export const PLAN_ITEMS_MAX_COUNT = 50;

/** Longest text of one `plan` item (chars): one step, one line on the pinned plan. */
export const PLAN_ITEM_TEXT_MAX_CHARS = 300;

// --- memory: MEMORY.md ---------------------------------------------------------------------

/** Most bytes of MEMORY.md a `file_read` returns (seed 003 / issue 21: the file is ≤ 64 KiB). */
export const MEMORY_FILE_READ_MAX_BYTES = 64 * 1024;

/**
 * Largest MEMORY.md a `file_append` may leave: its before and after texts plus the diff
 * still fit one file change event ({@linkcode CHANGE_EVENT_MAX_BYTES}), so `turn.revert`
 * can undo the append.
 */
export const MEMORY_FILE_MAX_BYTES = 96 * 1024;
