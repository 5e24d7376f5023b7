/**
 * The runtime-home lock: one runtime process per home, enforced with an exclusive OS file
 * lock on `<home>/runtime.lock` (`flock` on Linux and macOS, `LockFileEx` on Windows).
 *
 * The OS drops the lock when the holder's handle closes, including when the process
 * crashes or is killed, so a stale lock never needs manual cleanup. The file itself is
 * created once and never deleted or replaced: deleting it would let a new runtime lock a
 * fresh inode while an old one still holds the unlinked file.
 *
 * @module
 */
import { dirname } from "node:path";
import { HomeLockedError, StorageError } from "./errors.ts";
import { LOCK_FILE_MODE, RUNTIME_LOCK_POLL_MS, RUNTIME_LOCK_TIMEOUT_MS } from "./limits.ts";

/** Options of {@linkcode acquireRuntimeLock}. */
export interface AcquireRuntimeLockOptions {
  /** How long to wait for another holder to let go; 0 tries once. Default 10 000 ms. */
  timeoutMs?: number;
  /** Interval between attempts while waiting. Default 50 ms. */
  pollMs?: number;
  /** Stops waiting; the acquire then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A held runtime lock. Keep it for the life of the runtime; release it on shutdown. */
export interface RuntimeLock extends AsyncDisposable {
  /** The lock file. */
  readonly path: string;
  /** Whether {@linkcode RuntimeLock.release} has been called. */
  readonly released: boolean;
  /**
   * Unlocks and closes the lock file, leaving the file in place. Calling it again does
   * nothing.
   *
   * @returns when the lock is free
   */
  release(): Promise<void>;
}

/**
 * Takes the runtime home's exclusive lock, creating the lock file if it is missing. While
 * another holder (another process, or another handle in this process) has it, tries again
 * every `pollMs` until `timeoutMs` has passed.
 *
 * @param lockPath the home's `runtime.lock`, from `homePaths(home).lock`
 * @param options wait time, poll interval and an abort signal
 * @returns the held lock
 * @throws {HomeLockedError} if another holder kept the lock for the whole wait
 * @throws {StorageError} `lock_io` if the lock file cannot be opened or locked
 * @throws {RangeError} if `timeoutMs` or `pollMs` is out of range
 * @throws the signal's reason if `signal` aborts first
 * @example
 * ```ts
 * await using lock = await acquireRuntimeLock(homePaths(resolveHome()).lock);
 * // … run; the lock is released when `lock` goes out of scope
 * ```
 */
export async function acquireRuntimeLock(
  lockPath: string,
  options: AcquireRuntimeLockOptions = {},
): Promise<RuntimeLock> {
  const timeoutMs = options.timeoutMs ?? RUNTIME_LOCK_TIMEOUT_MS;
  const pollMs = options.pollMs ?? RUNTIME_LOCK_POLL_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw new RangeError(`Lock timeoutMs must be a finite number >= 0, got ${timeoutMs}`);
  }
  if (!(Number.isFinite(pollMs) && pollMs > 0)) {
    throw new RangeError(`Lock pollMs must be a finite number > 0, got ${pollMs}`);
  }
  options.signal?.throwIfAborted();

  const file = await openLockFile(lockPath);
  try {
    const deadline = performance.now() + timeoutMs;
    while (!(await tryLockExclusive(file, lockPath))) {
      const remainingMs = deadline - performance.now();
      if (remainingMs <= 0) throw new HomeLockedError(dirname(lockPath), lockPath, timeoutMs);
      await sleep(Math.min(pollMs, remainingMs), options.signal);
    }
  } catch (error) {
    // Nothing is locked on this handle here, so closing it leaves no lock behind.
    file.close();
    throw error;
  }
  return new HeldRuntimeLock(lockPath, file);
}

class HeldRuntimeLock implements RuntimeLock {
  readonly path: string;
  #file: Deno.FsFile;
  #released = false;

  constructor(path: string, file: Deno.FsFile) {
    this.path = path;
    this.#file = file;
  }

  get released(): boolean {
    return this.#released;
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    try {
      await this.#file.unlock();
    } finally {
      // Closing the handle drops the lock even if the explicit unlock failed.
      this.#file.close();
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}

async function openLockFile(lockPath: string): Promise<Deno.FsFile> {
  try {
    // No truncate: an existing lock file keeps its inode and contents.
    return await Deno.open(lockPath, {
      read: true,
      write: true,
      create: true,
      mode: LOCK_FILE_MODE,
    });
  } catch (error) {
    throw lockIoError(`Cannot open the runtime lock file ${lockPath}`, error);
  }
}

async function tryLockExclusive(file: Deno.FsFile, lockPath: string): Promise<boolean> {
  try {
    return await file.tryLock(true);
  } catch (error) {
    throw lockIoError(`Cannot lock the runtime lock file ${lockPath}`, error);
  }
}

function lockIoError(what: string, cause: unknown): StorageError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StorageError("lock_io", `${what}: ${reason}`, { cause });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
