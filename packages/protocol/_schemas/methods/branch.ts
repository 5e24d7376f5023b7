/**
 * `branch.*` and `thread.set_active_branch`: forking a thread at a turn (Edit and resend,
 * Regenerate) and choosing the branch it shows.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { BranchId, Identifier, ThreadId, TurnId } from "../ids.ts";
import { Branch, Thread } from "../domain/thread.ts";
import { EventEnvelope } from "../events.ts";

/** Methods of the `branch` namespace and the thread's active branch. */
export const branchMethods = {
  "branch.create": method({
    description: "Forks a thread at a settled turn: the new branch shares the history up to " +
      "and including fromTurnId (null: nothing) and becomes the thread's active branch. " +
      "Nothing is written for an unknown thread or turn, a turn of another thread or one " +
      "whose Run is still active. Idempotent on clientRequestId",
    params: z.strictObject({
      threadId: ThreadId,
      fromTurnId: TurnId.nullable(),
      clientRequestId: Identifier,
    }),
    result: z.looseObject({ branch: Branch, event: EventEnvelope }),
  }),
  "branch.list": method({
    description: "Lists a thread's branches, oldest first, with the one it shows",
    params: z.strictObject({ threadId: ThreadId }),
    result: z.looseObject({
      branches: z.array(Branch),
      activeBranchId: BranchId,
      snapshotSeq: z.int().min(0),
    }),
  }),
  "thread.set_active_branch": method({
    description: "Chooses the branch a thread shows and a turn.start without a branch " +
      "continues; nothing is written when it already is the active one",
    params: z.strictObject({ threadId: ThreadId, branchId: BranchId }),
    result: z.looseObject({
      thread: Thread,
      /** False when the branch already was the active one (no event was written). */
      changed: z.boolean(),
      event: EventEnvelope.nullable(),
    }),
  }),
};
