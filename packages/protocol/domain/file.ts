/**
 * File previews and recorded file changes as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { ItemId, ThreadId, Timestamp } from "../ids.ts";
import { FileUnavailableReason } from "../reason_codes.ts";

/** One side (before or after) of a recorded write or edit. */
export const FileCapture = z.looseObject({
  exists: z.boolean(),
  byteCount: z.int().min(0).nullable(),
  revision: z.string().nullable(),
  encoding: z.string().nullable(),
  bom: z.boolean().nullable(),
  newline: z.enum(["lf", "crlf", "cr", "mixed", "none"]).nullable(),
  lineCount: z.int().min(0).nullable(),
});
/** One side of a recorded file change. */
export type FileCapture = z.infer<typeof FileCapture>;

/** A write or edit. */
export const FileOperation = z.enum(["write", "edit"]);
/** A write or edit. */
export type FileOperation = z.infer<typeof FileOperation>;

/** A page of a text file (`file.preview`). */
export const FilePreviewText = z.looseObject({
  threadId: ThreadId,
  path: z.string(),
  status: z.literal("text"),
  /** Opaque fingerprint; later pages must name it as `expectedRevision`. */
  revision: z.string(),
  encoding: z.string(),
  bom: z.boolean(),
  content: z.string(),
  lineStart: z.int().min(1),
  lineEnd: z.int().min(0),
  nextOffset: z.int().min(1).nullable(),
  truncated: z.boolean(),
  truncationReason: z.string().nullable(),
});

/** A file the preview cannot show, and why. */
export const FilePreviewUnavailable = z.looseObject({
  threadId: ThreadId,
  path: z.string(),
  status: z.literal("unavailable"),
  reason: FileUnavailableReason,
});

/** The result of `file.preview`. */
export const FilePreview = z.discriminatedUnion("status", [
  FilePreviewText,
  FilePreviewUnavailable,
]);
/** The result of `file.preview`. */
export type FilePreview = z.infer<typeof FilePreview>;

/** A recorded write or edit with its captures and diff (`file.change.get`). */
export const FileChangeRecorded = z.looseObject({
  threadId: ThreadId,
  toolCallItemId: ItemId,
  path: z.string(),
  operation: FileOperation,
  recordedAt: Timestamp,
  before: FileCapture,
  after: FileCapture,
  status: z.literal("recorded"),
  diff: z.string().nullable(),
  additions: z.int().min(0),
  deletions: z.int().min(0),
});

/** A change that was not captured (too large, or none recorded for that item). */
export const FileChangeUnavailable = z.looseObject({
  threadId: ThreadId,
  toolCallItemId: ItemId,
  status: z.literal("unavailable"),
  reason: FileUnavailableReason,
});

/** The result of `file.change.get`. */
export const FileChange = z.discriminatedUnion("status", [
  FileChangeRecorded,
  FileChangeUnavailable,
]);
/** The result of `file.change.get`. */
export type FileChange = z.infer<typeof FileChange>;
