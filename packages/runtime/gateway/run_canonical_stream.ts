/**
 * A Run's canonical events as an async stream: its journal so far (read from state.db)
 * folded through {@linkcode canonicalStep}, then its live events from the hub, until
 * `done` or the caller's signal. Subscribing before reading means no event falls between
 * the replay and the live stream; events seen twice (in both) are skipped by seq. What a
 * gateway wire streams for a Run, whether the client asked at its start or resumes later.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";
import { readEventsForRun, type StateStore } from "@daedalus/storage";
import {
  canonicalFoldStart,
  type CanonicalFoldState,
  canonicalStep,
  type SequencedCanonicalEvent,
} from "./journal_to_canonical.ts";

/** Where live events come from (the runtime's event hub). */
export interface LiveEvents {
  /**
   * Subscribes to every event published from now on.
   *
   * @param listener receives each event once, in seq order
   * @returns unsubscribe
   */
  subscribe(listener: (event: JournalEvent) => void): () => void;
}

/** What {@linkcode runCanonicalEvents} needs. */
export interface RunCanonicalOptions {
  /** The state store (the journal so far). */
  store: StateStore;
  /** The live events. */
  live: LiveEvents;
  /** The Run. */
  runId: string;
  /** Only canonical events of journal events after this seq (a resuming client's). */
  afterSeq?: number;
  /** Ends the stream early (the client went away); the Run goes on. */
  signal?: AbortSignal;
}

/** Journal events read per page while replaying. */
const REPLAY_PAGE = 500;

/**
 * Streams a Run's canonical events, each with the seq of the journal event it came from.
 *
 * @param options store, live events, run, resume point, signal
 * @yields the canonical events, ending after `done` (or when the signal aborts)
 */
export async function* runCanonicalEvents(
  options: RunCanonicalOptions,
): AsyncGenerator<SequencedCanonicalEvent> {
  const { store, runId, signal } = options;
  const afterSeq = options.afterSeq ?? 0;
  const live: JournalEvent[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = options.live.subscribe((event) => {
    if (event.runId !== runId) return;
    live.push(event);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    let state: CanonicalFoldState = canonicalFoldStart(runId);
    let seen = 0;
    const step = (event: JournalEvent): SequencedCanonicalEvent[] => {
      if (event.seq <= seen) return [];
      seen = event.seq;
      const next = canonicalStep(state, event);
      state = next.state;
      if (event.seq <= afterSeq) return [];
      return next.events.map((canonical) => ({ seq: event.seq, event: canonical }));
    };
    for (let cursor = 0;;) {
      const page = store.read((db) =>
        readEventsForRun(db, runId, { afterSeq: cursor, limit: REPLAY_PAGE })
      );
      for (const event of page.events) yield* step(event as JournalEvent);
      cursor = page.nextAfterSeq;
      if (!page.hasMore || state.done) break;
    }
    while (!state.done && !signal?.aborted) {
      const event = live.shift();
      if (event) {
        yield* step(event);
        continue;
      }
      await new Promise<void>((resolve) => wake = resolve);
      wake = null;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}
