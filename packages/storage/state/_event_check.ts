/**
 * The journal's protocol check of one event, as strict as `EventEnvelope` and a third
 * of its cost: an append pays for this on every event, and the full envelope parse was
 * the largest part of the journal's cost over a bare INSERT.
 *
 * The envelope is assembled by `appendEvent`, so the parts it builds itself hold by
 * construction: seq (AUTOINCREMENT, ≥ 1), schemaVersion, the exact key set (strict),
 * and the payload's mirrored scope ids (`mirrorScope`, after the check). What a caller
 * supplies is checked with the protocol's own schemas: the type, each scope id, the
 * timestamp and the payload of that type. Tests parse every event the store writes with the full
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

/**
 * Values already found valid, one set per envelope field (so a valid run id never
 * passes as a thread id): a run's deltas repeat the same ids and, within one
 * transaction, one timestamp (so timestamps keep only the last). Each set is bounded
 * and cleared when full.
 */
class KnownValid {
  readonly #valid = new Set<string>();

  constructor(
    readonly path: string,
    readonly schema: Schema<string>,
    readonly capacity = KNOWN_MAX_ENTRIES,
  ) {}

  check(value: string | null): EventIssue | null {
    if (value === null || this.#valid.has(value)) return null;
    const checked = this.schema.safeParse(value);
    if (!checked.success) {
      return { path: this.path, message: checked.error.issues[0]?.message ?? "invalid" };
    }
    if (this.#valid.size >= this.capacity) this.#valid.clear();
    this.#valid.add(value);
    return null;
  }
}

const KNOWN_MAX_ENTRIES = 1024;
const THREAD = new KnownValid("threadId", ThreadId);
const BRANCH = new KnownValid("branchId", BranchId);
const TURN = new KnownValid("turnId", TurnId);
const RUN = new KnownValid("runId", RunId);
const ITEM = new KnownValid("itemId", ItemId);
const TIMESTAMP = new KnownValid("timestamp", Timestamp, 1);

/**
 * Checks one event against the protocol.
 *
 * @param type the event type
 * @param scope the envelope's scope ids
 * @param timestamp the envelope's timestamp
 * @param payload the payload without its mirrored scope ids (they are the scope's,
 *   checked there once; `mirrorScope` adds them after)
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
  const issue = THREAD.check(scope.threadId) ?? BRANCH.check(scope.branchId) ??
    TURN.check(scope.turnId) ?? RUN.check(scope.runId) ?? ITEM.check(scope.itemId) ??
    TIMESTAMP.check(timestamp);
  if (issue) return issue;
  const checked = EVENT_PAYLOADS[type as EventType].safeParse(payload);
  if (checked.success) return null;
  const first = checked.error.issues[0];
  return {
    path: ["payload", ...(first?.path ?? [])].map(String).join("."),
    message: first?.message ?? "invalid",
  };
}
