/**
 * Limits of the headless commands (`daedalus run`, `threads`, `show`), each with its unit
 * and the reason for its value.
 *
 * @module
 */

/** Longest `--timeout` (seconds): a day, the longest wall time a Run's budget may have. */
export const RUN_TIMEOUT_MAX_SECONDS = 86_400;

/**
 * How long `run` waits for a cancelled Run to settle (ms) before it exits anyway: a tool
 * that ignores its abort signal must not keep a script hanging after Ctrl-C.
 */
export const RUN_CANCEL_SETTLE_WAIT_MS = 10_000;

/**
 * How long `run` waits for a runtime that holds the home to publish its address
 * (`<home>/runtime.json`, ms): the lock is taken a moment before the server listens.
 */
export const RUNTIME_ADDRESS_WAIT_MS = 5_000;

/** Interval between looks at `<home>/runtime.json` while waiting for it (ms). */
export const RUNTIME_ADDRESS_POLL_MS = 50;

/** Longest automatic title of a thread `run` creates in-process (chars): one line in `threads`. */
export const RUN_THREAD_TITLE_MAX_CHARS = 80;
