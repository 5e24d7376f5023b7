/**
 * Instruction files: the user's `<home>/AGENTS.md` and `<home>/USER.md`, then the
 * workspace's `AGENTS.md`, appended to the system prompt in that order under their own
 * headings. Each file contributes at most {@linkcode INSTRUCTION_FILE_MAX_BYTES} (a longer
 * one is cut, with a note saying so); empty files add nothing; a missing or unreadable file
 * is skipped and never blocks a Run. The sources (path, bytes, cut, hash) go into the
 * StepInput audit so a Run records exactly what it was told.
 *
 * @example
 * ```ts
 * const instructions = await loadInstructionFiles({ home: paths.home, workspace });
 * const systemText = [identity.text, instructions.text].filter(Boolean).join("\n\n");
 * ```
 *
 * @module
 */
import { join, resolve } from "node:path";
import { sha256 } from "./identity.ts";
import { readAtMost } from "../files/read_at_most.ts";
import { utf8CutPoint } from "@daedalus/tools";

/**
 * Most bytes one instruction file contributes (seed: "每个文件最多读取 64 KiB"). Belongs in
 * `context/limits.ts` once that file is open to edits.
 */
export const INSTRUCTION_FILE_MAX_BYTES = 64 * 1024;

/** The name of an instructions file, in the home and in a workspace. */
export const AGENTS_FILE_NAME = "AGENTS.md";

/** The name of the file about the user, in the home. */
export const USER_FILE_NAME = "USER.md";

/** One instruction file that went into the system prompt. */
export interface InstructionSource {
  /** Absolute path of the file. */
  path: string;
  /** Bytes of the file included (at most {@linkcode INSTRUCTION_FILE_MAX_BYTES}). */
  bytes: number;
  /** Whether the file was longer and was cut. */
  truncated: boolean;
  /** `sha256:<hex>` of the included text. */
  sha256: string;
}

/** An instruction file that exists but was left out, and why. */
export interface SkippedInstructionFile {
  /** Absolute path of the file. */
  path: string;
  /** `not_a_file` (a folder, a device) or `unreadable` (permissions, I/O). */
  reason: "not_a_file" | "unreadable";
}

/** The instruction text for the system prompt and what it was made of. */
export interface InstructionFiles {
  /** The section to append to the system prompt; `""` when no file has content. */
  text: string;
  /** The files included, in prompt order. */
  sources: InstructionSource[];
  /** Files that exist but could not be used (for logs; the Run goes on without them). */
  skipped: SkippedInstructionFile[];
}

/** Where {@linkcode loadInstructionFiles} looks. */
export interface InstructionFileOptions {
  /** The runtime home, holding the user's AGENTS.md and USER.md. */
  home: string;
  /** The Run's workspace, holding the project's AGENTS.md; none for a workspace-less Run. */
  workspace?: string | null;
  /** Stops reading between files. */
  signal?: AbortSignal;
}

const PREAMBLE = `# Instruction files

The user wrote the files below for you. Follow them as the user's standing instructions,
within the rules above; when they disagree, the more specific file (the workspace's) wins.`;

/**
 * Reads the instruction files and builds their system-prompt section.
 *
 * @param options the home, the workspace and a cancellation signal
 * @returns the section text, the included sources and the skipped files
 * @throws the signal's reason when aborted; file problems never throw
 */
export async function loadInstructionFiles(
  options: InstructionFileOptions,
): Promise<InstructionFiles> {
  const home = resolve(options.home);
  const candidates = [
    { path: join(home, AGENTS_FILE_NAME), heading: "User instructions" },
    { path: join(home, USER_FILE_NAME), heading: "About the user" },
  ];
  if (options.workspace) {
    const path = join(resolve(options.workspace), AGENTS_FILE_NAME);
    // A Run whose workspace is the home itself must not read the same file twice.
    if (path !== candidates[0].path) candidates.push({ path, heading: "Workspace instructions" });
  }
  const sections: string[] = [];
  const sources: InstructionSource[] = [];
  const skipped: SkippedInstructionFile[] = [];
  options.signal?.throwIfAborted();
  // Read side by side (each is a stat and maybe a read), used in prompt order.
  const reads = await Promise.all(candidates.map(({ path }) => readInstructionFile(path)));
  options.signal?.throwIfAborted();
  for (const [index, { path, heading }] of candidates.entries()) {
    const read = reads[index]!;
    if (read.kind === "missing") continue;
    if (read.kind === "skipped") {
      skipped.push({ path, reason: read.reason });
      continue;
    }
    if (read.text.trim() === "") continue;
    const note = read.truncated ? `\n\n${cutNote(read.fileBytes)}` : "";
    sections.push(`## ${heading} (${path})\n\n${read.text.trimEnd()}${note}`);
    sources.push({
      path,
      bytes: read.bytes,
      truncated: read.truncated,
      sha256: await sha256(read.text),
    });
  }
  const text = sections.length === 0 ? "" : [PREAMBLE, ...sections].join("\n\n");
  return { text, sources, skipped };
}

type ReadResult =
  | { kind: "missing" }
  | { kind: "skipped"; reason: SkippedInstructionFile["reason"] }
  | { kind: "read"; text: string; bytes: number; fileBytes: number; truncated: boolean };

async function readInstructionFile(path: string): Promise<ReadResult> {
  let info: Deno.FileInfo;
  try {
    // Synchronous: most candidates do not exist, and a stat is a few microseconds here.
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return { kind: "skipped", reason: "unreadable" };
  }
  // Checked before opening: opening a FIFO for reading would wait for a writer forever.
  if (!info.isFile) return { kind: "skipped", reason: "not_a_file" };
  let bytes: Uint8Array;
  try {
    bytes = await readAtMost(path, INSTRUCTION_FILE_MAX_BYTES + 1);
  } catch {
    // Deliberately not rethrown: a file the runtime cannot read must not fail the Run.
    return { kind: "skipped", reason: "unreadable" };
  }
  const truncated = bytes.byteLength > INSTRUCTION_FILE_MAX_BYTES;
  const end = truncated ? utf8CutPoint(bytes, INSTRUCTION_FILE_MAX_BYTES) : bytes.byteLength;
  // Not fatal: a stray invalid byte becomes U+FFFD rather than losing the whole file.
  const text = new TextDecoder("utf-8").decode(bytes.subarray(0, end));
  return {
    kind: "read",
    text,
    bytes: end,
    fileBytes: Math.max(info.size, bytes.byteLength),
    truncated,
  };
}

function cutNote(fileBytes: number): string {
  const limit = INSTRUCTION_FILE_MAX_BYTES.toLocaleString("en-US");
  return `[This file is ${fileBytes.toLocaleString("en-US")} bytes; it was cut after the ` +
    `first ${limit} bytes. Read the file for the rest.]`;
}
