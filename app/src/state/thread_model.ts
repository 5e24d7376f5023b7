/**
 * Which model the composer sends with. The composer always names one, so it is the Run's
 * "request model", which run preparation puts before the agent profile's and Settings'
 * default model. Its pick: the model an opened thread last ran with (seed 000 §5: "opening
 * an old thread restores its most recently used model"), else the user's own pick, else
 * Settings' default model (issue 21) while it is enabled, else the first enabled model.
 *
 * @module
 */
import type { ConversationState } from "./projection.ts";

/**
 * The `providerId/modelId` of the latest Run that named one.
 *
 * @param state the conversation
 * @returns the choice as the composer spells it, or null when no Run named a model
 */
export function lastUsedModel(state: ConversationState): string | null {
  for (let t = state.turns.length - 1; t >= 0; t--) {
    const runs = state.turns[t]!.runs;
    for (let r = runs.length - 1; r >= 0; r--) {
      const { providerId, modelId } = runs[r]!;
      if (providerId && modelId) return `${providerId}/${modelId}`;
    }
  }
  return null;
}

/**
 * The composer's pick when it has none that is still enabled (at start, or after its model
 * was disabled): Settings' default model while it is enabled, else the first enabled one.
 *
 * @param enabled the enabled models as `providerId/modelId`, in `model.list` order
 * @param defaultChoice Settings' default model, or null when none is set
 * @returns the pick, or null when no model is enabled
 */
export function fallbackModel(
  enabled: readonly string[],
  defaultChoice: string | null,
): string | null {
  if (defaultChoice !== null && enabled.includes(defaultChoice)) return defaultChoice;
  return enabled[0] ?? null;
}

/**
 * Whether the composer follows a default model the user just chose in Settings: on the
 * start screen and in a thread that has not run with a model yet. A thread that has keeps
 * its own model, as opening it restores it.
 *
 * @param open the open conversation, or null on the start screen
 * @returns true when the composer should switch to the new default
 */
export function followsDefaultModel(open: ConversationState | null): boolean {
  return open === null || lastUsedModel(open) === null;
}
