/**
 * The `daedalus storage …` operations on a runtime home. Each holds the home lock
 * (so it never runs beside a live runtime) and returns one JSON-ready object,
 * `{"operation":"storage.check","ok":…}`, that the CLI prints on stdout.
 *
 * @module
 */
import { ensureHome, homePaths } from "./home.ts";
import { acquireRuntimeLock, type AcquireRuntimeLockOptions } from "./lock.ts";
import { openStateDatabase } from "./state/database.ts";
import { checkState, repairProjections, type StateCheckReport } from "./state/maintenance.ts";
import { backupStateDatabase } from "./state/backup.ts";
import { type ChainHead, verifyJournal } from "./state/journal_verify.ts";
import { type ExportFormat, exportThreadChunks } from "./state/journal_export.ts";

/** The JSON object a storage operation reports. */
export type StorageReport = { operation: string; ok: boolean } & Record<string, unknown>;

async function withHome<T>(
  home: string,
  lockOptions: AcquireRuntimeLockOptions,
  fn: (paths: ReturnType<typeof homePaths>) => Promise<T>,
): Promise<T> {
  const paths = homePaths(home);
  await ensureHome(paths);
  await using _lock = await acquireRuntimeLock(paths.lock, lockOptions);
  return await fn(paths);
}

/**
 * `storage check`: integrity, foreign keys, journal order and projection rebuild.
 *
 * @param home the runtime home
 * @param lockOptions how long to wait for the home lock
 * @returns `{operation: "storage.check", ok, …report}`
 */
export function storageCheck(
  home: string,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<StorageReport> {
  return withHome(home, lockOptions, (paths) => {
    const db = openStateDatabase(paths.stateDb, { create: false });
    try {
      const report: StateCheckReport = checkState(db);
      return Promise.resolve({ operation: "storage.check", ...report });
    } finally {
      db.close();
    }
  });
}

/**
 * `storage backup --output FILE`: an online-API copy including committed WAL content;
 * refuses to overwrite.
 *
 * @param home the runtime home
 * @param output the backup file
 * @param lockOptions how long to wait for the home lock
 * @returns `{operation: "storage.backup", ok, path, pages, bytes}`
 */
export function storageBackup(
  home: string,
  output: string,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<StorageReport> {
  return withHome(home, lockOptions, async (paths) => {
    const db = openStateDatabase(paths.stateDb, { create: false });
    try {
      const result = await backupStateDatabase(db, output);
      return { operation: "storage.backup", ok: true, ...result };
    } finally {
      db.close();
    }
  });
}

/**
 * `storage repair-projections`: backs up to `<home>/backups/`, then rebuilds every
 * projection from the journal in one transaction.
 *
 * @param home the runtime home
 * @param lockOptions how long to wait for the home lock
 * @returns `{operation: "storage.repair_projections", ok, backup, events, repairedTables}`
 */
export function storageRepairProjections(
  home: string,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<StorageReport> {
  return withHome(home, lockOptions, async (paths) => {
    const db = openStateDatabase(paths.stateDb, { create: false });
    try {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const report = await repairProjections(db, `${paths.backups}/state-${stamp}.db`);
      const after = checkState(db);
      return { operation: "storage.repair_projections", ok: after.ok, ...report };
    } finally {
      db.close();
    }
  });
}

/**
 * `storage verify [--head SEQ:HASH]`: walks the journal's hash chain and names the first
 * altered, deleted, moved or unchained row; reports the head to keep.
 *
 * @param home the runtime home
 * @param expectedHead a head kept earlier, to detect a truncation the chain cannot show
 * @param lockOptions how long to wait for the home lock
 * @returns `{operation: "storage.verify", ok, events, head, failure?}`
 */
export function storageVerify(
  home: string,
  expectedHead?: ChainHead,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<StorageReport> {
  return withHome(home, lockOptions, (paths) => {
    const db = openStateDatabase(paths.stateDb, { create: false });
    try {
      return Promise.resolve({
        operation: "storage.verify",
        ...verifyJournal(db.connection, expectedHead),
      });
    } finally {
      db.close();
    }
  });
}

/**
 * `storage export --thread ID [--format jsonl|markdown]`: one thread's events as text.
 *
 * @param home the runtime home
 * @param threadId the thread
 * @param format JSON lines with hashes, or a Markdown transcript
 * @param lockOptions how long to wait for the home lock
 * @returns the export text
 * @throws {JournalExportError} `thread_not_found` when the thread has no events
 */
export async function storageExport(
  home: string,
  threadId: string,
  format: ExportFormat,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<string> {
  let text = "";
  await storageExportTo(home, threadId, format, (chunk) => {
    text += chunk;
    return Promise.resolve();
  }, lockOptions);
  return text;
}

/**
 * `storage export` written as it is read: one chunk per page of rows
 * (`exportThreadChunks`), so the CLI never holds a long thread's export in memory.
 *
 * @param home the runtime home
 * @param threadId the thread
 * @param format JSON lines with hashes, or a Markdown transcript
 * @param write takes each chunk (awaited before the next page is read)
 * @param lockOptions how long to wait for the home lock
 * @throws {JournalExportError} `thread_not_found` when the thread has no events, before
 *   anything is written
 */
export function storageExportTo(
  home: string,
  threadId: string,
  format: ExportFormat,
  write: (chunk: string) => Promise<void>,
  lockOptions: AcquireRuntimeLockOptions = {},
): Promise<void> {
  return withHome(home, lockOptions, async (paths) => {
    const db = openStateDatabase(paths.stateDb, { create: false });
    try {
      for (const chunk of exportThreadChunks((fn) => fn(db.connection), threadId, format)) {
        await write(chunk);
      }
    } finally {
      db.close();
    }
  });
}
