/**
 * `settings.*`: the runtime's switches saved in config.yaml. A change applies to the next
 * auxiliary call without a restart.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Settings } from "../domain/settings.ts";
import { CompactionOverride } from "../domain/compaction.ts";

/** Methods of the `settings` namespace. */
export const settingsMethods = {
  "settings.read": method({
    description: "Reads the runtime's settings",
    params: z.strictObject({}),
    result: z.looseObject({ settings: Settings }),
  }),
  "settings.update": method({
    description: "Changes the given settings in config.yaml; the others stay as they are",
    params: z.strictObject({
      threadTitles: z.boolean().optional(),
      memoryRefinement: z.boolean().optional(),
      compaction: CompactionOverride.optional(),
    }),
    result: z.looseObject({ settings: Settings }),
  }),
};
