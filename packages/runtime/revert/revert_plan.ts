/**
 * The revert planner: given the file changes to undo (oldest first) and what each file holds
 * now, decides per file whether it is restored, a conflict, not revertible or already
 * restored. Pure: the handler reads the files and applies the plan.
 *
 * @module
 */

/** One side of a change as the journal recorded it (the fields the planner uses). */
export interface PlanCapture {
  /** Whether the file existed. */
  exists: boolean;
  /** `sha256:<hex>` of its bytes, null when missing. */
  revision: string | null;
  /** Its text when the capture kept it. */
  text?: string;
  /** `binary` when the bytes were not text. */
  encoding?: string | null;
}

/** A change to undo: the file went from `before` to `after`. */
export interface PlanChange {
  /** The path as recorded. */
  path: string;
  /** The file before the change. */
  before: PlanCapture;
  /** The file after it. */
  after: PlanCapture;
}

/** What a file holds now. */
export interface CurrentFile {
  /** Whether it exists. */
  exists: boolean;
  /** Its revision, null when missing. */
  revision: string | null;
}

/**
 * Why a file cannot be reverted (`permission_denied` — outside the workspace or a protected
 * home file — is decided by the handler, which knows the access rules).
 */
export type NotRevertibleReason =
  | "capture_too_large"
  | "binary_content"
  | "protected_content"
  | "permission_denied";

/** The plan of one file, newest change first in the list. */
export type PlannedFile =
  | {
    path: string;
    outcome: "reverted";
    target: PlanCapture;
    expected: PlanCapture;
    /** Set when forced over a file that changed since: its current content is overwritten. */
    reason?: "changed_since";
  }
  | { path: string; outcome: "unchanged" }
  | { path: string; outcome: "conflict"; reason: "changed_since" }
  | { path: string; outcome: "not_revertible"; reason: NotRevertibleReason };

/**
 * Plans a revert. Several changes of one path collapse into one: the file goes back to the
 * first change's before-state, and it must still hold the last change's after-state.
 *
 * @param changes the changes to undo, oldest first
 * @param current what each path holds now
 * @param isWithheld whether a before-text holds a protected value (never written back)
 * @param force restore files that changed since too (their current content is overwritten)
 * @returns one entry per path, the most recently changed path first
 */
export function planRevert(
  changes: readonly PlanChange[],
  current: ReadonlyMap<string, CurrentFile>,
  isWithheld: (text: string) => boolean = () => false,
  force = false,
): PlannedFile[] {
  const byPath = new Map<string, { first: PlanChange; last: PlanChange; order: number }>();
  changes.forEach((change, order) => {
    const seen = byPath.get(change.path);
    byPath.set(change.path, { first: seen?.first ?? change, last: change, order });
  });
  return [...byPath.entries()]
    .sort((a, b) => b[1].order - a[1].order)
    .map(([path, { first, last }]) =>
      planFile(path, first.before, last.after, current.get(path), isWithheld, force)
    );
}

function planFile(
  path: string,
  target: PlanCapture,
  expected: PlanCapture,
  now: CurrentFile | undefined,
  isWithheld: (text: string) => boolean,
  force: boolean,
): PlannedFile {
  const here = now ?? { exists: false, revision: null };
  if (sameState(here, target)) return { path, outcome: "unchanged" };
  const changedSince = !sameState(here, expected);
  if (changedSince && !force) return { path, outcome: "conflict", reason: "changed_since" };
  if (target.exists && target.text === undefined) {
    const reason = target.encoding === "binary" ? "binary_content" : "capture_too_large";
    return { path, outcome: "not_revertible", reason };
  }
  if (target.text !== undefined && isWithheld(target.text)) {
    return { path, outcome: "not_revertible", reason: "protected_content" };
  }
  return {
    path,
    outcome: "reverted",
    target,
    expected,
    ...(changedSince ? { reason: "changed_since" as const } : {}),
  };
}

function sameState(now: CurrentFile, capture: PlanCapture): boolean {
  if (!now.exists || !capture.exists) return now.exists === capture.exists;
  return now.revision === capture.revision;
}
