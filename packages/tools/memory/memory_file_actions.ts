/**
 * The `memory` tool's `file_read` and `file_append`: the user's MEMORY.md (see
 * `memory_file.ts`), only for a Run whose profile enables it (the context's `memoryFile`).
 * An append is a file change like `write`'s: the gate judges it as a write of that file
 * (`gate.ts`), and it goes through the write path (`files/apply_change.ts`: checked
 * destination, atomic replace, before/after captures), so it shows in the turn's diff and
 * `turn.revert` undoes it.
 *
 * @module
 */
import { type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { MEMORY_FILE_MAX_BYTES, MEMORY_FILE_READ_MAX_BYTES } from "../limits.ts";
import { applyFileChange } from "../files/apply_change.ts";
import { decodeText } from "../files/capture.ts";
import { resolveToolPath } from "../files/paths.ts";
import { findMemoryFile, type FoundMemoryFile, MEMORY_FILE_NAME } from "./memory_file.ts";

/** The error code of a `file_*` action in a Run whose profile does not use MEMORY.md. */
export const MEMORY_FILE_DISABLED = "memory_file_disabled";

/** The error code of an append when every place of MEMORY.md had to be skipped. */
export const MEMORY_FILE_UNAVAILABLE = "memory_file_unavailable";

/**
 * Finds the Run's memory file as the tool and the gate see it.
 *
 * @param context the call's memory file places, protected files and signal
 * @returns what was found, or null when the profile does not use MEMORY.md
 */
export function findRunMemoryFile(
  context: Pick<ToolContext, "memoryFile" | "protectedFiles"> & { signal?: AbortSignal },
): Promise<FoundMemoryFile> | null {
  if (!context.memoryFile) return null;
  return findMemoryFile(context.memoryFile, {
    maxBytes: MEMORY_FILE_READ_MAX_BYTES,
    protectedFiles: context.protectedFiles,
    signal: context.signal,
  });
}

function disabled(): never {
  throw new ToolError(
    MEMORY_FILE_DISABLED,
    `This agent's profile does not use ${MEMORY_FILE_NAME} (memory.memoryFile is off)`,
  );
}

/**
 * `file_read`: the memory file's text, at most {@linkcode MEMORY_FILE_READ_MAX_BYTES}.
 *
 * @param context the call's context
 * @returns the text, or a note that there is none
 * @throws {ToolError} `memory_file_disabled`
 */
export async function readMemoryFileAction(context: ToolContext): Promise<ToolResult> {
  const found = await findRunMemoryFile(context) ?? disabled();
  const skipped = found.skipped.map((skip) => `${skip.path} skipped: ${skip.reason}`);
  if (found.file === null) {
    const looked = (context.memoryFile?.places ?? []).map((place) => place.path).join(", ");
    return {
      content: [`No ${MEMORY_FILE_NAME} with content (looked at ${looked})`, ...skipped].join("\n"),
      details: { path: null, skipped: found.skipped },
    };
  }
  const { file } = found;
  const cut = file.truncated ? `\n[Cut after ${file.bytes} of ${file.fileBytes} bytes.]` : "";
  return {
    content: `${file.path} (${file.fileBytes} bytes):\n${file.text}${cut}`,
    details: { path: file.path, bytes: file.bytes, truncated: file.truncated },
  };
}

/**
 * `file_append`: adds `content` as a new paragraph at the end of the memory file (created
 * when no place has one), atomically, recording the change.
 *
 * @param content the text to add (validated, trimmed)
 * @param context the call's context
 * @returns what was written
 * @throws {ToolError} `memory_file_disabled`, `memory_file_unavailable`, `file_too_large`,
 *   and the write path's errors (`permission_denied`…)
 */
export async function appendMemoryFileAction(
  content: string,
  context: ToolContext,
): Promise<ToolResult> {
  const found = await findRunMemoryFile(context) ?? disabled();
  if (found.appendTo === null) {
    const why = found.skipped.map((skip) => `${skip.path}: ${skip.reason}`).join("; ");
    throw new ToolError(MEMORY_FILE_UNAVAILABLE, `${MEMORY_FILE_NAME} cannot be used (${why})`);
  }
  const target = await resolveToolPath(found.appendTo.path, context.workspaceRoot);
  const fact = await applyFileChange(context, target, "edit", (before) => {
    const text = before === null ? "" : decodeText(before);
    // Checked again under the file's lock: it may have changed since it was found.
    if (text === null) {
      throw new ToolError(MEMORY_FILE_UNAVAILABLE, `${target.displayPath} is not UTF-8 text`);
    }
    const after = new TextEncoder().encode(appended(text, content));
    if (after.byteLength > MEMORY_FILE_MAX_BYTES) {
      throw new ToolError(
        "file_too_large",
        `${target.displayPath} would be ${after.byteLength} bytes, over the ` +
          `${MEMORY_FILE_MAX_BYTES} an append may leave; ask the user to tidy it`,
      );
    }
    return after;
  });
  return {
    content: `Appended to ${target.displayPath} (+${fact.additions} lines); revision ` +
      `${fact.after.revision}`,
    details: {
      path: target.displayPath,
      created: !fact.before.exists,
      additions: fact.additions,
      deletions: fact.deletions,
      revision: fact.after.revision,
    },
  };
}

/** The file's text with `content` as its last paragraph, ending in a newline. */
function appended(text: string, content: string): string {
  if (text.trim() === "") return `${content}\n`;
  const separator = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${content}\n`;
}
