/**
 * The pure "event → UI state" projections: a snapshot from an RPC (`thread.list`,
 * `turn.list`, each with its `snapshotSeq`) merged with live journal events by seq.
 *
 * Rules, the same for both projections:
 * - Events that arrive before the snapshot are held; when it lands, the held ones with
 *   seq > snapshotSeq are applied in seq order and the rest dropped (already in it).
 * - After the snapshot, an event with seq ≤ the last applied seq is a duplicate (or
 *   arrived too late to matter, since later events carry full records) and is dropped.
 * - A batch is applied in seq order whatever order it came in.
 *
 * Nothing here touches signals, sockets or the DOM; every function returns a new state.
 *
 * @module
 */
export type { SeqGate } from "./seq_gate.ts";
export * from "./thread_projection.ts";
export * from "./conversation_projection.ts";
