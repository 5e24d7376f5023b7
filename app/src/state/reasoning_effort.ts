/**
 * The reasoning effort the composer sends with, per model: the choices are "auto" (send
 * no `reasoning_effort`) plus the model's declared `reasoningEfforts`; the default is
 * the model's own default ("auto" when it has none); a choice is remembered per model in
 * Web Storage.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { Model, ReasoningEffort } from "@daedalus/client";
import { browserStorage } from "./web_storage.ts";

/** An effort the user can pick: one of the model's, or "auto". */
export type EffortChoice = ReasoningEffort | "auto";

type EffortModel = Pick<Model, "providerId" | "id" | "reasoningEffort" | "reasoningEfforts">;

const PREFIX = "daedalus.effort.";

/**
 * The choices a model offers.
 *
 * @param model the model
 * @returns "auto" and the model's efforts, or none when the model declares none
 */
export function effortChoices(model: EffortModel): EffortChoice[] {
  return model.reasoningEfforts.length === 0 ? [] : ["auto", ...model.reasoningEfforts];
}

/**
 * The remembered choices, per model, over one Web Storage area.
 *
 * @param storage where choices live (null: remember nothing)
 * @returns read and write
 */
export function createEffortMemory(storage: Storage | null) {
  const key = (model: EffortModel) => `${PREFIX}${model.providerId}/${model.id}`;
  return {
    /**
     * The model's current choice: the remembered one if the model still offers it,
     * else its default.
     */
    get(model: EffortModel): EffortChoice {
      let stored: string | null = null;
      try {
        stored = storage?.getItem(key(model)) ?? null;
      } catch {
        // Storage disabled: fall back to the default.
      }
      const choices = effortChoices(model);
      const found = choices.find((choice) => choice === stored);
      return found ?? model.reasoningEffort ?? "auto";
    },
    /** Remembers a choice for the model. */
    set(model: EffortModel, choice: EffortChoice): void {
      try {
        storage?.setItem(key(model), choice);
      } catch {
        // Quota or disabled storage: the choice holds until the tab closes.
      }
    },
  };
}

/**
 * What `turn.start` takes for a choice.
 *
 * @param model the model
 * @param choice the choice
 * @returns undefined when the model has no efforts (leave the parameter out), null for
 *   "auto", else the effort
 */
export function effortParam(
  model: EffortModel,
  choice: EffortChoice,
): ReasoningEffort | null | undefined {
  if (effortChoices(model).length === 0) return undefined;
  return choice === "auto" ? null : choice;
}

const memory = createEffortMemory(browserStorage());
/** Bumped on every choice so components re-read the memory. */
const version = signal(0);

/**
 * The app's current choice for a model (reactive).
 *
 * @param model the model
 * @returns its choice
 */
export function currentEffort(model: EffortModel): EffortChoice {
  void version.value;
  return memory.get(model);
}

/**
 * Chooses an effort for a model and remembers it.
 *
 * @param model the model
 * @param choice the choice
 */
export function chooseEffort(model: EffortModel, choice: EffortChoice): void {
  memory.set(model, choice);
  version.value++;
}
