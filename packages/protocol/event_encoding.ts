/**
 * The compact encoding of `event` notifications, which a WebSocket client opts into at
 * `initialize` (`eventEncoding: "compact"`).
 *
 * A journal event names its scope ids up to three times: in the envelope, mirrored in the
 * payload (DESIGN.md), and inside the item, run, turn, thread or branch it carries. Ids
 * were about 40 % of the bytes a client received per tool turn. The compact form leaves
 * out every copy that the envelope determines, and nothing else:
 *
 * - the envelope's `null` scope ids (absent means `null`);
 * - the payload's mirrored `turnId`/`runId`/`itemId` (the envelope schema makes them
 *   equal to the envelope's non-null ones, {@linkcode mirrorScope});
 * - in the objects listed in `NESTED_SCOPE`, an id equal to the envelope's, and
 *   an item's `updatedAt` equal to the event's `timestamp`. Every such field is required
 *   by its schema, so "absent" can only mean "the envelope's".
 *
 * {@linkcode inflateEvent} restores exactly the full event; it leaves a full event as it
 * is, so a client may inflate whatever arrives. Events are validated after inflating,
 * against the one envelope schema: the compact form has no schema of its own.
 *
 * @module
 */
import { type EventScope, type JournalEvent, mirrorScope } from "./events.ts";

/** How a connection's `event` notifications are encoded. */
export type EventEncoding = "full" | "compact";

/** The envelope's scope ids, in the order the envelope has them. */
const SCOPE_KEYS = ["threadId", "branchId", "turnId", "runId", "itemId"] as const;

type ScopeKey = (typeof SCOPE_KEYS)[number];

/** A field of a nested object and the envelope field it equals when left out. */
type NestedField = readonly [field: string, envelope: ScopeKey | "timestamp"];

const ITEM: readonly NestedField[] = [
  ["id", "itemId"],
  ["turnId", "turnId"],
  ["runId", "runId"],
  ["updatedAt", "timestamp"],
];
const RUN: readonly NestedField[] = [
  ["id", "runId"],
  ["turnId", "turnId"],
  ["threadId", "threadId"],
  ["branchId", "branchId"],
];
const TURN: readonly NestedField[] = [["id", "turnId"], ["threadId", "threadId"], [
  "branchId",
  "branchId",
]];
const THREAD: readonly NestedField[] = [["id", "threadId"]];
const BRANCH: readonly NestedField[] = [["id", "branchId"], ["threadId", "threadId"]];

/**
 * Per event type, the payload's objects whose envelope-determined fields the compact form
 * leaves out. Only these: the same key in another event type may be another shape.
 */
const NESTED_SCOPE: Readonly<
  Record<string, Readonly<Record<string, readonly NestedField[]>>>
> = {
  "thread.created": { thread: THREAD, branch: BRANCH },
  "thread.renamed": { thread: THREAD },
  "thread.archived": { thread: THREAD },
  "thread.unarchived": { thread: THREAD },
  "thread.branch_switched": { thread: THREAD },
  "branch.created": { branch: BRANCH },
  "run.state_changed": { run: RUN, turn: TURN },
  "item.started": { item: ITEM },
  "item.completed": { item: ITEM },
  "run.steered": { item: ITEM },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The compact form of an event (a new object; the event is not changed).
 *
 * @param event a committed, valid event
 * @returns the event without the copies its envelope determines
 */
export function compactEvent(event: JournalEvent): Record<string, unknown> {
  const envelope = event as unknown as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(envelope)) {
    if (value === null && (SCOPE_KEYS as readonly string[]).includes(key)) continue;
    out[key] = value;
  }
  const payload: Json = { ...(event.payload as Json) };
  for (const key of ["turnId", "runId", "itemId"] as const) delete payload[key];
  const nested = NESTED_SCOPE[event.type] ?? {};
  for (const [name, fields] of Object.entries(nested)) {
    const object = payload[name];
    if (!isObject(object)) continue;
    const slim: Json = { ...object };
    for (const [field, from] of fields) {
      if (field in slim && slim[field] === envelope[from]) delete slim[field];
    }
    payload[name] = slim;
  }
  out.payload = payload;
  return out;
}

/**
 * The full event of a compact one; a full event comes back equal. Not validated: check
 * the result against `EventEnvelope`.
 *
 * @param value an `event` notification's params
 * @returns the full event (a new object), or `value` itself when it is not an object
 */
export function inflateEvent(value: unknown): unknown {
  if (!isObject(value) || !isObject(value.payload)) return value;
  const out: Json = {};
  for (const key of Object.keys(value)) {
    if (key === "payload") continue;
    out[key] = value[key];
  }
  for (const key of SCOPE_KEYS) if (!(key in out)) out[key] = null;
  const payload = mirrorScope(out as EventScope, { ...value.payload });
  const nested = typeof value.type === "string" ? NESTED_SCOPE[value.type] ?? {} : {};
  for (const [name, fields] of Object.entries(nested)) {
    const object = payload[name];
    if (!isObject(object)) continue;
    const full: Json = { ...object };
    for (const [field, from] of fields) if (!(field in full)) full[field] = out[from];
    payload[name] = full;
  }
  out.payload = payload;
  return out;
}
