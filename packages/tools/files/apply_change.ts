/**
 * The write path shared by write and edit: under the file's lock, check the destination
 * against the call's access rules, read what is there through a checked handle, compute the
 * new bytes, create missing folders one checked step at a time, replace the file atomically
 * (with the directory guarded, see `atomic_write.ts`) and record the change as a fact.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { type ToolContext, ToolError } from "../tool.ts";
import { FILE_EDIT_MAX_BYTES } from "../limits.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { type FileChange, recordFileChange } from "./capture.ts";
import { fileSystemError, realTarget, type ResolvedPath, withPathLock } from "./paths.ts";
import {
  type AccessRules,
  accessRulesOf,
  assertAllowed,
  denied,
  openChecked,
  readChecked,
} from "./access.ts";

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
  const shown = target.displayPath;
  return withPathLock(target.realPath, async () => {
    try {
      const rules = await accessRulesOf(context);
      if (rules.sealed) assertAllowed(resolve(target.path), rules, "write", shown);
      // Resolved again under the lock: a link may have changed since the call resolved it.
      const destination = await realTarget(target.path);
      assertAllowed(destination, rules, "write", shown);
      const before = await readExisting(destination, rules, shown);
      const after = await change(before?.bytes ?? null);
      if (after.length > FILE_EDIT_MAX_BYTES) {
        throw new ToolError(
          "file_too_large",
          `The new content of ${target.displayPath} is ${after.length} bytes; at most ${FILE_EDIT_MAX_BYTES} can be written`,
        );
      }
      if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled before writing");
      const directory = await makeDirectories(dirname(destination), rules, shown);
      await writeFileAtomic(join(directory, basename(destination)), after, {
        mode: before?.mode,
        guard: (real) => assertAllowed(real, rules, "write", shown),
      });
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

/** The current bytes and mode of the destination, read through a checked handle. */
async function readExisting(
  destination: string,
  rules: AccessRules,
  shown: string,
): Promise<{ bytes: Uint8Array; mode: number | undefined } | null> {
  let checked;
  try {
    checked = await openChecked(destination, rules, shown);
  } catch (error) {
    if (error instanceof ToolError && error.code === "file_not_found") return null;
    throw error;
  }
  using file = checked;
  if (file.info.size > FILE_EDIT_MAX_BYTES) {
    throw new ToolError(
      "file_too_large",
      `${shown} is ${file.info.size} bytes; files over ${FILE_EDIT_MAX_BYTES} bytes cannot be changed by this tool`,
    );
  }
  const bytes = await readChecked(file, FILE_EDIT_MAX_BYTES);
  if (bytes === null) throw new ToolError("file_too_large", `${shown} grew while it was read`);
  const mode = file.info.mode === null ? undefined : file.info.mode & 0o7777;
  return { bytes, mode };
}

/**
 * Creates the missing folders of a write one at a time, each below a parent whose real path
 * was checked (never `mkdir -p` through a link), and returns the folder's real path.
 */
async function makeDirectories(
  directory: string,
  rules: AccessRules,
  shown: string,
): Promise<string> {
  const missing: string[] = [];
  let existing = directory;
  while ((await Deno.lstat(existing).catch(() => null)) === null) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(basename(existing));
    existing = parent;
  }
  let real = await Deno.realPath(existing);
  assertAllowed(real, rules, "write", shown);
  for (const name of missing) {
    const next = join(real, name);
    await Deno.mkdir(next).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    const made = await Deno.realPath(next);
    if (made !== next) throw denied(shown, "changed while its folders were created");
    assertAllowed(made, rules, "write", shown);
    real = made;
  }
  if (!(await Deno.stat(real)).isDirectory) {
    throw new ToolError("file_not_found", `${shown} does not exist (a parent is a file)`);
  }
  return real;
}
