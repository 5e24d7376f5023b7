/**
 * The figures of a Run's progress line, derived from its projected state: model calls,
 * elapsed time, compactions and steers. A Run has no total limit on calls or time; the
 * line only reports them so the user can decide when to stop.
 *
 * @module
 */
import type { RunView } from "./projection.ts";

/** What the progress line shows. */
export interface RunProgress {
  modelCalls: number;
  compactions: number;
  /** User messages added to the Run while it ran (`run.steer`). */
  steers: number;
  /** Milliseconds since the Run started (until it settled), or null before it started. */
  elapsedMs: number | null;
}

/**
 * Derives the progress figures of a Run.
 *
 * @param run the Run
 * @param now the current time in ms since the epoch
 * @returns the figures
 */
export function runProgress(run: RunView, now: number): RunProgress {
  const steers = run.items.filter((item) => item.kind === "message" && item.data.steer === true)
    .length;
  const started = run.startedAt === null ? NaN : Date.parse(run.startedAt);
  const ended = run.settledAt === null ? now : Date.parse(run.settledAt);
  const elapsedMs = Number.isNaN(started) ? null : Math.max(0, ended - started);
  return { modelCalls: run.modelCalls, compactions: run.compactions, steers, elapsedMs };
}

/**
 * Formats a duration as `m:ss`, or `h:mm:ss` from an hour on.
 *
 * @param ms milliseconds
 * @returns the text
 */
export function formatElapsed(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
