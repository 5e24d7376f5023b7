/**
 * The user's `MEMORY.md` (seed 003, issue 21): notes the user keeps for the agent, offered
 * as reference material, never as instructions. A Run whose profile enables it looks at
 * `<workspace>/MEMORY.md`, then `<home>/MEMORY.md`; the first one that exists and has
 * content is the Run's memory file. Both the runtime (the reference block of the system
 * prompt) and the `memory` tool (`file_read`, `file_append`) find it here, so the model
 * reads and appends to the file it was shown.
 *
 * Reading never throws for the file's sake: a file that is not a regular file, cannot be
 * read, is not UTF-8 text, or resolves (through a symlink) out of the folder it belongs
 * to or onto a protected runtime file is skipped with its reason, and the next place is
 * tried. It is opened through the file tools' checked open (`files/access.ts`), so what is
 * read is what was checked.
 *
 * @example
 * ```ts
 * const access = memoryFileAccess({ home: "/home/me/.daedalus", workspace: "/src/app" });
 * const found = await findMemoryFile(access, { maxBytes: 64 * 1024, protectedFiles: [] });
 * if (found.file) console.log(found.file.path, found.file.text);
 * ```
 *
 * @module
 */
import { join, resolve } from "node:path";
import { ToolError } from "../tool.ts";
import { buildAccessRules, type CheckedFile, openChecked } from "../files/access.ts";
import { decodeText } from "../files/capture.ts";
import { utf8CutPoint } from "../files/utf8_cut.ts";

/** The memory file's name, in a workspace and in the runtime home. */
export const MEMORY_FILE_NAME = "MEMORY.md";

/** One place a Run's MEMORY.md may be. */
export interface MemoryFilePlace {
  /** The file (absolute). */
  readonly path: string;
  /** The folder it must really lie in (a symlink out of it is skipped). */
  readonly root: string;
}

/**
 * Where a Run's MEMORY.md may be, in the order they are tried: the ToolContext capability
 * of a Run whose profile enables `memory.memoryFile` (absent otherwise).
 */
export interface MemoryFileAccess {
  /** The places, the workspace's first. */
  readonly places: readonly MemoryFilePlace[];
}

/**
 * The places of a Run: the workspace's MEMORY.md (when the thread has a workspace), then
 * the home's (once, when the workspace is the home).
 *
 * @param where the runtime home and the thread's workspace (null: none)
 * @returns the access
 */
export function memoryFileAccess(
  where: { home: string; workspace: string | null },
): MemoryFileAccess {
  const home = resolve(where.home);
  const places: MemoryFilePlace[] = [];
  if (where.workspace !== null) {
    const workspace = resolve(where.workspace);
    places.push({ path: join(workspace, MEMORY_FILE_NAME), root: workspace });
  }
  if (places[0]?.root !== home) places.push({ path: join(home, MEMORY_FILE_NAME), root: home });
  return { places };
}

/** Why a MEMORY.md that exists was not used. */
export type MemoryFileSkipReason =
  | "not_a_file"
  | "unreadable"
  | "permission_denied"
  | "invalid_utf8";

/** A MEMORY.md that exists but was skipped. */
export interface SkippedMemoryFile {
  /** The file. */
  readonly path: string;
  /** Why: a folder or device, an I/O or permission error, out of its folder or protected, not text. */
  readonly reason: MemoryFileSkipReason;
}

/** The memory file's text as read. */
export interface MemoryFileText extends MemoryFilePlace {
  /** The text (at most `maxBytes` of it, cut on a character boundary). */
  readonly text: string;
  /** Bytes of the file in `text`. */
  readonly bytes: number;
  /** The file's whole size in bytes. */
  readonly fileBytes: number;
  /** Whether the file is longer than `text`. */
  readonly truncated: boolean;
}

/** What {@linkcode findMemoryFile} found. */
export interface FoundMemoryFile {
  /** The first place with content, or null when none has any. */
  readonly file: MemoryFileText | null;
  /**
   * Where an append goes: the file with content; else the first place that is missing or
   * empty (it is created or filled there); null when every place was skipped.
   */
  readonly appendTo: MemoryFilePlace | null;
  /** Files that exist but were skipped, in the order tried. */
  readonly skipped: readonly SkippedMemoryFile[];
}

/** Options of {@linkcode findMemoryFile}. */
export interface FindMemoryFileOptions {
  /** Most bytes of the text returned (more is cut, and `truncated` says so). */
  readonly maxBytes: number;
  /** The runtime's protected files: a MEMORY.md that resolves to one is skipped. */
  readonly protectedFiles: readonly string[];
  /** Stops between places. */
  readonly signal?: AbortSignal;
}

/**
 * Finds the Run's memory file and reads its text.
 *
 * @param access the Run's places
 * @param options the byte limit, the protected files, a signal
 * @returns the file (or null), where an append goes, what was skipped
 * @throws the signal's reason when aborted; file problems never throw
 */
export async function findMemoryFile(
  access: MemoryFileAccess,
  options: FindMemoryFileOptions,
): Promise<FoundMemoryFile> {
  const skipped: SkippedMemoryFile[] = [];
  let appendTo: MemoryFilePlace | null = null;
  for (const place of access.places) {
    options.signal?.throwIfAborted();
    const read = await readPlace(place, options);
    if (read.kind === "skipped") {
      skipped.push({ path: place.path, reason: read.reason });
      continue;
    }
    if (read.kind === "read" && read.file.text.trim() !== "") {
      return { file: read.file, appendTo: place, skipped };
    }
    appendTo ??= place;
  }
  return { file: null, appendTo, skipped };
}

type PlaceRead =
  | { kind: "missing" }
  | { kind: "skipped"; reason: MemoryFileSkipReason }
  | { kind: "read"; file: MemoryFileText };

async function readPlace(
  place: MemoryFilePlace,
  options: FindMemoryFileOptions,
): Promise<PlaceRead> {
  try {
    Deno.lstatSync(place.path); // synchronous: metadata only, at every Run's start
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return { kind: "skipped", reason: "unreadable" };
  }
  let checked: CheckedFile;
  try {
    // Sealed to the place's own folder: a link out of it, or onto config.yaml, is refused.
    const rules = await buildAccessRules({
      sealed: true,
      mode: "memory_file",
      readRoots: [place.root],
      writeRoots: [],
      protectedFiles: options.protectedFiles,
    });
    checked = await openChecked(place.path, rules, place.path);
  } catch (error) {
    // A dangling link is as good as no file; anything else is kept as the reason.
    if (error instanceof ToolError && error.code === "file_not_found") return { kind: "missing" };
    return { kind: "skipped", reason: skipReason(error) };
  }
  using file = checked;
  let bytes: Uint8Array;
  try {
    bytes = await readPrefix(file.file, options.maxBytes + 1);
  } catch {
    // Deliberately not rethrown: a file that cannot be read must not fail the Run.
    return { kind: "skipped", reason: "unreadable" };
  }
  const truncated = bytes.byteLength > options.maxBytes;
  const end = truncated ? utf8CutPoint(bytes, options.maxBytes) : bytes.byteLength;
  const text = decodeText(bytes.subarray(0, end));
  if (text === null) return { kind: "skipped", reason: "invalid_utf8" };
  return {
    kind: "read",
    file: {
      ...place,
      text,
      bytes: end,
      fileBytes: Math.max(file.info.size, bytes.byteLength),
      truncated,
    },
  };
}

function skipReason(error: unknown): MemoryFileSkipReason {
  if (!(error instanceof ToolError)) return "unreadable";
  if (error.code === "not_a_file") return "not_a_file";
  // The checked open says permission_denied for a link out of the folder or a protected
  // file, and for a file the OS will not open: either way the runtime may not use it.
  if (error.code === "permission_denied") return "permission_denied";
  return "unreadable";
}

/** The first `limit` bytes of an open file (fewer when it is shorter). */
async function readPrefix(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const out = new Uint8Array(limit);
  let filled = 0;
  while (filled < limit) {
    const read = await file.read(out.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return out.subarray(0, filled);
}
