/**
 * Named limits of managed processes, each with the reason for its value. (They belong in the
 * package's `limits.ts` once `@daedalus/tools` has one.)
 *
 * @module
 */
import { PROCESS_READ_MAX_BYTES } from "@daedalus/protocol";

/** Retained output per process on disk: half head, half newest tail. */
export const PROCESS_LOG_WINDOW_BYTES = 1024 * 1024;
/** Largest page `readPage` returns; the wire limit of `process.read`. */
export const PROCESS_PAGE_MAX_BYTES = PROCESS_READ_MAX_BYTES;
/** Concurrent running processes per thread, so one thread cannot exhaust the host. */
export const PROCESS_MAX_PER_THREAD = 64;
/** Records while output changes: at most 4 a second. */
export const PROCESS_RECORD_INTERVAL_MS = 250;
/** How often a log file written by the child is checked for new output. */
export const PROCESS_FOLLOW_INTERVAL_MS = 100;
/** SIGTERM grace before SIGKILL when stopping a process tree. */
export const PROCESS_STOP_GRACE_MS = 6_000;
/** How long stop waits for PTY pipes to drain after the tree is gone. */
export const PROCESS_DRAIN_MS = 2_000;
/** Custody tolerance between a recorded and an observed start time. */
export const PROCESS_CUSTODY_TOLERANCE_MS = 5_000;
/** First supervise backoff; doubles per restart. */
export const SUPERVISE_BACKOFF_BASE_MS = 1_000;
/** Longest supervise backoff. */
export const SUPERVISE_BACKOFF_MAX_MS = 30_000;
/** Restarts allowed within {@linkcode SUPERVISE_WINDOW_MS} before supervision stops. */
export const SUPERVISE_MAX_RESTARTS = 10;
/** The window in which supervise restarts are counted. */
export const SUPERVISE_WINDOW_MS = 600_000;

/** Bytes before new output re-read when masking it: a credential split over two looks. */
export const PROCESS_MASK_CONTEXT_BYTES = 512;
