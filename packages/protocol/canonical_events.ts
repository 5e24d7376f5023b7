/**
 * Canonical events: the stable contract between what produces an agent's events (a
 * Daedalus Run's journal, a library user's agent) and the gateway wires (Dify SSE,
 * AG-UI). The schemas are exported with the other message schemas (`CanonicalEvent`).
 *
 * @module
 */
import type { CanonicalEvent } from "./types.gen.ts";
import { CANONICAL_EVENT_SCHEMAS } from "./_schemas/canonical/event.ts";

/** A canonical event type. */
export type CanonicalEventType = CanonicalEvent["type"];

/** The canonical event of one type. */
export type CanonicalEventOf<T extends CanonicalEventType> = Extract<CanonicalEvent, { type: T }>;

/** The 13 canonical event types (seed 002 §3.1), in the seed's order. */
export const CANONICAL_EVENT_TYPES: readonly CanonicalEventType[] = Object.keys(
  CANONICAL_EVENT_SCHEMAS,
) as CanonicalEventType[];
