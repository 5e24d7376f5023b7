/**
 * The write path shared by write and edit: under the file's lock, read what is there, compute
 * the new bytes, replace the file atomically and record the change as a fact.
 *
 * @module
 */
import { dirname } from "node:path";
import { type ToolContext, ToolError } from "../tool.ts";
import { FILE_EDIT_MAX_BYTES } from "../limits.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { type FileChange, recordFileChange } from "./capture.ts";
import { fileSystemError, type ResolvedPath, withPathLock } from "./paths.ts";

/**
 * Changes one file.
 *
 * @param context the tool context (signal, fact recorder)
 * @param target the resolved file
 * @param operation write or edit
 * @param change computes the new bytes from the current ones (null when missing); may throw
 *   a {@linkcode ToolError} to refuse
 * @returns the recorded fact
 * @throws {ToolError} `not_a_file`, `file_too_large`, `cancelled`, `permission_denied`…
 */
export function applyFileChange(
  context: ToolContext,
  target: ResolvedPath,
  operation: "write" | "edit",
  change: (before: Uint8Array | null) => Uint8Array | Promise<Uint8Array>,
): Promise<FileChange> {
  return withPathLock(target.realPath, async () => {
    try {
      const before = await readExisting(target);
      const after = await change(before?.bytes ?? null);
      if (after.length > FILE_EDIT_MAX_BYTES) {
        throw new ToolError(
          "file_too_large",
          `The new content of ${target.displayPath} is ${after.length} bytes; at most ${FILE_EDIT_MAX_BYTES} can be written`,
        );
      }
      if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled before writing");
      await Deno.mkdir(dirname(target.realPath), { recursive: true });
      await writeFileAtomic(target.realPath, after, { mode: before?.mode });
      return await recordFileChange(context, {
        path: target.displayPath,
        operation,
        before: before?.bytes ?? null,
        after,
      });
    } catch (error) {
      throw fileSystemError(error, target.displayPath);
    }
  });
}

async function readExisting(
  target: ResolvedPath,
): Promise<{ bytes: Uint8Array; mode: number | undefined } | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(target.realPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (!info.isFile) {
    throw new ToolError("not_a_file", `${target.displayPath} is a directory, not a file`);
  }
  if (info.size > FILE_EDIT_MAX_BYTES) {
    throw new ToolError(
      "file_too_large",
      `${target.displayPath} is ${info.size} bytes; files over ${FILE_EDIT_MAX_BYTES} bytes cannot be changed by this tool`,
    );
  }
  const mode = info.mode === null ? undefined : info.mode & 0o7777;
  return { bytes: await Deno.readFile(target.realPath), mode };
}
