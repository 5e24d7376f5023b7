/**
 * Atomic file replacement: a temp file in the same directory, written, fsynced, re-read and
 * checked against the SHA-256 of what was meant to be written, then renamed over the target.
 * A crash leaves either the old file or the new one, never half of each.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../tool.ts";
import { OPEN_VERIFY_ROUNDS } from "../limits.ts";

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
  /**
   * Refuses a directory the write may not land in (called with the parent's real path
   * before the temp file is created, after it was written and after the rename).
   */
  guard?: (realDirectory: string) => void;
}

/**
 * Replaces (or creates) a file atomically. The parent directory must exist.
 *
 * Why a racing link-flipper cannot make the bytes land outside the checked directory:
 * 1. the parent is resolved (`realPath` must equal it: no link on the way) and guarded;
 * 2. the temp file is created with `createNew` (O_CREAT|O_EXCL), which never follows a
 *    symlink at its last component, under a random name nobody could plant in advance;
 * 3. the new inode is confirmed to be at the temp path (`lstat`, no link followed) in a
 *    directory that still resolves to the guarded real path — and only then do the bytes
 *    go in, through the handle, never by path;
 * 4. the same confirmation runs again just before `rename`; rename(2) follows no symlink
 *    at either last component, so a link swapped in at `path` is replaced, not written
 *    through, and the new name appears in the directory that holds the temp inode;
 * 5. after the rename `path` must be that inode in a folder that still resolves to the
 *    guarded real path ({@linkcode OPEN_VERIFY_ROUNDS} rounds), else the call fails;
 * 6. on any failure after bytes were written, the inode is truncated *through the handle*,
 *    wherever it is now, so a folder swapped for a link between the checks cannot keep
 *    any of the content outside.
 * What path-only APIs cannot exclude: a folder higher up flipped to a link and back in
 * step with every check (see `access.ts`); then the content could stay outside until the
 * flipper is caught by a later round. Such a flipper is a separate process with write
 * access to the workspace (a narrowed Run can make no links), which could copy anything
 * out itself.
 *
 * @param path the target (a symlink at its last component is replaced, not followed; its
 *   folder is resolved to its real path first)
 * @param bytes the new content
 * @param options permission bits, directory guard
 * @throws {ToolError} `write_verification_failed` when the temp file does not read back
 *   the same bytes or the rename did not put it at `path`; `permission_denied` when the
 *   directory changed under the call; file-system errors as thrown by Deno
 */
export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // The folder as it really is now (an alias such as a symlinked home resolves once, here);
  // every later check demands that it still resolves to exactly this.
  const directory = await Deno.realPath(dirname(path));
  const target = join(directory, basename(path));
  const checkDirectory = async () => {
    const real = await Deno.realPath(directory).catch(() => null);
    if (real !== directory) throw changedUnderCall(path);
    options.guard?.(real);
  };
  await checkDirectory();
  const temp = join(directory, `.${basename(path)}.${crypto.randomUUID()}.tmp`);
  let file: Deno.FsFile | undefined;
  let created: Deno.FileInfo | undefined;
  let written = 0;
  let renamed = false;
  const confirmTemp = async () => {
    const here = await Deno.lstat(temp).catch(() => null);
    if (here === null || here.isSymlink || created === undefined || !sameInode(here, created)) {
      throw changedUnderCall(path);
    }
    await checkDirectory();
  };
  try {
    file = await Deno.open(temp, { read: true, write: true, createNew: true, mode: options.mode });
    created = await file.stat();
    await confirmTemp();
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
    const expected = await revisionOf(bytes);
    const actual = await revisionOf(await readBack(file, bytes.length));
    if (expected !== actual) {
      throw new ToolError(
        "write_verification_failed",
        `The written file did not read back as written (${actual} instead of ${expected})`,
      );
    }
    if (options.mode !== undefined && ((created.mode ?? 0) & 0o7777) !== options.mode) {
      await confirmTemp();
      await Deno.chmod(temp, options.mode);
    }
    await confirmTemp();
    await Deno.rename(temp, target);
    renamed = true;
    for (let round = 0; round < OPEN_VERIFY_ROUNDS; round++) {
      const landed = await Deno.lstat(target).catch(() => null);
      if (landed === null || !sameInode(landed, created)) {
        throw new ToolError(
          "write_verification_failed",
          `The new content of ${path} was replaced or moved by something else as it was written`,
        );
      }
      await checkDirectory();
    }
  } catch (error) {
    // Wherever the inode ended up (a folder swapped for a link may have carried it out),
    // the handle still reaches it: its content is wiped, so none of it stays outside.
    if (written > 0 && file !== undefined) await file.truncate(0).catch(() => {});
    if (renamed) throw error;
    // Remove the temp only while it is still ours (never a file planted in its place).
    const here = await Deno.lstat(temp).catch(() => null);
    if (here !== null && created !== undefined && sameInode(here, created)) {
      await Deno.remove(temp).catch(() => {/* already gone */});
    }
    throw error;
  } finally {
    file?.close();
  }
  await syncDirectory(directory);
}

/** Same inode; without inode numbers (not Linux/macOS), same device and birth time. */
function sameInode(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  if (a.ino !== null && b.ino !== null) return a.dev === b.dev && a.ino === b.ino;
  return a.ino === b.ino && a.dev === b.dev && a.birthtime?.getTime() === b.birthtime?.getTime();
}

function changedUnderCall(path: string): ToolError {
  return new ToolError(
    "permission_denied",
    `permission_denied: ${path} changed while it was being written (a symlink was swapped in)`,
  );
}

/** The file's bytes, read through the handle from the start. */
async function readBack(file: Deno.FsFile, length: number): Promise<Uint8Array> {
  await file.seek(0, Deno.SeekMode.Start);
  const out = new Uint8Array(length + 1);
  let filled = 0;
  while (filled < out.length) {
    const read = await file.read(out.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return out.subarray(0, filled);
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
