/**
 * Limits and fixed constants of `@daedalus/storage`, each with the reason it has this value.
 *
 * @module
 */

// --- Runtime home -------------------------------------------------------------------------

/** Mode of the runtime home and its directories: it holds API keys and the access token. */
export const HOME_DIR_MODE = 0o700;

/** Mode of files that hold secrets (config.yaml, auth.json): readable by the owner only. */
export const SECRET_FILE_MODE = 0o600;

/** Mode of `runtime.lock`: only the owner's processes may take the home. */
export const LOCK_FILE_MODE = 0o600;

/** Hex digits of the thread id used as a managed workspace suffix (seed 000: `<HHMMSS>-<suffix>`). */
export const WORKSPACE_SUFFIX_HEX_CHARS = 8;

// --- Runtime lock -------------------------------------------------------------------------

/** How long a second runtime waits for `runtime.lock` before giving up (seed 000: 10 s). */
export const RUNTIME_LOCK_TIMEOUT_MS = 10_000;

/** Interval between attempts to take `runtime.lock` (seed 000: 50 ms). */
export const RUNTIME_LOCK_POLL_MS = 50;

// --- config.yaml --------------------------------------------------------------------------

/** Largest config.yaml read or written; real configs are a few KiB (seed 000: 256 KiB). */
export const CONFIG_MAX_BYTES = 256 * 1024;

/** Config files whose parsed contents are kept (a runtime has one; tests open many homes). */
export const CONFIG_CACHE_MAX_FILES = 16;

/** Longest model id; matches the protocol's generic identifier limit. */
export const CONFIG_MODEL_ID_MAX_CHARS = 200;

/** Longest provider or model display name; it is one line in a settings list. */
export const CONFIG_DISPLAY_NAME_MAX_CHARS = 200;

/** Longest `gateway.dify_prefix` (chars): a few path segments; a longer one is a mistake. */
export const CONFIG_GATEWAY_PREFIX_MAX_CHARS = 200;

/** Most problems listed in one config error; past that the first few are what the user fixes. */
export const CONFIG_ISSUES_MAX_COUNT = 20;

// --- SQLite connections -------------------------------------------------------------------

/**
 * Most prepared statements one connection keeps. The store's SQL texts are fixed (about
 * 90 across state.db and memory.db, memory.list's optional filters included: at most 16
 * shapes), so the bound is never reached in use; it only keeps a future caller that
 * builds SQL from values from growing the cache without end.
 */
export const STATEMENT_CACHE_MAX_ENTRIES = 256;

/**
 * Most RunConfig parts (tool schema sets, identities, skills catalogs) one connection keeps
 * parsed. A runtime uses a handful (one per tool set and skills folder state); the bound
 * only keeps a long life of skill edits from growing the cache without end.
 */
export const RUN_CONFIG_PART_CACHE_MAX_ENTRIES = 64;

/** Resolved Run configs kept per connection by `readRunConfig` (the Runs in progress ask again). */
export const RUN_CONFIG_CACHE_MAX_ENTRIES = 64;

/**
 * Threads whose earlier turns' runs one connection keeps between history reads
 * (state/reads/turn_runs_cache.ts): the conversations in use; the least recently read goes.
 */
export const TURN_RUNS_CACHE_MAX_THREADS = 4;

/**
 * Turns kept per thread: more than a Run's history reads in a 128K window of short
 * turns; a long history's oldest kept turns go first.
 */
export const TURN_RUNS_CACHE_MAX_TURNS = 256;

/**
 * Most characters (JSON length of the runs and items) kept per thread: 4 threads of long
 * tool outputs stay within a few tens of MiB; the oldest kept turns go first.
 */
export const TURN_RUNS_CACHE_MAX_CHARS = 4 * 1024 * 1024;

/**
 * New events of a thread read to bring its kept turns up to date; past this many the
 * thread's entry is dropped and read afresh (a thread busy elsewhere for a long while).
 */
export const TURN_RUNS_CACHE_MAX_CHANGED_EVENTS = 2_000;

// --- Journal hash chain -------------------------------------------------------------------

/**
 * The `prev_hash` of the first event: 64 zero hex digits (SHA-256 width). A fixed value,
 * not a random one, so that any copy of the journal can be verified with no other input.
 */
export const JOURNAL_CHAIN_GENESIS: string = "0".repeat(64);

/** Rows read per batch when the migration to version 6 computes the chain of old rows. */
export const JOURNAL_CHAIN_BACKFILL_BATCH_ROWS = 1_000;

/** Rows of a thread read per page (one read each) by an export: bounds its memory. */
export const EXPORT_PAGE_ROWS = 500;

// --- config.yaml: mcp ---------------------------------------------------------------------

/** Default per-call timeout of an MCP server's tools (issue 17: 60 s). */
export const MCP_TIMEOUT_MS_DEFAULT = 60_000;
/** Shortest per-call timeout: below a second even a local echo can miss it. */
export const MCP_TIMEOUT_MS_MIN = 1_000;
/** Longest per-call timeout: a Run's tool call should not hold it for more than 30 minutes. */
export const MCP_TIMEOUT_MS_MAX = 30 * 60_000;
/** Most MCP servers in config.yaml: each one is a child process or a session. */
export const MCP_SERVERS_MAX = 32;
/** Most arguments of a stdio server's command line. */
export const MCP_ARGS_MAX = 256;
/** Most environment variables or headers of one server. */
export const MCP_ENV_MAX = 128;
/** Longest command, argument, env value, cwd, URL or header value of a server (chars). */
export const MCP_VALUE_MAX_CHARS = 8_192;
/** Most tools listed as disabled for one server. */
export const MCP_DISABLED_TOOLS_MAX = 1_024;
