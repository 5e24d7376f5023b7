/**
 * `file.preview`: a read-only, revision-bound page of a text file in a thread's
 * workspace (≤ 50 KiB / 2,000 lines a page, scanning at most 8 MiB). Later pages
 * must name the revision of the first; a file that changed answers
 * `revision_changed`. Preview text never becomes model input.
 *
 * The file is opened under the same sealed access rules as the file tools (real path inside
 * the allowed roots, the handle verified against the path, protected home files refused), so
 * a symlink in the workspace cannot lead the preview outside it.
 *
 * @module
 */
import type { FilePreview } from "@daedalus/protocol";
import {
  AccessDenied,
  type AccessRules,
  openChecked,
  readChecked,
  ToolError,
} from "@daedalus/tools";
import { hex } from "../attachments/inspect.ts";

/** Largest page, in bytes. */
export const PREVIEW_PAGE_MAX_BYTES = 50 * 1024;
/** Most lines a page. */
export const PREVIEW_PAGE_MAX_LINES = 2_000;
/** Largest file scanned, in bytes. */
export const PREVIEW_SCAN_MAX_BYTES = 8 * 1024 * 1024;

/** What a preview request resolved to. */
export interface PreviewRequest {
  /** The thread. */
  threadId: string;
  /** The path as the client gave it. */
  path: string;
  /** The absolute path. */
  absolutePath: string;
  /** What may be opened (sealed to the workspace, protected files refused). */
  rules: AccessRules;
  /** 1-based first line. */
  offset: number;
  /** The revision of the first page, for later pages. */
  expectedRevision?: string;
}

/**
 * Reads one page.
 *
 * @param request the resolved request
 * @returns a text page, or an unavailable reason
 */
export async function previewFile(request: PreviewRequest): Promise<FilePreview> {
  const base = { threadId: request.threadId, path: request.path };
  const unavailable = (reason: Extract<FilePreview, { status: "unavailable" }>["reason"]) => ({
    ...base,
    status: "unavailable" as const,
    reason,
  });
  let bytes: Uint8Array | null;
  try {
    using checked = await openChecked(request.absolutePath, request.rules, request.path);
    bytes = await readChecked(checked, PREVIEW_SCAN_MAX_BYTES);
  } catch (error) {
    if (error instanceof AccessDenied) {
      return unavailable(error.protectedFile ? "protected_content" : "outside_workspace");
    }
    if (error instanceof ToolError && error.code === "not_a_file") return unavailable("not_a_file");
    return unavailable("file_not_found");
  }
  if (bytes === null) return unavailable("scan_limit");
  const revision = `sha256:${await hex(bytes)}`;
  if (request.expectedRevision && request.expectedRevision !== revision) {
    return unavailable("revision_changed");
  }
  if (bytes.subarray(0, 4096).includes(0)) return unavailable("binary_file");
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return unavailable("unsupported_encoding");
  }
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(1, request.offset);
  let bytesUsed = 0;
  let end = start - 1;
  let truncationReason: string | null = null;
  const encoder = new TextEncoder();
  for (let index = start - 1; index < lines.length; index++) {
    if (end - start + 1 >= PREVIEW_PAGE_MAX_LINES) {
      truncationReason = "line_limit";
      break;
    }
    const size = encoder.encode(lines[index]!).byteLength;
    if (bytesUsed + size > PREVIEW_PAGE_MAX_BYTES && end >= start) {
      truncationReason = "byte_limit";
      break;
    }
    bytesUsed += size;
    end = index + 1;
  }
  const content = lines.slice(start - 1, end).join("");
  const more = end < lines.length;
  return {
    ...base,
    status: "text",
    revision,
    encoding: "utf-8",
    bom,
    content,
    lineStart: start,
    lineEnd: end,
    nextOffset: more ? end + 1 : null,
    truncated: more,
    truncationReason: more ? truncationReason : null,
  };
}
