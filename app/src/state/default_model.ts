/**
 * Settings' default model (issue 21): the model of Runs whose turn and agent profile name
 * none (an RPC client's turn without a model, such as `daedalus run` without `--model`),
 * and the composer's pick for new threads. Read with `settings.read`, changed with `settings.update` (the runtime
 * refuses a model it cannot resolve with `model_not_found`). Every function takes the RPC
 * call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { Model, ModelRef } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";
import { applyDefaultModel } from "./store.ts";
import { fallbackRef } from "./fallback_choices.ts";

/** What the Default model field shows. */
export interface DefaultModelView {
  /** `loading` keeps the previous value on screen. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The runtime's answer: the model, or null when none is set. */
  model: ModelRef | null;
  /** A change waiting for its answer. */
  pending: boolean;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
}

/** The state before the first load. */
export function emptyDefaultModel(): DefaultModelView {
  return { status: "idle", model: null, pending: false, error: null };
}

/** The live state. */
export const defaultModelView: Signal<DefaultModelView> = signal(emptyDefaultModel());

/**
 * A model as the app's model pickers spell it.
 *
 * @param model the model, or null
 * @returns `providerId/modelId`, or null
 */
export function modelKey(model: ModelRef | null): string | null {
  return model ? `${model.providerId}/${model.modelId}` : null;
}

/**
 * A picker's value as a model (`providerId/modelId`, the first slash divides; "" is none):
 * the same values the fallback pickers use, read by the same function.
 */
export const modelOfChoice: (choice: string) => ModelRef | null = fallbackRef;

/**
 * How a model is named to the user: its display name from `model.list`, else its key (a
 * model no longer listed still shows what it was).
 *
 * @param list the models the app knows
 * @param model the model
 * @returns the name
 */
export function modelLabel(list: readonly Model[], model: ModelRef): string {
  const listed = list.find((m) => m.providerId === model.providerId && m.id === model.modelId);
  return listed?.displayName ?? `${model.providerId}/${model.modelId}`;
}

/**
 * Reads the default model. The composer learns it too, but does not switch to it (the
 * user may have picked another model on the start screen).
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadDefaultModel(call: RpcCall = liveCall): Promise<void> {
  defaultModelView.value = { ...defaultModelView.value, status: "loading" };
  try {
    const { settings } = await call("settings.read", {});
    defaultModelView.value = {
      ...defaultModelView.value,
      status: "ready",
      model: settings.defaultModel,
      error: null,
    };
    applyDefaultModel(modelKey(settings.defaultModel), false);
  } catch (error) {
    defaultModelView.value = {
      ...defaultModelView.value,
      status: "failed",
      error: callFailure(error),
    };
  }
}

/**
 * Sets (or with null clears) the default model. The field shows the runtime's answer, not
 * a guess; a change while one waits is ignored. Once saved the composer follows it on the
 * start screen and in a thread that has not run with a model yet.
 *
 * @param model the model, or null for none
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it (a refusal is in `error`)
 */
export async function saveDefaultModel(
  model: ModelRef | null,
  call: RpcCall = liveCall,
): Promise<boolean> {
  if (defaultModelView.value.pending) return false;
  defaultModelView.value = { ...defaultModelView.value, pending: true };
  try {
    const { settings } = await call("settings.update", { defaultModel: model });
    defaultModelView.value = {
      ...defaultModelView.value,
      status: "ready",
      model: settings.defaultModel,
      error: null,
    };
    applyDefaultModel(modelKey(settings.defaultModel), true);
    return true;
  } catch (error) {
    defaultModelView.value = { ...defaultModelView.value, error: callFailure(error) };
    return false;
  } finally {
    defaultModelView.value = { ...defaultModelView.value, pending: false };
  }
}
