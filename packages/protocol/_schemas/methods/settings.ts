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
import { ModelRef } from "../domain/provider.ts";

/** Methods of the `settings` namespace. */
export const settingsMethods = {
  "settings.read": method({
    description: "Reads the runtime's settings",
    params: z.strictObject({}),
    result: z.looseObject({ settings: Settings }),
  }),
  "settings.update": method({
    description: "Changes the given settings in config.yaml; the others stay as they are. " +
      "A default model the provider registry cannot resolve (unknown or disabled) is refused " +
      "(`model_not_found`, as `agent.save` refuses a profile's)",
    params: z.strictObject({
      threadTitles: z.boolean().optional(),
      memoryRefinement: z.boolean().optional(),
      compaction: CompactionOverride.optional(),
      /** The model of Runs whose request and agent profile name none; null clears it. */
      defaultModel: ModelRef.nullable().optional(),
    }),
    result: z.looseObject({ settings: Settings }),
  }),
};
