/**
 * Online backup of state.db with SQLite's backup API: a consistent copy that includes
 * committed WAL content, written under a temporary name and renamed into place, never
 * over an existing file.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { backup } from "node:sqlite";
import { pragmaInteger } from "./_sqlite.ts";
import type { StateDatabase } from "./database.ts";
import { StateBackupError, StateBackupExistsError } from "./errors.ts";

/** Options of {@linkcode backupStateDatabase}. */
export interface BackupStateDatabaseOptions {
  /** Abandons the backup (before it starts or before the copy is renamed into place). */
  signal?: AbortSignal;
}

/** What {@linkcode backupStateDatabase} wrote. */
export interface StateBackupResult {
  /** The absolute path of the backup file. */
  path: string;
  /** Database pages copied. */
  pages: number;
  /** Size of the backup file in bytes. */
  bytes: number;
}

/**
 * Copies an open state.db to `outputPath` while it stays in use. The copy is made
 * through the open connection, so it holds everything committed, including frames not
 * yet checkpointed out of the WAL. It is written to a hidden temporary file in the
 * output directory, synced, and renamed, so the final name only ever holds a complete
 * backup.
 *
 * @param db the open database to copy
 * @param outputPath where the backup goes; its directory is created when missing
 * @param options an optional `signal`
 * @returns the backup's absolute path, page count and size
 * @throws {StateBackupExistsError} when `outputPath` already exists
 * @throws {StateBackupError} when copying, syncing or renaming fails
 * @example
 * ```ts
 * const { path, bytes } = await backupStateDatabase(db, `${home}/backups/state-2026-11-29.db`);
 * ```
 */
export async function backupStateDatabase(
  db: StateDatabase,
  outputPath: string,
  options: BackupStateDatabaseOptions = {},
): Promise<StateBackupResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const target = resolve(outputPath);
  await refuseExisting(target);
  const directory = dirname(target);
  await runStep(
    target,
    "create the backup directory",
    () => Deno.mkdir(directory, { recursive: true }),
  );
  const temporary = join(directory, `.${basename(target)}.${crypto.randomUUID()}.tmp`);
  let copied: unknown;
  try {
    // Deno types say Promise<void>; at runtime it resolves to the number of pages.
    copied = await runStep(target, "copy the database", () => backup(db.connection, temporary));
    signal?.throwIfAborted();
    await runStep(target, "sync the backup file", () => syncFile(temporary));
    await refuseExisting(target);
    await runStep(target, "move the backup into place", () => Deno.rename(temporary, target));
  } catch (error) {
    await removeLeftovers(temporary);
    throw error;
  }
  await syncDirectory(directory);
  const { size } = await runStep(target, "read the backup size", () => Deno.stat(target));
  return { path: target, pages: pagesCopied(copied, size, db), bytes: size };
}

async function refuseExisting(target: string): Promise<void> {
  try {
    await Deno.lstat(target);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new StateBackupError(target, `Cannot inspect backup output ${target}`, {
      cause: error,
    });
  }
  throw new StateBackupExistsError(target);
}

async function runStep<T>(target: string, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StateBackupExistsError || error instanceof StateBackupError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new StateBackupError(target, `Backup to ${target} failed to ${step}: ${detail}`, {
      cause: error,
    });
  }
}

async function syncFile(path: string): Promise<void> {
  using file = await Deno.open(path, { read: true, write: true });
  await file.sync();
}

/**
 * Makes the rename itself durable. Best effort by design: the backup is complete and
 * in place by now, and Windows cannot open a directory for syncing at all.
 */
async function syncDirectory(directory: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  try {
    using handle = await Deno.open(directory, { read: true });
    await handle.sync();
  } catch {
    // Ignored on purpose (see above): failing here would report a finished backup as lost.
  }
}

async function removeLeftovers(temporary: string): Promise<void> {
  for (const path of [temporary, `${temporary}-wal`, `${temporary}-shm`, `${temporary}-journal`]) {
    try {
      await Deno.remove(path);
    } catch {
      // Nothing to remove, or already gone: the original error is the one worth reporting.
    }
  }
}

function pagesCopied(copied: unknown, bytes: number, db: StateDatabase): number {
  if (typeof copied === "number") return copied;
  return Math.ceil(bytes / pragmaInteger(db.connection, "page_size"));
}
