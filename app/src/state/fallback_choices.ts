/**
 * The fallback picker of a model in Settings › Providers and models: which models it
 * offers and how a choice becomes `model.set_fallback`'s `fallback`. Pure, so the rules
 * are tested without a server; the runtime still decides (`model_fallback_invalid`).
 *
 * @module
 */
import type { Model, ModelRef } from "@daedalus/client";

/** One option of the picker. */
export interface FallbackChoice {
  /** `providerId/modelId`; "" is "none". */
  value: string;
  /** The model's display name and ref, or null for "none" (the UI words it). */
  model: Pick<Model, "providerId" | "id" | "displayName" | "enabled"> | null;
}

/**
 * The value of a fallback ref in the picker.
 *
 * @param ref the model's fallback, or null / absent
 * @returns `providerId/modelId`, or "" for none
 */
export function fallbackValue(ref: ModelRef | null | undefined): string {
  return ref ? `${ref.providerId}/${ref.modelId}` : "";
}

/**
 * The ref a picker value stands for. Provider ids have no "/", so the first one splits.
 *
 * @param value the picker's value
 * @returns the ref, or null for "none" or a value that names no model
 */
export function fallbackRef(value: string): ModelRef | null {
  const at = value.indexOf("/");
  if (at <= 0 || at === value.length - 1) return null;
  return { providerId: value.slice(0, at), modelId: value.slice(at + 1) };
}

/**
 * What a model's picker offers: "none", then every other enabled model in the runtime's
 * order. The current fallback stays listed even when it is no longer enabled, so the
 * picker shows what config.yaml says rather than silently showing another choice.
 *
 * @param model the model whose fallback is picked
 * @param all every configured model (`model.list`)
 * @returns the options in order
 */
export function fallbackChoices(model: Model, all: readonly Model[]): FallbackChoice[] {
  const current = fallbackValue(model.fallback);
  const choices: FallbackChoice[] = [{ value: "", model: null }];
  for (const other of all) {
    const value = `${other.providerId}/${other.id}`;
    if (other.providerId === model.providerId && other.id === model.id) continue;
    if (!other.enabled && value !== current) continue;
    choices.push({ value, model: other });
  }
  const ref = model.fallback;
  if (ref && !choices.some((choice) => choice.value === current)) {
    // A fallback config.yaml names but model.list does not list (removed meanwhile).
    choices.push({
      value: current,
      model: {
        providerId: ref.providerId,
        id: ref.modelId,
        displayName: ref.modelId,
        enabled: false,
      },
    });
  }
  return choices;
}
