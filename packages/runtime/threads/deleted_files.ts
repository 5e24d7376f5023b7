/**
 * The runtime's own files of a deleted thread (tool output artifacts under
 * `artifacts/<threadId>`, process logs under `processes/<threadId>`, attachments only it
 * used), removed in an order a crash cannot break: a manifest naming them is written
 * inside the deletion's transaction, before its commit; after the commit the files go,
 * then the manifest. At start-up {@linkcode sweepDeletionManifests} finishes what a crash
 * interrupted: a manifest of a committed deletion has its files removed, one of a
 * deletion that never committed is dropped. Workspace files are never named.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { ThreadId } from "@daedalus/protocol";
import type { HomePaths } from "@daedalus/storage";

/** The home folders a deletion removes from. */
export interface ThreadFileDirs {
  /** `<home>/deletions`: the manifests. */
  manifests: string;
  /** `<home>/artifacts`. */
  artifacts: string;
  /** `<home>/processes`. */
  processes: string;
  /** `<home>/attachments`. */
  attachments: string;
}

/**
 * The folders of a home's paths.
 *
 * @param paths the home's paths
 * @returns the folders a deletion uses
 */
export function threadFileDirs(paths: HomePaths): ThreadFileDirs {
  return {
    manifests: paths.deletions,
    artifacts: paths.artifacts,
    processes: paths.processes,
    attachments: paths.attachments,
  };
}

/** What one manifest names. */
export interface DeletionManifest {
  /** The thread being deleted. */
  threadId: string;
  /** Absolute paths to remove (folders recursively). */
  paths: string[];
}

/** The outcome of a removal or a sweep. */
export interface RemovalOutcome {
  /** Paths that were there and are gone now. */
  removed: string[];
  /** Paths that could not be removed, with the reason; the manifest stays for them. */
  failed: { path: string; message: string }[];
}

/** Why a manifest was not acted on. */
export type ManifestProblem = "manifest_unreadable" | "manifest_invalid" | "path_outside_home";

/**
 * Every path a thread's deletion removes: its artifacts and process folders, and the
 * attachments state.db says only it referred to.
 *
 * @param dirs the home folders
 * @param threadId the thread
 * @param attachmentPaths attachment files only this thread used
 * @returns the manifest
 * @throws {TypeError} when `threadId` is not a thread id (it names folders)
 */
export function deletionManifest(
  dirs: ThreadFileDirs,
  threadId: string,
  attachmentPaths: readonly string[],
): DeletionManifest {
  if (!ThreadId.safeParse(threadId).success) throw new TypeError(`Invalid thread id`);
  return {
    threadId,
    paths: [join(dirs.artifacts, threadId), join(dirs.processes, threadId), ...attachmentPaths],
  };
}

/**
 * The manifest file of a thread.
 *
 * @param dirs the home folders
 * @param threadId the thread
 * @returns `<manifests>/<threadId>.json`
 */
export function manifestPath(dirs: ThreadFileDirs, threadId: string): string {
  return join(dirs.manifests, `${threadId}.json`);
}

/**
 * Writes a manifest durably (temp file, fsync, rename), synchronously: it runs inside
 * the deletion's transaction, whose commit must not happen before it is on disk.
 *
 * @param dirs the home folders
 * @param manifest what to remove
 * @throws the file system's error; the deletion then rolls back
 */
export function writeManifestSync(dirs: ThreadFileDirs, manifest: DeletionManifest): void {
  Deno.mkdirSync(dirs.manifests, { recursive: true, mode: 0o700 });
  const target = manifestPath(dirs, manifest.threadId);
  const temp = `${target}.tmp`;
  const file = Deno.openSync(temp, { write: true, create: true, truncate: true, mode: 0o600 });
  try {
    file.writeSync(new TextEncoder().encode(JSON.stringify(manifest)));
    file.syncSync();
  } finally {
    file.close();
  }
  Deno.renameSync(temp, target);
}

/**
 * Drops the manifest of a deletion that did not commit (the transaction failed after it
 * was written).
 *
 * @param dirs the home folders
 * @param threadId the thread
 */
export async function dropManifest(dirs: ThreadFileDirs, threadId: string): Promise<void> {
  await removeIfPresent(manifestPath(dirs, threadId), false);
}

/**
 * Reads and checks a manifest: a thread id and paths inside the artifacts, processes or
 * attachments folder only, so a damaged or planted file never removes anything else.
 *
 * @param dirs the home folders
 * @param text the file's content
 * @param threadId the thread its name says
 * @returns the manifest or the problem
 */
export function parseManifest(
  dirs: ThreadFileDirs,
  text: string,
  threadId: string,
): DeletionManifest | ManifestProblem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "manifest_invalid";
  }
  if (typeof value !== "object" || value === null) return "manifest_invalid";
  const { threadId: named, paths } = value as Record<string, unknown>;
  if (named !== threadId || !ThreadId.safeParse(named).success) return "manifest_invalid";
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === "string")) {
    return "manifest_invalid";
  }
  const allowed = [
    join(dirs.artifacts, threadId),
    join(dirs.processes, threadId),
  ];
  for (const path of paths as string[]) {
    const absolute = resolve(path);
    if (absolute !== path) return "path_outside_home";
    // A file directly in the attachments folder, never the folder itself.
    const inAttachments = dirname(absolute) === resolve(dirs.attachments);
    if (!allowed.includes(absolute) && !inAttachments) return "path_outside_home";
  }
  return { threadId, paths: paths as string[] };
}

/**
 * Removes a committed deletion's files, then its manifest (kept when a file could not be
 * removed, so the next start tries again).
 *
 * @param dirs the home folders
 * @param manifest what to remove
 * @returns what was removed and what failed
 */
export async function removeDeletedFiles(
  dirs: ThreadFileDirs,
  manifest: DeletionManifest,
): Promise<RemovalOutcome> {
  const outcome: RemovalOutcome = { removed: [], failed: [] };
  for (const path of manifest.paths) {
    try {
      if (await removeIfPresent(path, true)) outcome.removed.push(path);
    } catch (error) {
      outcome.failed.push({ path, message: (error as Error).message });
    }
  }
  if (outcome.failed.length === 0) {
    await removeIfPresent(manifestPath(dirs, manifest.threadId), false);
  }
  return outcome;
}

/** The outcome of {@linkcode sweepDeletionManifests}. */
export interface SweepOutcome extends RemovalOutcome {
  /** Manifests of deletions that never committed, dropped. */
  dropped: string[];
  /** Manifests that were not acted on, and why (left in place for a person to look at). */
  skipped: { file: string; problem: ManifestProblem }[];
}

/**
 * Finishes the deletions a crash interrupted: for each manifest, a committed deletion's
 * files are removed, and a manifest whose deletion never committed is dropped.
 *
 * @param dirs the home folders
 * @param isDeleted whether state.db has the thread's `thread.deleted` event
 * @returns what was done; a missing manifests folder is an empty one
 */
export async function sweepDeletionManifests(
  dirs: ThreadFileDirs,
  isDeleted: (threadId: string) => boolean,
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { removed: [], failed: [], dropped: [], skipped: [] };
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dirs.manifests));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return outcome;
    throw error;
  }
  for (const entry of entries) {
    const file = join(dirs.manifests, entry.name);
    if (entry.isFile && entry.name.endsWith(".json.tmp")) {
      // Cut off while being written: its deletion cannot have committed.
      await removeIfPresent(file, false);
      continue;
    }
    const match = /^(thread_[0-9a-f]{32})\.json$/.exec(entry.name);
    if (!entry.isFile || match === null) continue;
    const threadId = match[1];
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      outcome.skipped.push({ file, problem: "manifest_unreadable" });
      continue;
    }
    const manifest = parseManifest(dirs, text, threadId);
    if (typeof manifest === "string") {
      outcome.skipped.push({ file, problem: manifest });
      continue;
    }
    if (!isDeleted(threadId)) {
      await removeIfPresent(file, false);
      outcome.dropped.push(threadId);
      continue;
    }
    const removed = await removeDeletedFiles(dirs, manifest);
    outcome.removed.push(...removed.removed);
    outcome.failed.push(...removed.failed);
  }
  return outcome;
}

async function removeIfPresent(path: string, recursive: boolean): Promise<boolean> {
  try {
    await Deno.remove(path, { recursive });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
