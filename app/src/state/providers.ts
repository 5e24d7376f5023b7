/**
 * The providers and models Settings shows: `provider.list` and every configured model
 * (`model.list`, enabled or not), and the calls that change them. After each change the
 * lists are read again and the composer's model picker is refreshed (`refreshModels`), so
 * a model that became usable can be sent with at once.
 *
 * Changes resolve to an error message instead of throwing: the forms show it beside
 * their fields and keep what the user typed.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { DiscoveredModel, Model, ModelRef, ParamsOf, Provider } from "@daedalus/client";
import { refreshModels, report, rpc } from "./store.ts";
import { type CallFailure, callFailure } from "./call_failure.ts";

/** The providers, built-in first as the runtime lists them; null until loaded. */
export const providers = signal<Provider[] | null>(null);
/** Every configured model, enabled or not. */
export const allModels = signal<Model[]>([]);

/** Reads providers and models again; a failure goes to the alert line. */
export async function loadProviders(): Promise<void> {
  try {
    const [providerList, modelList] = await Promise.all([
      rpc().call("provider.list", {}),
      rpc().call("model.list", {}),
    ]);
    providers.value = providerList.providers;
    allModels.value = modelList.models;
  } catch (error) {
    report(error);
  }
}

/**
 * The models of one provider.
 *
 * @param providerId the provider
 * @returns its models in the runtime's order
 */
export function modelsOf(providerId: string): Model[] {
  return allModels.value.filter((model) => model.providerId === providerId);
}

/** A change's outcome: null when it worked, else the runtime's message. */
export type ChangeOutcome = string | null;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function change(work: () => Promise<unknown>): Promise<ChangeOutcome> {
  try {
    await work();
  } catch (error) {
    return messageOf(error);
  }
  await Promise.all([loadProviders(), refreshModels()]);
  return null;
}

/**
 * Saves the DeepSeek profile or a custom provider (`provider.configure`).
 *
 * @param params the configure params
 * @returns null, or the error message
 */
export function configureProvider(params: ParamsOf<"provider.configure">): Promise<ChangeOutcome> {
  return change(() => rpc().call("provider.configure", params));
}

/**
 * Lists a provider's models (`provider.discover_models`); nothing is saved.
 *
 * @param params where to look
 * @returns the models found, or the error message
 */
export async function discoverModels(
  params: ParamsOf<"provider.discover_models">,
): Promise<DiscoveredModel[] | string> {
  try {
    const { models } = await rpc().call("provider.discover_models", params);
    return models;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * Forgets the built-in DeepSeek profile's configuration (`provider.disconnect`).
 *
 * @param providerId the built-in provider
 * @returns null, or the error message
 */
export function disconnectProvider(providerId: string): Promise<ChangeOutcome> {
  return change(() => rpc().call("provider.disconnect", { providerId }));
}

/**
 * Removes a custom provider and its models (`provider.remove`).
 *
 * @param providerId the custom provider
 * @returns null, or the error message
 */
export function removeProvider(providerId: string): Promise<ChangeOutcome> {
  return change(() => rpc().call("provider.remove", { providerId }));
}

/**
 * Enables or disables a model for new turns (`model.set_enabled`).
 *
 * @param model the model
 * @param enabled the new state
 * @returns null, or the error message
 */
export function setModelEnabled(model: Model, enabled: boolean): Promise<ChangeOutcome> {
  return change(() =>
    rpc().call("model.set_enabled", { providerId: model.providerId, modelId: model.id, enabled })
  );
}

/**
 * Sets a model's context window and reasoning-effort levels (`model.set_limits`).
 *
 * @param params the limits
 * @returns null, or the error message
 */
export function setModelLimits(params: ParamsOf<"model.set_limits">): Promise<ChangeOutcome> {
  return change(() => rpc().call("model.set_limits", params));
}

/**
 * Names a model's fallback, or removes it (`model.set_fallback`), then reads the lists
 * again. A refusal keeps its reason code (`model_fallback_invalid`), so the picker can
 * explain it beside itself.
 *
 * @param model the model whose fallback changes
 * @param fallback the fallback, or null for none
 * @returns null when it worked, else the failure
 */
export async function setModelFallback(
  model: Model,
  fallback: ModelRef | null,
): Promise<CallFailure | null> {
  try {
    await rpc().call("model.set_fallback", {
      providerId: model.providerId,
      modelId: model.id,
      fallback,
    });
  } catch (error) {
    // A refusal often means the list was stale (the fallback was disabled elsewhere):
    // read it again so the picker offers what is true now.
    await loadProviders();
    return callFailure(error);
  }
  await loadProviders();
  return null;
}
