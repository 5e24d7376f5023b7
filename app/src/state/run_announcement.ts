/**
 * What a screen reader hears when the open thread's latest Run finishes. The feed itself
 * is not a live region (rows mounted by scrolling would be read out), so the end of an
 * answer is announced on its own; failures and cancellations are announced by their
 * outcome block (`role="alert"`/`"status"`).
 *
 * @module
 */
import { type ConversationState, isActiveStatus, type RunView } from "./projection.ts";

/** The latest Run of a conversation, or null. */
export function latestRun(state: ConversationState | null): RunView | null {
  const turn = state?.turns.at(-1);
  return turn?.runs.at(-1) ?? null;
}

/**
 * Whether a Run just completed: it was seen unsettled (queued, running or waiting) and is
 * completed now.
 *
 * @param before the same Run's status when last seen, or null when not seen
 * @param now the Run now
 * @returns true exactly once per Run, at the end of its live answer
 */
export function justCompleted(before: RunView["status"] | null, now: RunView): boolean {
  return before !== null && isActiveStatus(before) && now.status === "completed";
}

/**
 * Whether a Run just started waiting for the user's approval (said once per wait: the
 * card itself is in the feed, which is not a live region).
 *
 * @param before the same Run's status when last seen, or null when not seen
 * @param now the Run now
 * @returns true when it waits now and did not at the last look
 */
export function justStartedWaiting(before: RunView["status"] | null, now: RunView): boolean {
  return now.status === "waiting" && before !== "waiting";
}
