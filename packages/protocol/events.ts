/**
 * The journal event envelope and the payload of each of the 15 event types. The
 * journal is the single source of truth: every change is one of these, committed
 * before it is acknowledged or published.
 *
 * @module
 */
import { z } from "zod";
import { BranchId, Identifier, ItemId, RunId, ThreadId, Timestamp, TurnId } from "./ids.ts";
import { EVENT_SCHEMA_VERSION } from "./version.ts";
import { ModelCallPurpose, RunStatus, SettledStatus } from "./enums.ts";
import { RunReasonCode } from "./reason_codes.ts";
import { Branch, Thread } from "./domain/thread.ts";
import { Item, RunSummary } from "./domain/item.ts";
import { FileOperation } from "./domain/file.ts";
import { ProcessRecord } from "./domain/process.ts";
import { TokenUsage } from "./domain/usage.ts";

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
});

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
  "run.state_changed": payload({
    status: RunStatus,
    /** Null when the Run was just created (queued). */
    previousStatus: RunStatus.nullable(),
    run: RunSummary,
    /** Present when the Run was just created, so the Turn can be shown at once. */
    turn: TurnHeader.optional(),
    clientRequestId: Identifier.nullable().optional(),
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
  "run.settled": payload({ status: SettledStatus, reasonCode: RunReasonCode.nullable() }),
  "run.steered": payload({ item: Item }),
} as const;

/** The 15 journal event types. */
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as EventType[];
/** A journal event type. */
export type EventType = keyof typeof EVENT_PAYLOADS;
/** The payload of one event type. */
export type EventPayload<T extends EventType> = z.infer<typeof EVENT_PAYLOADS[T]>;

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

const variants = EVENT_TYPES.map((type) =>
  z.strictObject({ ...envelopeShape, type: z.literal(type), payload: EVENT_PAYLOADS[type] })
) as unknown as [EventVariant, ...EventVariant[]];
type EventVariant = z.ZodObject<
  typeof envelopeShape & { type: z.ZodLiteral<EventType>; payload: z.ZodTypeAny }
>;

/**
 * One journal event as it crosses the wire. Non-null `turnId`/`runId`/`itemId`
 * must be mirrored in the payload with the same value; null ones must be absent.
 */
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
});

/** One journal event, typed by its `type`. */
export type JournalEvent = {
  [T in EventType]: {
    seq: number;
    schemaVersion: typeof EVENT_SCHEMA_VERSION;
    type: T;
    threadId: string | null;
    branchId: string | null;
    turnId: string | null;
    runId: string | null;
    itemId: string | null;
    timestamp: string;
    payload: EventPayload<T>;
  };
}[EventType];

/** The `event` notification the server pushes over WebSocket for each committed event. */
export const EventNotification = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.literal("event"),
  params: EventEnvelope,
});
/** The `event` notification. */
export type EventNotification = z.infer<typeof EventNotification>;

/** The scope ids of an event; the payload mirror is derived from them. */
export interface EventScope {
  /** Thread the event belongs to. */
  threadId?: string | null;
  /** Branch the event belongs to. */
  branchId?: string | null;
  /** Turn the event belongs to. */
  turnId?: string | null;
  /** Run the event belongs to. */
  runId?: string | null;
  /** Item the event belongs to. */
  itemId?: string | null;
}

/**
 * Adds the mirrored scope ids to a payload, so producers cannot get the rule wrong.
 *
 * @param scope the envelope's scope ids
 * @param body the payload without mirrored ids
 * @returns the payload with `turnId`/`runId`/`itemId` set exactly when non-null in scope
 */
export function mirrorScope<P extends Record<string, unknown>>(
  scope: EventScope,
  body: P,
): P {
  const out: Record<string, unknown> = { ...body };
  for (const key of ["turnId", "runId", "itemId"] as const) {
    delete out[key];
    const value = scope[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out as P;
}
