/**
 * How a running tool call's progress reaches clients: each report is journaled as
 * `item.progress` on the call's item, credentials redacted, at most one every
 * {@linkcode TOOL_PROGRESS_INTERVAL_MS} (reports in between are dropped: a card shows the
 * latest, and a chatty server must not flood the journal). Nothing is journaled once the
 * call has ended (`stop`).
 *
 * @module
 */
import type { StateStore } from "@daedalus/storage";
import type { ToolProgress } from "@daedalus/tools";
import { TOOL_PROGRESS_INTERVAL_MS } from "../limits.ts";

/** Where a call's reports go. */
export interface ProgressScope {
  /** The thread. */
  readonly threadId: string;
  /** Its branch. */
  readonly branchId: string;
  /** The turn. */
  readonly turnId: string;
  /** The run. */
  readonly runId: string;
  /** The tool_call item. */
  readonly itemId: string;
}

/** A call's reporter and its end. */
export interface ProgressReporter {
  /** Journals one report (or drops it: too soon after the last). */
  report(update: ToolProgress): void;
  /** The call ended: later reports are dropped. */
  stop(): void;
}

/**
 * A reporter for one call.
 *
 * @param store the state store
 * @param scope the call's ids
 * @param redact the runtime's credential redaction
 * @param now the clock (tests pass one)
 * @returns the reporter
 */
export function progressReporter(
  store: StateStore,
  scope: ProgressScope,
  redact: (text: string) => string = (text) => text,
  now: () => number = Date.now,
): ProgressReporter {
  let last = Number.NEGATIVE_INFINITY;
  let stopped = false;
  return {
    report(update) {
      if (stopped || !Number.isFinite(update.progress) || update.progress < 0) return;
      const at = now();
      if (at - last < TOOL_PROGRESS_INTERVAL_MS) return;
      last = at;
      const total = update.total !== undefined && Number.isFinite(update.total) && update.total >= 0
        ? update.total
        : null;
      const message = typeof update.message === "string" && update.message !== ""
        ? redact(update.message).slice(0, 500)
        : null;
      try {
        store.write(({ append }) =>
          append({
            type: "item.progress",
            ...scope,
            payload: { progress: update.progress, total, message },
          })
        );
      } catch (error) {
        console.error(`tool progress of ${scope.itemId}: ${(error as Error).message}`);
      }
    },
    stop() {
      stopped = true;
    },
  };
}
