/**
 * Keeps the uploads folder from growing without bound: at start, uploaded files that no
 * item records (uploaded, then removed from the composer or never sent) are removed once
 * they are a week old, and temp files of uploads cut off by a crash once they are an
 * hour old. Files the history names are never touched, nor anything not shaped like an
 * upload.
 *
 * @module
 */
import { join } from "node:path";

/** How long an upload no message names is kept (a draft may wait a while). */
export const UNSENT_UPLOAD_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a temp file of an interrupted upload is kept. */
export const UPLOAD_TEMP_KEEP_MS = 60 * 60 * 1000;

const STORED = /^[0-9a-f]{64}\.(png|jpg|gif|webp|txt)$/;
const TEMP = /^[0-9a-f]{64}\.(png|jpg|gif|webp|txt)\.[0-9a-f-]{36}\.tmp$/;

/** What a sweep removed. */
export interface SweepResult {
  /** Unsent uploads past their keep time. */
  unsent: string[];
  /** Temp files of interrupted uploads. */
  temp: string[];
}

/**
 * Removes stale uploads from the attachments folder.
 *
 * @param dir the folder (`<home>/attachments`); a missing folder is an empty one
 * @param referenced the paths items record (`readReferencedAttachmentPaths`)
 * @param now the current time in ms (tests pass their own)
 * @returns the file names removed
 */
export async function sweepAttachments(
  dir: string,
  referenced: ReadonlySet<string>,
  now: number = Date.now(),
): Promise<SweepResult> {
  const result: SweepResult = { unsent: [], temp: [] };
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return result;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile) continue;
    const path = join(dir, entry.name);
    const stored = STORED.test(entry.name);
    const temp = !stored && TEMP.test(entry.name);
    if (!stored && !temp) continue;
    if (stored && referenced.has(path)) continue;
    const modified = (await Deno.stat(path)).mtime?.getTime() ?? now;
    const keep = stored ? UNSENT_UPLOAD_KEEP_MS : UPLOAD_TEMP_KEEP_MS;
    if (now - modified < keep) continue;
    try {
      await Deno.remove(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      continue;
    }
    (stored ? result.unsent : result.temp).push(entry.name);
  }
  return result;
}
