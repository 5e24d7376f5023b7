/**
 * The journal's protocol check of one event, as strict as `EventEnvelope` and a third
 * of its cost: an append pays for this on every event, and the full envelope parse was
 * the largest part of the journal's cost over a bare INSERT.
 *
 * The envelope is assembled by `appendEvent`, so the parts it builds itself hold by
 * construction: seq (AUTOINCREMENT, ≥ 1), schemaVersion, the exact key set (strict),
 * and the payload's mirrored scope ids (`mirrorScope`). What a caller supplies is
 * checked with the protocol's own schemas: the type, each scope id, the timestamp and
 * the payload of that type. Tests parse every event the store writes with the full
 * `EventEnvelope` (`assertValidEvents`), so the two cannot drift apart unnoticed.
 *
 * @module
 */
import {
  BranchId,
  EVENT_PAYLOADS,
  type EventType,
  ItemId,
  RunId,
  type Schema,
  ThreadId,
  Timestamp,
  TurnId,
} from "@daedalus/protocol";

/** The scope ids of an event as the envelope carries them. */
export interface CheckedScope {
  threadId: string | null;
  branchId: string | null;
  turnId: string | null;
  runId: string | null;
  itemId: string | null;
}

/** Why an event breaks the protocol: where, and what the schema said. */
export interface EventIssue {
  /** The dotted path in the envelope (`payload.delta`, `runId`, `type`). */
  path: string;
  /** The schema's message. */
  message: string;
}

const SCOPE_SCHEMAS: ReadonlyArray<readonly [keyof CheckedScope, Schema<string>]> = [
  ["threadId", ThreadId],
  ["branchId", BranchId],
  ["turnId", TurnId],
  ["runId", RunId],
  ["itemId", ItemId],
];

/**
 * Ids and timestamps already found valid: a run's deltas repeat the same five ids and,
 * within one transaction, one timestamp. Bounded, cleared when full.
 */
const known = new Set<string>();
const KNOWN_MAX_ENTRIES = 4096;

/**
 * Checks one event against the protocol.
 *
 * @param type the event type
 * @param scope the envelope's scope ids
 * @param timestamp the envelope's timestamp
 * @param payload the payload, scope ids mirrored
 * @returns the first issue, or null when the event is valid
 */
export function checkEvent(
  type: string,
  scope: CheckedScope,
  timestamp: string,
  payload: Record<string, unknown>,
): EventIssue | null {
  if (!Object.hasOwn(EVENT_PAYLOADS, type)) {
    return { path: "type", message: `unknown event type "${type}"` };
  }
  for (const [key, schema] of SCOPE_SCHEMAS) {
    const issue = checkKnown(scope[key], schema, key);
    if (issue) return issue;
  }
  const stamp = checkKnown(timestamp, Timestamp, "timestamp");
  if (stamp) return stamp;
  const checked = EVENT_PAYLOADS[type as EventType].safeParse(payload);
  if (checked.success) return null;
  const issue = checked.error.issues[0];
  return {
    path: ["payload", ...(issue?.path ?? [])].map(String).join("."),
    message: issue?.message ?? "invalid",
  };
}

function checkKnown(
  value: string | null,
  schema: Schema<string>,
  path: string,
): EventIssue | null {
  if (value === null) return null;
  // Keyed with the path so a valid run id never passes as a thread id.
  const key = `${path}:${value}`;
  if (known.has(key)) return null;
  const checked = schema.safeParse(value);
  if (!checked.success) return { path, message: checked.error.issues[0]?.message ?? "invalid" };
  if (known.size >= KNOWN_MAX_ENTRIES) known.clear();
  known.add(key);
  return null;
}
