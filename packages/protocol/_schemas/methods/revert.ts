/**
 * `turn.revert`: undo (or redo) the file changes of a turn.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Identifier, TurnId } from "../ids.ts";
import { TurnRevertResult } from "../domain/revert.ts";

/** The revert method. */
export const revertMethods = {
  "turn.revert": method({
    description: "Restores every file the turn's runs changed to its before-state, newest " +
      "change first; on a turn already reverted, reverts that revert. Conflicts (a file " +
      "changed since) stop everything unless `force`, which overwrites them too (reason " +
      "`changed_since`); `dryRun` only reports. A turn without " +
      "file changes gives an empty result. Idempotent on clientRequestId",
    params: z.strictObject({
      turnId: TurnId,
      clientRequestId: Identifier,
      force: z.boolean().optional(),
      dryRun: z.boolean().optional(),
    }),
    result: TurnRevertResult,
  }),
};
