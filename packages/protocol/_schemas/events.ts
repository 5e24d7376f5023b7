/**
 * The journal event envelope and the payload of each event type.
 *
 * @module
 */
import { z } from "zod";
import { BranchId, Identifier, ItemId, RunId, ThreadId, Timestamp, TurnId } from "./ids.ts";
import { EVENT_SCHEMA_VERSION } from "../version.ts";
import { ModelCallPurpose, RunStatus, SettledStatus } from "./enums.ts";
import { RunFailureClass, RunReasonCode } from "./reason_codes.ts";
import { Branch, Thread } from "./domain/thread.ts";
import { Item, RunErrorMessage, RunSummary } from "./domain/item.ts";
import { FileOperation } from "./domain/file.ts";
import { RevertedFile } from "./domain/revert.ts";
import { ProcessRecord } from "./domain/process.ts";
import { APPROVAL_FIELDS, checkApproval } from "./domain/approval.ts";
import { TokenUsage } from "./domain/usage.ts";
import { RunConfigPart, RunConfigRecord } from "./domain/run_config.ts";
import { ProviderId } from "./domain/provider.ts";
import { docs } from "./docs.ts";
import { ThreadCompaction, ThreadSettings } from "./domain/compaction.ts";
import { McpServerSummary } from "./domain/mcp.ts";
import { ChannelStatusSummary } from "./domain/channel.ts";

/** Scope ids a payload mirrors from its envelope (present exactly when non-null there). */
const mirrored = {
  turnId: TurnId.optional(),
  runId: RunId.optional(),
  itemId: ItemId.optional(),
};

function payload<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject({ ...shape, ...mirrored });
}

/** A Turn without its runs, carried by the first `run.state_changed` of a turn. */
const TurnHeader = z.looseObject({
  id: TurnId,
  threadId: ThreadId,
  branchId: BranchId,
  ordinal: z.int().min(1),
  createdAt: Timestamp,
  /** The previous turn of its branch's history; absent in events older than branches. */
  parentTurnId: TurnId.nullable().optional(),
});

/** An approval's fields as its events carry them: `runId` is the mirrored scope id. */
const { runId: _runId, ...APPROVAL_EVENT_FIELDS } = APPROVAL_FIELDS;

/** The payload schema of each event type. */
export const EVENT_PAYLOADS = {
  "thread.created": payload({
    thread: Thread,
    branch: Branch,
    clientRequestId: Identifier.nullable(),
  }),
  "thread.renamed": payload({ thread: Thread }),
  "thread.archived": payload({ thread: Thread }),
  "thread.unarchived": payload({ thread: Thread }),
  /**
   * `thread.delete`: the thread's projections and the payloads of its earlier events were
   * erased. Carries nothing of the thread's content; `runConfigParts` re-carries the
   * shared RunConfig parts (tool schemas, identity, skills) that only the erased events
   * carried and other threads' Runs still refer to.
   */
  "thread.deleted": payload({
    threadId: ThreadId,
    deletedAt: Timestamp,
    erasedEvents: z.int().min(0),
    clientRequestId: Identifier,
    runConfigParts: z.array(RunConfigPart).optional(),
  }),
  /** `thread.update_settings`: the thread's own settings as they are now. */
  "thread.settings_changed": payload({ settings: ThreadSettings }),
  /** `thread.compact`: a summary of the history through `throughTurnId` (the envelope's turn). */
  "thread.compacted": payload({
    ...ThreadCompaction.shape,
    clientRequestId: Identifier,
  }),
  /** `branch.create` forked the thread; the new branch is its active branch from now on. */
  "branch.created": payload({ branch: Branch, clientRequestId: Identifier }),
  /** `thread.set_active_branch`: the thread shows another branch. */
  "thread.branch_switched": payload({
    thread: Thread,
    branchId: BranchId,
    previousBranchId: BranchId,
  }),
  "run.state_changed": payload({
    status: RunStatus,
    /** Null when the Run was just created (queued). */
    previousStatus: RunStatus.nullable(),
    run: RunSummary,
    /** Present when the Run was just created, so the Turn can be shown at once. */
    turn: TurnHeader.optional(),
    clientRequestId: Identifier.nullable().optional(),
    /** Present when the Run was just created: its frozen config, parts by reference. */
    runConfig: RunConfigRecord.optional(),
    /** The content of each part `runConfig` refers to that no earlier event carried. */
    runConfigParts: z.array(RunConfigPart).max(3).optional(),
  }),
  "item.started": payload({ item: Item }),
  "item.delta": payload({
    delta: z.string().min(1),
    /** Which text the delta extends: the answer (default) or the model's reasoning. */
    field: z.enum(["content", "reasoning"]).optional(),
  }),
  "item.completed": payload({ item: Item }),
  "file.change_recorded": payload({
    toolCallItemId: ItemId,
    path: z.string(),
    operation: FileOperation,
    additions: z.int().min(0),
    deletions: z.int().min(0),
  }),
  /** A `turn.revert` wrote files: each with both sides, so the revert can be reverted. */
  "turn.reverted": payload({
    direction: z.enum(["undo", "redo"]),
    forced: z.boolean(),
    clientRequestId: Identifier,
    files: z.array(RevertedFile),
  }),
  "process.recorded": payload({ process: ProcessRecord }),
  "model.input_prepared": payload({
    callOrdinal: z.int().min(1),
    /** Null for compression and completion-check calls. */
    stepOrdinal: z.int().min(1).nullable(),
    purpose: ModelCallPurpose,
    /** The ContextRevision in full on first use, then null (referenced by `stepInput`). */
    contextRevision: z.record(z.string(), z.unknown()).nullable(),
    stepInput: z.record(z.string(), z.unknown()),
  }),
  "context.compacted": payload({ revision: z.int().min(1) }),
  "model.response_finished": payload({
    callOrdinal: z.int().min(1),
    outcome: SettledStatus.optional(),
    usage: TokenUsage.nullable(),
    responseModelId: z.string().nullable(),
    requestId: z.string().nullable(),
  }),
  "run.settled": payload({
    status: SettledStatus,
    reasonCode: RunReasonCode.nullable(),
    /** `runFailureClass(reasonCode)`: what the failure asks of the user. */
    failureClass: RunFailureClass.nullable(),
    // Optional so journals written before it existed still validate.
    errorMessage: RunErrorMessage.nullable().optional(),
  }),
  "run.steered": payload({ item: Item }),
  /**
   * The Run's model failed a step before streaming anything (a retryable reason after its
   * retries, or its provider's breaker open): the Run continues on the model's fallback
   * from the same step, for the rest of the Run.
   */
  "run.model_fallback": payload({
    fromProviderId: ProviderId,
    fromModelId: Identifier,
    toProviderId: ProviderId,
    toModelId: Identifier,
    /** Why the primary model's call failed. */
    reasonCode: RunReasonCode,
    /** The failed call's ordinal; the fallback's call takes the next one. */
    callOrdinal: z.int().min(1),
  }),
  /** A tool call waits for the user; the Run turned `waiting` in the same transaction. */
  "approval.requested": payload(APPROVAL_EVENT_FIELDS).superRefine(checkApproval),
  /** The user answered, or the Run ended first (status `cancelled`). */
  "approval.resolved": payload({
    ...APPROVAL_EVENT_FIELDS,
    clientRequestId: Identifier.optional(),
  }).superRefine(checkApproval),
  /**
   * An MCP server's status or tools changed (runtime-wide: no thread). `mcp.list` has the
   * whole picture; this says which server to look at again.
   */
  "mcp.status_changed": payload({ server: McpServerSummary }),
  /** A channel's state changed (runtime-wide: no thread); `channel.list` has the rest. */
  "channel.status_changed": payload({ channel: ChannelStatusSummary }),
  /**
   * A running tool call reported how far it got (an MCP tool's progress notifications; at
   * most a few a second are journaled). Scoped to the tool_call item; the result settles it.
   */
  "item.progress": payload({
    progress: z.number().min(0),
    total: z.number().min(0).nullable(),
    message: z.string().max(500).nullable(),
  }),
} as const;

type EventType = keyof typeof EVENT_PAYLOADS;

const envelopeShape = {
  seq: z.int().min(1),
  schemaVersion: z.literal(EVENT_SCHEMA_VERSION),
  threadId: ThreadId.nullable(),
  branchId: BranchId.nullable(),
  turnId: TurnId.nullable(),
  runId: RunId.nullable(),
  itemId: ItemId.nullable(),
  timestamp: Timestamp,
};

/** The envelope of one event type, with that type's payload. */
type EventVariant<T extends EventType> = z.ZodObject<
  typeof envelopeShape & { type: z.ZodLiteral<T>; payload: typeof EVENT_PAYLOADS[T] },
  z.core.$strict
>;
type AnyEventVariant = { [T in EventType]: EventVariant<T> }[EventType];

const variants = (Object.keys(EVENT_PAYLOADS) as EventType[]).map((type) =>
  z.strictObject({ ...envelopeShape, type: z.literal(type), payload: EVENT_PAYLOADS[type] })
) as unknown as [AnyEventVariant, ...AnyEventVariant[]];

export const EventEnvelope = z.discriminatedUnion("type", variants).superRefine((event, ctx) => {
  const body = event.payload as Record<string, unknown>;
  for (const key of ["turnId", "runId", "itemId"] as const) {
    const scoped = event[key];
    if (scoped === null && key in body) {
      ctx.addIssue({
        code: "custom",
        path: ["payload", key],
        message: `payload.${key} must be absent when the envelope's ${key} is null`,
      });
    } else if (scoped !== null && body[key] !== scoped) {
      ctx.addIssue({
        code: "custom",
        path: ["payload", key],
        message: `payload.${key} must mirror the envelope's ${key} (${scoped})`,
      });
    }
  }
}).register(docs, {
  description: "One journal event as it crosses the wire. Non-null `turnId`/`runId`/`itemId` " +
    "must be mirrored in the payload with the same value; null ones must be absent.",
});

export const EventNotification = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.literal("event"),
  params: EventEnvelope,
}).register(docs, {
  description: "The `event` notification the server pushes over WebSocket for each committed " +
    "event.",
});
