/**
 * "Undo file changes" of a turn: a dry run first (what would be restored, what conflicts),
 * then the revert, forced only when the user chose "Revert anyway" after seeing conflicts.
 * One clientRequestId per confirmation, so a retried click cannot revert twice.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { ResultOf } from "@daedalus/client";
import { report, rpc } from "./store.ts";

/** The result of `turn.revert`. */
export type TurnRevert = ResultOf<"turn.revert">;

/** The turn whose revert dialog is open, null when closed. */
export const revertTurnId = signal<string | null>(null);

/**
 * Asks what a revert of the turn would do, touching nothing.
 *
 * @param turnId the turn
 * @returns the planned files, or null when the call failed (the error is reported)
 */
export async function previewTurnRevert(turnId: string): Promise<TurnRevert | null> {
  try {
    return await rpc().call("turn.revert", {
      turnId,
      clientRequestId: crypto.randomUUID(),
      dryRun: true,
    });
  } catch (error) {
    report(error);
    return null;
  }
}

/**
 * Reverts the turn's file changes.
 *
 * @param turnId the turn
 * @param force overwrite files that changed since the turn
 * @returns the result, or null when the call failed (the error is reported)
 */
export async function applyTurnRevert(turnId: string, force: boolean): Promise<TurnRevert | null> {
  try {
    return await rpc().call("turn.revert", {
      turnId,
      clientRequestId: crypto.randomUUID(),
      force,
    });
  } catch (error) {
    report(error);
    return null;
  }
}
