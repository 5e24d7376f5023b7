/**
 * The journal's event types and the payload of each. The journal is the single source
 * of truth: every change is one of these events, committed before it is acknowledged or
 * published. The envelope schema (`EventEnvelope`) is exported with the other message
 * schemas.
 *
 * @module
 */
import type { Schema } from "./schema.ts";
import type { EventEnvelope, EventPayloadMap } from "./types.gen.ts";
import { EVENT_PAYLOADS as payloadSchemas } from "./_schemas/events.ts";

/** A journal event type. */
export type EventType = keyof EventPayloadMap;

/** The payload of one event type. */
export type EventPayload<T extends EventType> = EventPayloadMap[T];

/** The payload schema of each event type. */
export const EVENT_PAYLOADS: { readonly [T in EventType]: Schema<EventPayload<T>> } =
  payloadSchemas;

/** The 15 journal event types. */
export const EVENT_TYPES: EventType[] = Object.keys(EVENT_PAYLOADS) as EventType[];

/** One journal event, typed by its `type`: the same as {@linkcode EventEnvelope}. */
export type JournalEvent = EventEnvelope;

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
