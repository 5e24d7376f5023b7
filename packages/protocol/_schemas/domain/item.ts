/**
 * Items, Runs and Turns: the conversation as the wire shows it.
 *
 * @module
 */
import { RunBudget } from "./budget.ts";
import { z } from "zod";
import { docs } from "../docs.ts";
import { BranchId, Identifier, ItemId, RunId, ThreadId, Timestamp, TurnId } from "../ids.ts";
import {
  ExecutionPolicy,
  ItemKind,
  ItemRole,
  ItemStatus,
  RunStatus,
  TurnStatus,
} from "../enums.ts";
import { RunFailureClass, RunReasonCode } from "../reason_codes.ts";
import { ModelRef } from "./provider.ts";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_MAX_COUNT,
  PATH_MAX_CHARS,
  RUN_ERROR_MESSAGE_MAX_CHARS,
  UPLOAD_NAME_MAX_CHARS,
} from "../../limits.ts";

export const AttachmentInput = z.strictObject({
  kind: z.enum(["image", "text"]),
  /** Absolute path on the runtime's machine. */
  path: z.string().min(1).max(PATH_MAX_CHARS),
  mimeType: z.string().min(1).max(200),
}).register(docs, {
  description: "An attachment as a client offers it on `turn.start` or `run.steer`.",
});

export const AttachmentInputs = z.array(AttachmentInput).max(ATTACHMENTS_MAX_COUNT).register(docs, {
  description: "Attachments of one message: at most 8.",
});

export const Attachment = z.looseObject({
  kind: z.enum(["image", "text"]),
  path: z.string(),
  mimeType: z.string(),
  size: z.int().min(0).max(ATTACHMENT_MAX_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
}).register(docs, {
  description: "An attachment as recorded on the user Item (`data.attachments`).",
});

export const UploadedAttachment = Attachment.extend({
  /** The file name the client sent, for display only; never part of `path`. */
  name: z.string().max(UPLOAD_NAME_MAX_CHARS),
}).register(docs, {
  description: "The answer of `POST /upload`: the stored file as an Attachment (pass kind, " +
    "path and mimeType on `turn.start` or `run.steer`) plus the name it was uploaded under.",
});

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
}).register(docs, {
  description: "One Item: a message, a tool call or a tool result. `data` carries what varies " +
    "by kind (attachments, tool id and arguments, tool result details, steer marker).",
});

/** A failed Run's error message. */
export const RunErrorMessage = z.string().max(RUN_ERROR_MESSAGE_MAX_CHARS);

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
  /** `runFailureClass(reasonCode)`, derived when read: what the failure asks of the user. */
  failureClass: RunFailureClass.nullable(),
  /**
   * What went wrong, in the provider's words when it said (redacted), on a failed Run;
   * absent or null otherwise (and on Runs recorded before it existed).
   */
  errorMessage: RunErrorMessage.nullable().optional(),
  /**
   * The fallback model the Run continued on after its own model (`providerId`/`modelId`)
   * failed (`run.model_fallback`); absent or null while it stayed on its own model.
   */
  fallbackModel: ModelRef.nullable().optional(),
  /** The Run's budget as frozen at submission; absent when it has none. */
  budget: RunBudget.optional(),
  /** Model calls made so far. */
  modelCalls: z.int().min(0),
  /** Context compactions so far. */
  compactions: z.int().min(0),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  settledAt: Timestamp.nullable(),
}).register(docs, {
  description: "A Run without its items, as the catalog and events describe it.",
});

const tokens = z.int().min(0);

export const RunUsageTotals = z.looseObject({
  /** Input tokens of the model calls that reported usage. */
  inputTokens: tokens,
  /** Of those, read from the provider's cache; null when no call said. */
  cachedInputTokens: tokens.nullable(),
  /** Output tokens of those calls. */
  outputTokens: tokens,
  /** Of those, spent on reasoning; null when no call said. */
  reasoningOutputTokens: tokens.nullable(),
  /** Model calls that reported usage. */
  reportedCalls: z.int().min(1),
  /** The input of the Run's last step: how much of the window it used; null when unknown. */
  lastStepInputTokens: tokens.nullable(),
  /** The model's context window the Run was sized for, in tokens. */
  contextWindow: z.int().min(1).nullable(),
}).register(docs, {
  description: "A Run's token use: its model calls' reported tokens and its last step's " +
    "share of the context window.",
});

export const RunWithItems = RunSummary.extend({
  items: z.array(Item),
  /** Absent while no model call of the Run reported usage. */
  usage: RunUsageTotals.optional(),
}).register(docs, {
  description: "A Run with all of its Items (and its token use), as `turn.list` returns it.",
});

export const TurnSiblings = z.looseObject({
  /** This turn's place among them, 0-based. */
  index: z.int().min(0),
  count: z.int().min(1),
  turnIds: z.array(TurnId),
  /** The branch of each turn in `turnIds`, in the same order. */
  branchIds: z.array(BranchId),
}).register(docs, {
  description: "A turn's siblings: the turns of its thread that follow the same previous turn.",
});

export const Turn = z.looseObject({
  id: TurnId,
  threadId: ThreadId,
  branchId: BranchId,
  ordinal: z.int().min(1),
  status: TurnStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  runs: z.array(RunWithItems),
  /** The previous turn of its branch's history; null for a first turn. */
  parentTurnId: TurnId.nullable().optional(),
  /**
   * The turns that follow the same previous turn (this one included), oldest first, each
   * with the branch it lives on: what a branch switcher (‹ 2/3 ›) moves between.
   */
  siblings: TurnSiblings.optional(),
}).register(docs, { description: "A Turn with all of its Runs and their Items." });
