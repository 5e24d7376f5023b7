/**
 * The runtime tests' bounded waits: every wait has a deadline and fails with a message
 * naming what did not happen (and what did), so a broken runtime fails a test instead of
 * hanging the suite. The deadline is a hang guard, never a timing assertion.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";

/** Longest any runtime test waits for something that should happen (2 shared cores). */
export const HANG_GUARD_MS = 30_000;

const POLL_MS = 5;

/**
 * Polls until `probe` returns a value other than undefined/null/false.
 *
 * @param what what is awaited, for the failure message
 * @param probe the check
 * @param detail more for the failure message (e.g. the events seen so far)
 * @param timeoutMs the hang guard
 * @returns the probe's value
 * @throws {Error} `timed out waiting for <what>` once the deadline passed
 */
export async function waitUntil<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  detail: () => string = () => "",
  timeoutMs = HANG_GUARD_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)\n${detail()}`.trimEnd());
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Races a promise against the hang guard.
 *
 * @param promise what should settle
 * @param what what is awaited, for the failure message
 * @param timeoutMs the hang guard
 * @returns the promise's value
 * @throws {Error} `timed out waiting for <what>` once the deadline passed
 */
export async function within<T>(
  promise: Promise<T>,
  what: string,
  timeoutMs = HANG_GUARD_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${what} (${timeoutMs} ms)`)),
      timeoutMs,
    );
  });
  // Once the guard has won, a late rejection of the abandoned promise is not a new failure.
  promise.catch(() => {});
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Event types, seqs and runs, for failure messages.
 *
 * @param events what was seen
 * @returns one line per event
 */
export function summarizeEvents(events: readonly JournalEvent[]): string {
  return events.map((e) => `${e.seq} ${e.type} ${e.runId ?? ""}`.trimEnd()).join("\n");
}

/**
 * Waits for an event a subscriber recorded.
 *
 * @param events the recorded events (filled by a hub subscription)
 * @param what the awaited event, for the failure message
 * @param predicate which event
 * @returns the first matching event
 * @throws {Error} naming the event and listing the events seen
 */
export function eventSeen(
  events: readonly JournalEvent[],
  what: string,
  predicate: (event: JournalEvent) => boolean,
): Promise<JournalEvent> {
  return waitUntil(what, () => events.find(predicate), () => summarizeEvents(events));
}

/**
 * Waits until a Run's `run.settled` was recorded.
 *
 * @param events the recorded events (filled by a hub subscription)
 * @param runId the run
 * @returns its `run.settled` event
 * @throws {Error} naming the run and listing the events seen
 */
export function runSettled(events: readonly JournalEvent[], runId: string): Promise<JournalEvent> {
  return eventSeen(
    events,
    `run ${runId} to settle`,
    (e) => e.type === "run.settled" && e.runId === runId,
  );
}
