/**
 * Atomic file replacement: a temp file in the same directory, written, fsynced, re-read and
 * checked against the SHA-256 of what was meant to be written, then renamed over the target.
 * A crash leaves either the old file or the new one, never half of each.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../tool.ts";

/**
 * The `sha256:<hex>` revision of some bytes (what edit's `expectedRevision` compares).
 *
 * @param bytes the content
 * @returns `sha256:` and 64 hex digits
 */
export async function revisionOf(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return `sha256:${
    Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** Options of {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits for the new file (kept from the file it replaces). */
  mode?: number;
}

/**
 * Replaces (or creates) a file atomically. The parent directory must exist.
 *
 * @param path the target (its real path: a symlink would be replaced, not followed)
 * @param bytes the new content
 * @param options permission bits
 * @throws {ToolError} `write_verification_failed` when the temp file does not read back
 *   the same bytes; file-system errors as thrown by Deno
 */
export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID()}.tmp`);
  try {
    {
      using file = await Deno.open(temp, { write: true, createNew: true, mode: options.mode });
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    }
    const [expected, actual] = await Promise.all([
      revisionOf(bytes),
      Deno.readFile(temp).then(revisionOf),
    ]);
    if (expected !== actual) {
      throw new ToolError(
        "write_verification_failed",
        `The written file did not read back as written (${actual} instead of ${expected})`,
      );
    }
    if (options.mode !== undefined) await Deno.chmod(temp, options.mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {/* already renamed or never created */});
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes the rename durable; not every platform can open a directory, which is harmless. */
async function syncDirectory(path: string): Promise<void> {
  try {
    using directory = await Deno.open(path, { read: true });
    await directory.sync();
  } catch {
    // Windows cannot fsync a directory; the rename itself is still atomic there.
  }
}
