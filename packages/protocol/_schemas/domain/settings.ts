/**
 * Runtime settings as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { CompactionSettings } from "./compaction.ts";
import { ModelRef } from "./provider.ts";

const AuxiliarySwitches = z.looseObject({
  threadTitles: z.boolean(),
  memoryRefinement: z.boolean(),
});

export const Settings = z.looseObject({
  /** Whether threads get an automatic title after their first Run (config.yaml; default on). */
  threadTitles: z.boolean(),
  /** Whether memories are refined in the background after each Run (config.yaml; default on). */
  memoryRefinement: z.boolean(),
  /** Which of them the runtime's environment switches off whatever the setting says. */
  forcedOff: AuxiliarySwitches,
  /** When a Run compacts its context (config.yaml `compaction`; default 0.9 of the window, on). */
  compaction: CompactionSettings,
  /**
   * The model a Run uses when neither its request nor its agent profile names one
   * (config.yaml `agents.default_model`); null: none, such a Run is refused with
   * `model_selection_required`.
   */
  defaultModel: ModelRef.nullable(),
}).register(docs, {
  description: "The runtime's settings: its own model calls after a user's Run (thread titles, " +
    "memory refinement), as saved in config.yaml, and which of them the environment " +
    "(`DAEDALUS_THREAD_TITLES=0`, `DAEDALUS_MEMORY_REFINEMENT=0`) forces off; and when " +
    "Runs compact their context; and the default model of agent profiles without one.",
});
