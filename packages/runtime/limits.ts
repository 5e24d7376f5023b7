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
