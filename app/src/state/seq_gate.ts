/**
 * The seq bookkeeping every projection shares: a snapshot from an RPC (with its
 * `snapshotSeq`) merged with live journal events by seq.
 *
 * - Events that arrive before the snapshot are held; when it lands, the held ones with
 *   seq > snapshotSeq are applied in seq order and the rest dropped (already in it).
 * - After the snapshot, an event with seq ≤ the last applied seq is a duplicate (or
 *   arrived too late to matter, since later events carry full records) and is dropped.
 * - A batch is applied in seq order whatever order it came in.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/client";

/** The seq bookkeeping every projection shares. */
export interface SeqGate {
  /** The snapshot's seq, or null while it is loading. */
  snapshotSeq: number | null;
  /** The highest seq applied (the snapshot's to begin with). */
  appliedSeq: number;
  /** Events received before the snapshot, held until it lands. */
  pending: readonly JournalEvent[];
}

function bySeq(a: JournalEvent, b: JournalEvent): number {
  return a.seq - b.seq;
}

/**
 * Runs events through a gate: holds them before the snapshot, drops duplicates after,
 * applies the rest in seq order.
 */
export function admit<S extends SeqGate>(
  state: S,
  events: readonly JournalEvent[],
  apply: (state: S, event: JournalEvent) => S,
): S {
  if (events.length === 0) return state;
  if (state.snapshotSeq === null) {
    const seen = new Set(state.pending.map((e) => e.seq));
    const fresh = events.filter((e) => !seen.has(e.seq) && (seen.add(e.seq), true));
    return { ...state, pending: [...state.pending, ...fresh].sort(bySeq) };
  }
  let next = state;
  for (const event of [...events].sort(bySeq)) {
    if (event.seq <= next.appliedSeq) continue;
    next = { ...apply(next, event), appliedSeq: event.seq };
  }
  return next;
}

/** Lands a snapshot: sets the seq and replays the held events after it. */
export function land<S extends SeqGate>(
  state: S,
  snapshotSeq: number,
  apply: (state: S, event: JournalEvent) => S,
): S {
  const held = state.pending;
  const base = { ...state, snapshotSeq, appliedSeq: snapshotSeq, pending: [] };
  return admit(base, held, apply);
}
