/**
 * Path rules shared by every file tool: resolution (relative paths against the workspace,
 * `..` normalised, symlinks resolved to their real target), one async lock per real path,
 * and binary sniffing.
 *
 * Outside paths: absolute paths and `..` that climb out of the workspace are resolved here,
 * not refused; what a permission mode may touch (and the protected home files) is decided
 * when the file is opened, by `access.ts`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type ToolContext, ToolError } from "../tool.ts";
import { BINARY_EXTENSIONS, BINARY_SNIFF_BYTES, TOOL_PATH_MAX_CHARS } from "../limits.ts";

/** A path as a tool resolved it. */
export interface ResolvedPath {
  /** The absolute, normalised path the model named (symlinks kept). */
  path: string;
  /** The real target: symlinks resolved; for a missing file, its real parent plus the rest. */
  realPath: string;
  /** Whether the real target lies inside the workspace's real root. */
  insideWorkspace: boolean;
  /** The path to show the model: workspace-relative when inside, absolute otherwise. */
  displayPath: string;
}

/** Symlink hops followed before a chain is treated as a loop (Linux uses 40). */
const SYMLINK_MAX_HOPS = 40;

/**
 * Resolves a model-supplied path.
 *
 * @param input the path as the model wrote it
 * @param workspaceRoot the thread's workspace (absolute)
 * @param realRoot the workspace's real path when already known (the Run's, see
 *   {@linkcode resolveInWorkspace})
 * @returns the absolute path, its real target and whether it is inside the workspace
 * @throws {ToolError} `invalid_arguments` for an empty path or one with a NUL character,
 *   `path_too_long` over {@linkcode TOOL_PATH_MAX_CHARS} characters
 * @example
 * ```ts
 * const target = await resolveToolPath("src/../README.md", "/home/me/project");
 * // target.path === "/home/me/project/README.md"
 * ```
 */
export async function resolveToolPath(
  input: string,
  workspaceRoot: string,
  realRoot?: Promise<string>,
): Promise<ResolvedPath> {
  if (input.length === 0) throw new ToolError("invalid_arguments", "path: must not be empty");
  if (input.length > TOOL_PATH_MAX_CHARS) {
    throw new ToolError(
      "path_too_long",
      `path: ${input.length} characters is longer than the ${TOOL_PATH_MAX_CHARS} allowed`,
    );
  }
  if (input.includes("\0")) {
    throw new ToolError("invalid_arguments", "path: must not contain a NUL character");
  }
  const path = resolve(workspaceRoot, input);
  const [realPath, realRootPath] = await Promise.all([
    realTarget(path),
    realRoot ?? realTarget(workspaceRoot),
  ]);
  const insideWorkspace = isWithin(realRootPath, realPath);
  return { path, realPath, insideWorkspace, displayPath: displayPathOf(path, workspaceRoot) };
}

/**
 * Resolves a model-supplied path against a call's workspace, the workspace's real path
 * worked out once per Run (the workspace of a Run does not move under it; if it did, a
 * sealed mode would refuse what now lies elsewhere, never allow more).
 *
 * @param input the path as the model wrote it
 * @param context the call's context
 * @returns as {@linkcode resolveToolPath}
 * @throws {ToolError} as {@linkcode resolveToolPath}
 */
export function resolveInWorkspace(input: string, context: ToolContext): Promise<ResolvedPath> {
  const root = context.workspaceRoot;
  const memo = context.runMemo;
  if (!memo) return resolveToolPath(input, root);
  const kept = memo.memo("files.realWorkspaceRoot", () => ({
    real: undefined as Promise<string> | undefined,
  }));
  const real = kept.real ??= realTarget(root);
  real.catch(() => {
    if (kept.real === real) kept.real = undefined;
  });
  return resolveToolPath(input, root, real);
}

/**
 * How a path is shown to the model: relative to the workspace when below it, else absolute.
 *
 * @param path an absolute path
 * @param workspaceRoot the workspace
 * @returns the shown path (`.` for the workspace itself)
 */
export function displayPathOf(path: string, workspaceRoot: string): string {
  if (!isWithin(workspaceRoot, path)) return path;
  return relative(workspaceRoot, path) || ".";
}

/** The parts of `node:path` a containment check needs (`posix` or `win32`). */
export interface PathFlavour {
  /** As `node:path`'s `relative`. */
  relative(from: string, to: string): string;
  /** As `node:path`'s `isAbsolute`. */
  isAbsolute(path: string): boolean;
  /** As `node:path`'s `sep`. */
  readonly sep: string;
}

/**
 * Whether `child` is `parent` or lies below it (both absolute and normalised). On Windows
 * the comparison is case-insensitive and across drives it is false: `node:path`'s win32
 * `relative` compares case-insensitively and answers an absolute path for another drive.
 *
 * @param parent the directory
 * @param child the path to test
 * @param paths the path flavour (default this platform's `node:path`; tests pass `win32`)
 * @returns true when inside
 */
export function isWithin(
  parent: string,
  child: string,
  paths: PathFlavour = { relative, isAbsolute, sep },
): boolean {
  const rel = paths.relative(parent, child);
  return rel === "" ||
    (rel !== ".." && !rel.startsWith(`..${paths.sep}`) && !paths.isAbsolute(rel));
}

/**
 * The real target of a path that may not exist yet: symlinks (dangling ones included) are
 * followed, and a missing tail is appended to its real parent, so aliases of a file that is
 * about to be created still share one lock.
 *
 * @param path an absolute path
 * @param hops symlinks followed so far (internal; stops a loop)
 * @returns the real path
 */
export function realTarget(path: string, hops = 0): Promise<string> {
  try {
    return Promise.resolve(realTargetNow(path, hops));
  } catch (error) {
    return Promise.reject(error);
  }
}

function realTargetNow(path: string, hops: number): string {
  const real = realPathOrNull(path);
  if (real !== null) return real;
  // Missing (or a dangling link, or a loop): resolve what exists and append the rest.
  if (hops < SYMLINK_MAX_HOPS) {
    const link = lstatOrNull(path);
    if (link?.isSymlink) {
      return realTargetNow(resolve(dirname(path), Deno.readLinkSync(path)), hops + 1);
    }
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(realTargetNow(parent, hops), basename(path));
}

// The path checks below are synchronous on purpose: each is a few microseconds on this
// thread, where an asynchronous one is a thread-pool round trip (25–150 µs on a busy
// machine), and one `read` made about twenty of them. None of them can block: they touch
// metadata only (an open, which a FIFO could hold, stays asynchronous where it is done).

/**
 * Whether `stat` of a path would succeed, without the error when it would not: a failed
 * Deno fs call costs about 27 µs (the error it throws is built with its message and
 * class), a failed `existsSync` about 1.3 µs, and a tool turn asks about a dozen paths
 * that do not exist (protected files not yet created, their missing parent folders).
 * When `stat` fails, `realpath` fails too, so a false here is the answer of both.
 */
function followable(path: string): boolean {
  try {
    return existsSync(path);
  } catch {
    return false;
  }
}

/**
 * A path's real path (symlinks resolved), or null when it cannot be resolved.
 *
 * @param path the path
 * @returns the real path, or null
 */
export function realPathOrNull(path: string): string | null {
  if (!followable(path)) return null;
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * `lstat` of a path (the last component not followed), or null when it cannot be read.
 *
 * @param path the path
 * @returns its info, or null
 */
export function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * `stat` of a path (symlinks followed), or null when it cannot be read.
 *
 * @param path the path
 * @returns its info, or null
 */
export function statOrNull(path: string): Deno.FileInfo | null {
  if (!followable(path)) return null;
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

const locks = new Map<string, Promise<void>>();

/**
 * Runs `task` while holding the lock of one real path; calls on the same file (through any
 * symlink alias, since callers pass {@linkcode ResolvedPath.realPath}) run one at a time.
 *
 * @param realPath the real path to lock
 * @param task the work to do under the lock
 * @returns what `task` returns
 */
export async function withPathLock<T>(realPath: string, task: () => Promise<T>): Promise<T> {
  const previous = locks.get(realPath) ?? Promise.resolve();
  let release = () => {};
  const held = new Promise<void>((done) => release = done);
  const tail = previous.then(() => held);
  locks.set(realPath, tail);
  await previous;
  try {
    return await task();
  } finally {
    release();
    if (locks.get(realPath) === tail) locks.delete(realPath);
  }
}

/**
 * Whether a file name has an extension that is never read as text.
 *
 * @param path a file path
 * @returns true for `.exe`, `.png`, `.zip`…
 */
export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).toLowerCase());
}

/**
 * Whether bytes look binary: a NUL byte or invalid UTF-8.
 *
 * @param sample the first bytes of a file
 * @param complete whether `sample` is the whole file (else a cut multi-byte character at
 *   its end is not held against it)
 * @returns true when binary
 */
export function looksBinary(sample: Uint8Array, complete: boolean): boolean {
  if (sample.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: !complete });
    return false;
  } catch {
    return true;
  }
}

/**
 * Whether a file is binary, by its extension or its first {@linkcode BINARY_SNIFF_BYTES} (anything
 * but a regular file counts as binary: it is never read).
 *
 * @param path the file
 * @returns true when binary
 * @throws {Deno.errors.NotFound} when the file is missing
 */
export async function isBinaryFile(path: string): Promise<boolean> {
  if (hasBinaryExtension(path)) return true;
  using file = await Deno.open(path, { read: true });
  // The sniff reads synchronously: only a regular file is read at all (a FIFO would block).
  if (!(await file.stat()).isFile) return true;
  return await isBinaryHandle(file, path);
}

/**
 * Whether an opened file is binary, by its name's extension or its first
 * {@linkcode BINARY_SNIFF_BYTES} (read from the start; the position is left after them).
 *
 * @param file the open handle
 * @param path its path (for the extension)
 * @returns true when binary
 */
export function isBinaryHandle(file: Deno.FsFile, path: string): Promise<boolean> {
  if (hasBinaryExtension(path)) return Promise.resolve(true);
  try {
    // Synchronous: a few KiB of a file already open (a regular one, for the file tools).
    file.seekSync(0, Deno.SeekMode.Start);
    const sample = new Uint8Array(BINARY_SNIFF_BYTES);
    let filled = 0;
    while (filled < sample.length) {
      const read = file.readSync(sample.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return Promise.resolve(looksBinary(sample.subarray(0, filled), filled < sample.length));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Refuses a binary file for a text operation.
 *
 * @param file the open handle
 * @param path its path (for the extension)
 * @param shown the path as shown to the model
 * @throws {ToolError} `binary_file`
 */
export async function assertTextFile(
  file: Deno.FsFile,
  path: string,
  shown: string,
): Promise<void> {
  if (await isBinaryHandle(file, path)) {
    throw new ToolError(
      "binary_file",
      `${shown} is a binary file; only UTF-8 text files can be read or edited`,
    );
  }
}

/**
 * Stats a file for a tool, turning "missing" and "not a file" into model-readable errors.
 *
 * @param target the resolved path
 * @returns the file's info
 * @throws {ToolError} `file_not_found`, `not_a_file`, `permission_denied`
 */
export async function statFile(target: ResolvedPath): Promise<Deno.FileInfo> {
  const info = await statOrThrow(target);
  if (!info.isFile) {
    throw new ToolError("not_a_file", `${target.displayPath} is a directory, not a file`);
  }
  return info;
}

/**
 * Stats a path for a tool, following symlinks.
 *
 * @param target the resolved path
 * @returns the info
 * @throws {ToolError} `file_not_found`, `permission_denied`
 */
export async function statOrThrow(target: ResolvedPath): Promise<Deno.FileInfo> {
  try {
    return await Deno.stat(target.path);
  } catch (error) {
    throw fileSystemError(error, target.displayPath);
  }
}

/**
 * Turns a file-system error into a {@linkcode ToolError} the model can act on.
 *
 * @param error what Deno threw
 * @param shown the path as shown to the model
 * @returns the tool error
 */
export function fileSystemError(error: unknown, shown: string): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof Deno.errors.NotFound) {
    return new ToolError("file_not_found", `${shown} does not exist`, { cause: error });
  }
  if (error instanceof Deno.errors.NotCapable) {
    // The sandbox Worker's Deno permissions refused it: the second wall held.
    return new ToolError(
      "permission_denied",
      `permission_denied: ${shown} is outside what this run may access`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new ToolError("permission_denied", `${shown} is not accessible`, { cause: error });
  }
  if (error instanceof Deno.errors.NotADirectory) {
    return new ToolError("file_not_found", `${shown} does not exist (a parent is a file)`, {
      cause: error,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("file_system_error", `${shown}: ${reason}`, { cause: error });
}
