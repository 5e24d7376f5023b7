/**
 * Items, Runs and Turns: the conversation as the wire shows it.
 *
 * @module
 */
import { z } from "zod";
import { BranchId, Identifier, ItemId, RunId, ThreadId, Timestamp, TurnId } from "../ids.ts";
import {
  ExecutionPolicy,
  ItemKind,
  ItemRole,
  ItemStatus,
  RunStatus,
  TurnStatus,
} from "../enums.ts";
import { RunReasonCode } from "../reason_codes.ts";
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX_COUNT, PATH_MAX_CHARS } from "../limits.ts";

/** An attachment as a client offers it on `turn.start` or `run.steer`. */
export const AttachmentInput = z.strictObject({
  kind: z.enum(["image", "text"]),
  /** Absolute path on the runtime's machine. */
  path: z.string().min(1).max(PATH_MAX_CHARS),
  mimeType: z.string().min(1).max(200),
});
/** An attachment as offered. */
export type AttachmentInput = z.infer<typeof AttachmentInput>;

/** Attachments of one message: at most 8. */
export const AttachmentInputs = z.array(AttachmentInput).max(ATTACHMENTS_MAX_COUNT);

/** An attachment as recorded on the user Item (`data.attachments`). */
export const Attachment = z.looseObject({
  kind: z.enum(["image", "text"]),
  path: z.string(),
  mimeType: z.string(),
  size: z.int().min(0).max(ATTACHMENT_MAX_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
/** A recorded attachment. */
export type Attachment = z.infer<typeof Attachment>;

/**
 * One Item: a message, a tool call or a tool result. `data` carries what varies by
 * kind (attachments, tool id and arguments, tool result details, steer marker).
 */
export const Item = z.looseObject({
  id: ItemId,
  turnId: TurnId,
  runId: RunId,
  ordinal: z.int().min(1),
  kind: ItemKind,
  role: ItemRole.nullable(),
  status: ItemStatus,
  content: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** One Item. */
export type Item = z.infer<typeof Item>;

/** A Run without its items, as the catalog and events describe it. */
export const RunSummary = z.looseObject({
  id: RunId,
  turnId: TurnId,
  threadId: ThreadId,
  branchId: BranchId,
  providerId: Identifier,
  modelId: Identifier,
  executionPolicy: ExecutionPolicy,
  status: RunStatus,
  reasonCode: RunReasonCode.nullable(),
  /** Model calls made so far. */
  modelCalls: z.int().min(0),
  /** Context compactions so far. */
  compactions: z.int().min(0),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  settledAt: Timestamp.nullable(),
});
/** A Run without items. */
export type RunSummary = z.infer<typeof RunSummary>;

/** A Run with all of its Items, as `turn.list` returns it. */
export const RunWithItems = RunSummary.extend({ items: z.array(Item) });
/** A Run with items. */
export type RunWithItems = z.infer<typeof RunWithItems>;

/** A Turn with all of its Runs and their Items. */
export const Turn = z.looseObject({
  id: TurnId,
  threadId: ThreadId,
  branchId: BranchId,
  ordinal: z.int().min(1),
  status: TurnStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  runs: z.array(RunWithItems),
});
/** A Turn with runs. */
export type Turn = z.infer<typeof Turn>;
