/**
 * The model a thread last ran with, so opening an older thread picks it again in the
 * composer (seed 000 §5: "opening an old thread restores its most recently used model").
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
