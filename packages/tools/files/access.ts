/**
 * Sealed file access: which real paths a call may read or write, and opening a file so that
 * what was actually opened is what was checked.
 *
 * Rules ({@linkcode AccessRules}):
 * - sealed modes (`read_only`, `workspace_write`) touch only paths whose *real* location
 *   (symlinks resolved) is inside the real workspace root; reads may also reach the thread's
 *   own artifacts folder (where results over 64 KiB are written for the model to read on);
 * - the runtime's protected files (`<home>/config.yaml`, `auth.json`, `sessions.json`) are
 *   refused in every mode, by real path and by identity (dev/ino: a hard link to one is
 *   refused too);
 * - `full_access` may read and write anywhere the user can, except the protected files.
 *
 * Why open-then-verify: Deno checks a path as written and follows symlinks, so a path that
 * was checked can be swapped for a link before it is opened. {@linkcode openChecked} opens
 * the checked real path and then compares the opened handle's dev/ino with `lstat` of that
 * real path (no symlink followed at its last component) and resolves the path again: a link
 * swapped in at the last component, before or during the open, opens another inode and is
 * refused. A directory higher up swapped for a link *and back* between the open and the
 * re-checks is the one case path-based APIs cannot exclude (Deno has no openat/O_NOFOLLOW);
 * it needs several precisely timed flips by another process, and the sandbox Worker's
 * Deno permissions stay a second wall for paths written outside the workspace.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { type ToolContext, ToolError } from "../tool.ts";
import { fileSystemError, isWithin, lstatOrNull, realPathOrNull, statOrNull } from "./paths.ts";
import { isSealedPolicy } from "../permission.ts";
import { OPEN_VERIFY_ROUNDS } from "../limits.ts";

/** A file identity: device and inode. */
export interface FileId {
  /** The device. */
  dev: number;
  /** The inode. */
  ino: number;
}

/** A protected file as the rules know it. */
export interface ProtectedFile {
  /** The path as configured. */
  path: string;
  /** Its real path (its folder's real path and its name while it does not exist). */
  real: string;
  /** Its identity, null when it does not exist (or cannot be stat'ed here). */
  id: FileId | null;
}

/** What a call may touch. */
export interface AccessRules {
  /** Whether paths outside {@linkcode readRoots}/{@linkcode writeRoots} are refused. */
  readonly sealed: boolean;
  /** The mode, for messages. */
  readonly mode: string;
  /** Real directories a sealed call may read below. */
  readonly readRoots: readonly string[];
  /** Real directories a sealed call may write below. */
  readonly writeRoots: readonly string[];
  /** Files no call may read or write. */
  readonly protectedFiles: readonly ProtectedFile[];
}

/** What {@linkcode buildAccessRules} needs. */
export interface AccessRulesInput {
  /** Refuse everything outside the roots. */
  sealed: boolean;
  /** The mode's name, for messages. */
  mode: string;
  /** Directories readable when sealed (resolved to their real paths here). */
  readRoots: readonly string[];
  /** Directories writable when sealed. */
  writeRoots: readonly string[];
  /** Protected files (absolute). */
  protectedFiles: readonly string[];
}

/**
 * Builds rules: resolves the roots and protected files to their real paths and identities.
 *
 * @param input roots, protected files and whether the call is sealed
 * @returns the rules
 */
export function buildAccessRules(input: AccessRulesInput): Promise<AccessRules> {
  const roots = (paths: readonly string[]) => {
    // Both the root as written and its real path: a root reached through a symlink
    // (e.g. /tmp on macOS) is still the root.
    const reals = paths.map(realPathOfMaybeMissing);
    return [...new Set([...paths.map((path) => resolve(path)), ...reals])];
  };
  const protectedFiles = input.protectedFiles.map((path) => {
    const real = realPathOfMaybeMissing(path);
    const info = statOrNull(real);
    return { path, real, id: info === null ? null : identityOf(info) };
  });
  return Promise.resolve({
    sealed: input.sealed,
    mode: input.mode,
    readRoots: roots(input.readRoots),
    writeRoots: roots(input.writeRoots),
    protectedFiles,
  });
}

/**
 * The rules of a tool call: sealed to the workspace in `read_only` and `workspace_write`
 * (reads also in the thread's artifacts folder), protected files refused in every mode.
 *
 * @param context the tool context
 * @returns the rules
 */
export function accessRulesOf(context: ToolContext): Promise<AccessRules> {
  // The Run's mode, roots and protected files are frozen: resolved once per Run. A failed
  // resolution is not kept (the next call tries again).
  if (context.runMemo) {
    const kept = context.runMemo.memo("files.accessRules", () => ({
      rules: undefined as Promise<AccessRules> | undefined,
    }));
    const rules = kept.rules ??= accessRulesNow(context);
    rules.catch(() => {
      if (kept.rules === rules) kept.rules = undefined;
    });
    return rules;
  }
  return accessRulesNow(context);
}

function accessRulesNow(context: ToolContext): Promise<AccessRules> {
  const threadArtifacts = join(context.artifactsRoot, context.threadId);
  return buildAccessRules({
    sealed: isSealedPolicy(context.executionPolicy),
    mode: context.executionPolicy,
    readRoots: [context.workspaceRoot, threadArtifacts],
    writeRoots: context.executionPolicy === "workspace_write" ? [context.workspaceRoot] : [],
    protectedFiles: context.protectedFiles,
  });
}

/**
 * Refuses a path the rules do not allow (checked on the path as given and on its real path).
 *
 * @param path an absolute path (real, or as written before resolving)
 * @param rules the call's rules
 * @param access read or write
 * @param shown the path as the model wrote it (named in the message)
 * @throws {ToolError} `permission_denied`
 */
export function assertAllowed(
  path: string,
  rules: AccessRules,
  access: "read" | "write",
  shown: string,
): void {
  if (!isAbsolute(path)) throw denied(shown, "is not an absolute path");
  if (rules.protectedFiles.some((file) => file.real === path || file.path === path)) {
    throw deniedProtected(shown);
  }
  if (!rules.sealed) return;
  const roots = access === "read" ? rules.readRoots : rules.writeRoots;
  if (!roots.some((root) => isWithin(root, path))) {
    throw denied(
      shown,
      access === "write" && rules.mode === "read_only"
        ? "cannot be written: this run is read_only"
        : `is outside the workspace, and this run is ${rules.mode}`,
    );
  }
}

/**
 * Refuses an opened file that is one of the protected files (however it was reached).
 *
 * @param info the opened handle's stat
 * @param rules the call's rules
 * @param shown the path as the model wrote it
 * @throws {ToolError} `permission_denied`
 */
export function assertNotProtected(info: Deno.FileInfo, rules: AccessRules, shown: string): void {
  const id = identityOf(info);
  if (id === null) return;
  if (rules.protectedFiles.some((file) => file.id?.dev === id.dev && file.id?.ino === id.ino)) {
    throw deniedProtected(shown);
  }
}

/** An opened, verified file. */
export interface CheckedFile extends Disposable {
  /** The handle (read-only). */
  readonly file: Deno.FsFile;
  /** The handle's stat. */
  readonly info: Deno.FileInfo;
  /** The real path that was opened. */
  readonly realPath: string;
}

/**
 * Opens a file for reading under the rules and verifies that the handle is the file that
 * was checked (see the module notes for the sequence and why).
 *
 * @param path an absolute path (symlinks allowed; they are resolved and checked)
 * @param rules the call's rules
 * @param shown the path as the model wrote it
 * @returns the open handle; dispose it
 * @throws {ToolError} `permission_denied`, `file_not_found`, `not_a_file`…
 */
export async function openChecked(
  path: string,
  rules: AccessRules,
  shown: string,
): Promise<CheckedFile> {
  if (rules.sealed) assertAllowed(resolve(path), rules, "read", shown); // before touching it
  const realPath = realPathOrThrow(path, shown);
  assertAllowed(realPath, rules, "read", shown);
  let file: Deno.FsFile;
  try {
    // A FIFO or device would block the open: only regular files are opened at all (the
    // handle is checked again below, so a file swapped in after this stat changes nothing).
    // The open alone stays asynchronous: a FIFO swapped in after the stat then blocks a
    // pool thread, not the runtime.
    assertRegularFile(Deno.statSync(realPath), shown);
    file = await Deno.open(realPath, { read: true });
  } catch (error) {
    throw fileSystemError(error, shown);
  }
  try {
    const info = file.statSync();
    assertNotProtected(info, rules, shown);
    assertStillAt(realPath, info, rules, "read", shown);
    assertRegularFile(info, shown);
    return { file, info, realPath, [Symbol.dispose]: () => file.close() };
  } catch (error) {
    file.close();
    throw fileSystemError(error, shown);
  }
}

/**
 * Checks, after opening, that `realPath` still names the opened inode without a symlink
 * anywhere: `lstat` does not follow the last component, and a second `realPath` catches a
 * directory that became a link.
 *
 * @param realPath the real path that was opened
 * @param opened the handle's stat
 * @param rules the call's rules
 * @param access read or write
 * @param shown the path as the model wrote it
 * @throws {ToolError} `permission_denied` when the path changed under the call
 */
export function assertStillAt(
  realPath: string,
  opened: Deno.FileInfo,
  rules: AccessRules,
  access: "read" | "write",
  shown: string,
): void {
  // Each round: the last component is the opened inode (lstat follows no link there), then
  // no component is a link (realPath). A folder higher up swapped for a link and back must
  // line up with every one of these checks to pass unseen; see the module notes.
  for (let round = 0; round < OPEN_VERIFY_ROUNDS; round++) {
    const link = lstatOrNull(realPath);
    const again = realPathOrNull(realPath);
    if (
      link === null || link.isSymlink || again !== realPath || !sameFile(link, opened)
    ) {
      throw denied(shown, "changed while it was being opened (a symlink was swapped in)");
    }
  }
  assertAllowed(realPath, rules, access, shown);
}

/**
 * The real path of a file or directory the rules allow, for listing or walking.
 *
 * @param path an absolute path
 * @param rules the call's rules
 * @param shown the path as the model wrote it
 * @returns its real path
 * @throws {ToolError} `permission_denied`, `file_not_found`
 */
export function checkedRealPath(
  path: string,
  rules: AccessRules,
  shown: string,
): string {
  if (rules.sealed) assertAllowed(resolve(path), rules, "read", shown);
  const realPath = realPathOrThrow(path, shown);
  assertAllowed(realPath, rules, "read", shown);
  return realPath;
}

/**
 * Whether a real path may be read under the rules (no throw), for walks and listings.
 *
 * @param realPath a real path
 * @param rules the call's rules
 * @returns true when allowed
 */
export function mayRead(realPath: string, rules: AccessRules): boolean {
  try {
    assertAllowed(realPath, rules, "read", realPath);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a whole checked file through its handle, up to `maxBytes`.
 *
 * @param checked the opened file
 * @param maxBytes the most bytes read
 * @returns the bytes, or null when the file is larger
 */
export async function readChecked(
  checked: CheckedFile,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (checked.info.size > maxBytes) return null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const chunk = new Uint8Array(64 * 1024);
  await checked.file.seek(0, Deno.SeekMode.Start);
  for (
    let read = await checked.file.read(chunk);
    read !== null;
    read = await checked.file.read(chunk)
  ) {
    total += read;
    if (total > maxBytes) return null;
    chunks.push(chunk.slice(0, read));
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const piece of chunks) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

function assertRegularFile(info: Deno.FileInfo, shown: string): void {
  if (info.isFile) return;
  throw new ToolError(
    "not_a_file",
    info.isDirectory ? `${shown} is a directory, not a file` : `${shown} is not a regular file`,
  );
}

/**
 * Whether two stats are the same file: dev and ino; where the platform gives no inode
 * number, dev, size and modification and birth times as the best available stand-in.
 *
 * @param a one stat
 * @param b the other
 * @returns true when they describe the same file
 */
export function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  const x = identityOf(a);
  const y = identityOf(b);
  if (x !== null && y !== null) return x.dev === y.dev && x.ino === y.ino;
  if (x !== null || y !== null) return false;
  return a.dev === b.dev && a.size === b.size &&
    a.mtime?.getTime() === b.mtime?.getTime() && a.birthtime?.getTime() === b.birthtime?.getTime();
}

function identityOf(info: Deno.FileInfo): FileId | null {
  return info.ino === null ? null : { dev: info.dev, ino: info.ino };
}

/**
 * A path's real path; for one that does not exist yet (a protected file not written yet),
 * its folder's real path and its name, so that the folder's other names still reach it.
 */
function realPathOfMaybeMissing(path: string): string {
  const real = realPathOrNull(path);
  if (real !== null) return real;
  const folder = realPathOrNull(dirname(path));
  return folder === null ? resolve(path) : join(folder, basename(path));
}

function realPathOrThrow(path: string, shown: string): string {
  try {
    return Deno.realPathSync(path);
  } catch (error) {
    throw fileSystemError(error, shown);
  }
}

/** A refused path (`permission_denied`); `protectedFile` when it is one of the home's secrets. */
export class AccessDenied extends ToolError {
  /** Whether the path is a protected runtime file (else: outside what the call may touch). */
  readonly protectedFile: boolean;

  /**
   * Makes the refusal.
   *
   * @param message what the model reads (names the path)
   * @param protectedFile whether a protected file was refused
   */
  constructor(message: string, protectedFile = false) {
    super("permission_denied", message);
    this.name = "AccessDenied";
    this.protectedFile = protectedFile;
  }
}

/**
 * A `permission_denied` tool error naming the path.
 *
 * @param shown the path as the model wrote it
 * @param why the rest of the sentence
 * @returns the error
 */
export function denied(shown: string, why: string): AccessDenied {
  return new AccessDenied(`permission_denied: ${shown} ${why}`);
}

function deniedProtected(shown: string): AccessDenied {
  return new AccessDenied(
    `permission_denied: ${shown} is one of the runtime's protected files (config.yaml, ` +
      "auth.json, sessions.json); no tool may read or write it",
    true,
  );
}
