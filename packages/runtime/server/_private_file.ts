/**
 * Owner-only files of the runtime home (`auth.json`, `sessions.json`, uploads): written through a
 * temp file in the same directory (mode 0600, synced), then moved into place in one step,
 * so a reader never sees half a file and a crash never leaves one.
 *
 * @module
 */
import { dirname } from "node:path";

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Writes `content` to `path` atomically with mode 0600, creating the directory (0700).
 *
 * @param path the file
 * @param content its whole content (text is written as UTF-8)
 * @param options `overwrite`: rename over an existing file; otherwise hard-link into
 *   place, which fails if another process created the file first
 * @returns false when `overwrite` is false and the file already exists
 * @throws file-system errors as Deno throws them
 */
export async function writePrivateFile(
  path: string,
  content: string | Uint8Array,
  { overwrite }: { overwrite: boolean },
): Promise<boolean> {
  const tempPath = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const handle = await Deno.open(tempPath, { write: true, createNew: true, mode: 0o600 });
    try {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      // write() may write fewer bytes than asked (an 8 MiB attachment).
      for (let offset = 0; offset < bytes.length;) {
        offset += await handle.write(bytes.subarray(offset));
      }
      await handle.sync();
    } finally {
      handle.close();
    }
    if (!IS_WINDOWS) await Deno.chmod(tempPath, 0o600);
    if (overwrite) {
      await Deno.rename(tempPath, path);
      return true;
    }
    try {
      await Deno.link(tempPath, path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) return false;
      throw error;
    }
  } finally {
    await Deno.remove(tempPath).catch(() => {/* already renamed, or never created */});
  }
}
