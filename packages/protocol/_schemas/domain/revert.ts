/**
 * What `turn.revert` reports and what its `turn.reverted` event records.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { FileCapture } from "./file.ts";

/** What happened (or, in a dry run, would happen) to one file. */
export const RevertFileOutcome = z.enum([
  "reverted",
  "conflict",
  "not_revertible",
  "unchanged",
]).register(docs, {
  description: "`reverted`: restored (or would be); `conflict`: the file changed since the " +
    "turn; `not_revertible`: its capture was too large, binary or withheld; `unchanged`: it " +
    "already holds its before-state",
});

/** One file of a revert. */
export const RevertFile = z.looseObject({
  path: z.string(),
  outcome: RevertFileOutcome,
  /** Why a file is `not_revertible` or a `conflict`. */
  reason: z.string().nullable(),
}).register(docs, { description: "One file of a `turn.revert`." });

/** A side of a reverted file with its text, so a revert can itself be reverted. */
export const RevertCapture = FileCapture.extend({ text: z.string().optional() }).register(docs, {
  description: "One side of a reverted file, with its text when it was kept.",
});

/** A file the revert wrote: what it held before (`before`) and what was written (`after`). */
export const RevertedFile = z.looseObject({
  path: z.string(),
  outcome: RevertFileOutcome,
  before: RevertCapture,
  after: RevertCapture,
}).register(docs, { description: "A file a `turn.reverted` event changed, both sides kept." });

/** The result of `turn.revert`. */
export const TurnRevertResult = z.looseObject({
  /** Whether files were written (false for dry runs and for refused conflicts). */
  applied: z.boolean(),
  dryRun: z.boolean(),
  forced: z.boolean(),
  /** `undo` restores the turn's before-states; `redo` reverts the last revert of the turn. */
  direction: z.enum(["undo", "redo"]),
  files: z.array(RevertFile),
  /** The seq of the `turn.reverted` event, null when nothing was written. */
  eventSeq: z.int().min(1).nullable(),
}).register(docs, { description: "The result of `turn.revert`." });
