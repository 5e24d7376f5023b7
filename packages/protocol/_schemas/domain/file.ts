/**
 * File previews and recorded file changes as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { ItemId, ThreadId, Timestamp } from "../ids.ts";
import { FileUnavailableReason } from "../reason_codes.ts";

export const FileCapture = z.looseObject({
  exists: z.boolean(),
  byteCount: z.int().min(0).nullable(),
  revision: z.string().nullable(),
  encoding: z.string().nullable(),
  bom: z.boolean().nullable(),
  newline: z.enum(["lf", "crlf", "cr", "mixed", "none"]).nullable(),
  lineCount: z.int().min(0).nullable(),
}).register(docs, { description: "One side (before or after) of a recorded write or edit." });

export const FileOperation = z.enum(["write", "edit"]).register(docs, {
  description: "A write or edit.",
});

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
}).register(docs, { description: "A page of a text file (`file.preview`)." });

export const FilePreviewUnavailable = z.looseObject({
  threadId: ThreadId,
  path: z.string(),
  status: z.literal("unavailable"),
  reason: FileUnavailableReason,
}).register(docs, { description: "A file the preview cannot show, and why." });

export const FilePreview = z.discriminatedUnion("status", [
  FilePreviewText,
  FilePreviewUnavailable,
]).register(docs, { description: "The result of `file.preview`." });

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
}).register(docs, {
  description: "A recorded write or edit with its captures and diff (`file.change.get`).",
});

export const FileChangeUnavailable = z.looseObject({
  threadId: ThreadId,
  toolCallItemId: ItemId,
  status: z.literal("unavailable"),
  reason: FileUnavailableReason,
}).register(docs, {
  description: "A change that was not captured (too large, or none recorded for that item).",
});

export const FileChange = z.discriminatedUnion("status", [
  FileChangeRecorded,
  FileChangeUnavailable,
]).register(docs, { description: "The result of `file.change.get`." });
