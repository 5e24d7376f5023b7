/** Streamed text is persisted in pieces of at most this many characters (after the first). */
export const DELTA_COALESCE_MAX_CHARS = 256;

/** …or at least this often, in milliseconds, whichever comes first. */
export const DELTA_COALESCE_MAX_MS = 50;

/** Default number of Runs executing at once (`DAEDALUS_AGENT_WORKERS`). */
export const AGENT_WORKERS_DEFAULT = 6;
/** Smallest allowed `DAEDALUS_AGENT_WORKERS`. */
export const AGENT_WORKERS_MIN = 1;
/** Largest allowed `DAEDALUS_AGENT_WORKERS`. */
export const AGENT_WORKERS_MAX = 8;

/** How long shutdown waits for cancelled Runs to settle before closing the databases. */
export const SHUTDOWN_WORKER_WAIT_MS = 10_000;

/**
 * How long a cancelled sandboxed tool call waits for its Worker to answer the cancel before
 * the Worker is terminated and replaced (a Worker stuck in a long loop never reads it).
 */
export const SANDBOX_CANCEL_GRACE_MS = 500;

/** Default port of `daedalus serve`. */
export const DEFAULT_PORT = 7420;

/** Default deepest sub-agent nesting (`DAEDALUS_SUBAGENT_MAX_DEPTH`). */
export const SUBAGENT_MAX_DEPTH_DEFAULT = 2;
/** Smallest allowed `DAEDALUS_SUBAGENT_MAX_DEPTH`. */
export const SUBAGENT_MAX_DEPTH_MIN = 1;
/** Largest allowed `DAEDALUS_SUBAGENT_MAX_DEPTH`. */
export const SUBAGENT_MAX_DEPTH_MAX = 8;

/** How long a starting user Run waits for aborted auxiliary calls to stop; abort is prompt. */
export const AUXILIARY_ABORT_WAIT_MS = 2_000;
/** Most times an auxiliary call gives way to a user Run and is retried before it gives up. */
export const AUXILIARY_PREEMPTIONS_MAX = 5;

/**
 * How many `permission.addRule` clientRequestIds the runtime remembers (an answer lost on
 * the way is retried within seconds; a few hundred covers any burst of clicks).
 */
export const PERMISSION_ADD_REQUESTS_REMEMBERED_COUNT = 256;

/**
 * Longest a thread's later Run waits for an earlier submission to be queued (ms): two
 * connections' turn.starts reach the scheduler within milliseconds of their commits; a
 * queued Run nobody queues must not hold its thread for long.
 */
export const SUBMISSION_GRACE_MS = 2_000;

// --- MCP servers (issue 17) -----------------------------------------------------------------

/** Longest one stdio message line from an MCP server (bytes): a bigger one fails the server. */
export const MCP_STDIO_LINE_MAX_BYTES = 16 * 1024 * 1024;
/** How long `initialize` (and the first tools/list) may take before the server is failed. */
export const MCP_CONNECT_TIMEOUT_MS = 30_000;
/** How long a stopping stdio server gets after SIGTERM before its process group is killed. */
export const MCP_STOP_GRACE_MS = 2_000;
/**
 * How far a left-over stdio MCP server's observed start time may be from its record's and
 * still be the same process (`ps` reports whole seconds; a pid reused later is far off).
 */
export const MCP_CUSTODY_TOLERANCE_MS = 5_000;
/** Most automatic restarts of one server within a minute; after that it stays failed. */
export const MCP_RESTARTS_PER_MINUTE_MAX = 5;
/** First wait before restarting a crashed server; doubled after each crash in a row. */
export const MCP_RESTART_BACKOFF_MIN_MS = 500;
/** Longest wait between restarts. */
export const MCP_RESTART_BACKOFF_MAX_MS = 30_000;
/**
 * How long a ready Streamable HTTP server goes without a `ping` (ms): nothing else notices
 * a server that went away between calls, and one tiny request every half minute is cheap.
 */
export const MCP_HTTP_PING_INTERVAL_MS = 30_000;
/** How long a `ping` may take before the server counts as gone (ms). */
export const MCP_HTTP_PING_TIMEOUT_MS = 10_000;
/** Most pages of tools/list read from one server (a server that never ends its cursor). */
export const MCP_TOOL_PAGES_MAX = 100;
/** Most tools taken from one server: every tool's schema rides in every model request. */
export const MCP_TOOLS_PER_SERVER_MAX = 256;
/** A server's stderr log is rotated (to `<name>.log.1`) past this size. */
export const MCP_LOG_MAX_BYTES = 1024 * 1024;
/** Most structuredContent kept in a tool result's details (bytes of JSON); the text keeps all. */
export const MCP_STRUCTURED_DETAILS_MAX_BYTES = 16 * 1024;
/** Lines of a server's stderr kept in memory for `mcp.list` (the log file has the rest). */
export const MCP_LOG_TAIL_LINES = 40;
/** Longest stderr line written to a server's log (chars); longer ones are cut. */
export const MCP_LOG_LINE_MAX_CHARS = 4_096;
/** Longest MCP tool description offered to the model (chars): it rides in every request. */
export const MCP_TOOL_DESCRIPTION_MAX_CHARS = 2_048;
/** Least time between two journaled progress reports of one tool call (ms): a card needs a few a second. */
export const TOOL_PROGRESS_INTERVAL_MS = 250;

/**
 * The least JS heap growth since the last collection after which the runtime collects
 * between Runs (scheduler/heap_trim.ts; a quarter of the live heap when that is more).
 */
export const HEAP_TRIM_GROWTH_BYTES = 8 * 1024 * 1024;

/** Commits since the last checkpoint after which the runtime checkpoints between Runs. */
export const IDLE_CHECKPOINT_MIN_COMMITS = 100;

/**
 * WAL pages after which a commit of the runtime checkpoints on its own (SQLite's default
 * is 1,000): reached only by a long stretch of work without a pause between Runs.
 */
export const STATE_WAL_AUTOCHECKPOINT_PAGES = 4_000;
