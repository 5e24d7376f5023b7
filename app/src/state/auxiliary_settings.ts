/**
 * Settings › General's switches of the runtime's own model calls after a message
 * (automatic thread titles, memory refinement) and when Runs compact their context:
 * `settings.read` and `settings.update`.
 * The runtime keeps them in config.yaml and applies a change to its next such call.
 * Every function takes the RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { Settings } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** One switch of the section. */
export type AuxiliarySwitch = "threadTitles" | "memoryRefinement";

/** What the switches show. */
export interface AuxiliarySettingsView {
  /** `loading` until the first answer; `failed` when reading failed. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The runtime's answer; null before the first one. */
  settings: Settings | null;
  /** Switches (and the compaction setting) waiting for `settings.update`. */
  pending: ReadonlySet<AuxiliarySwitch | "compaction">;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
}

/** The state before the first load. */
export function emptyAuxiliarySettings(): AuxiliarySettingsView {
  return { status: "idle", settings: null, pending: new Set(), error: null };
}

/** The switches' live state. */
export const auxiliarySettingsView: Signal<AuxiliarySettingsView> = signal(
  emptyAuxiliarySettings(),
);

/**
 * Whether a call runs: switched on and not forced off by the runtime's environment.
 *
 * @param settings the runtime's settings
 * @param name the switch
 * @returns true when the runtime makes that call
 */
export function switchIsOn(settings: Settings, name: AuxiliarySwitch): boolean {
  return settings[name] && !settings.forcedOff[name];
}

/**
 * Loads the settings.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadAuxiliarySettings(call: RpcCall = liveCall): Promise<void> {
  auxiliarySettingsView.value = { ...auxiliarySettingsView.value, status: "loading" };
  try {
    const { settings } = await call("settings.read", {});
    auxiliarySettingsView.value = {
      ...auxiliarySettingsView.value,
      settings,
      status: "ready",
      error: null,
    };
  } catch (error) {
    auxiliarySettingsView.value = {
      ...auxiliarySettingsView.value,
      status: "failed",
      error: callFailure(error),
    };
  }
}

/**
 * Switches one call on or off. The switch shows the runtime's answer, not a guess: it
 * changes only when `settings.update` succeeds; a second flip of the same switch while
 * the first waits is ignored.
 *
 * @param name the switch
 * @param on the wanted state
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it
 */
export async function setAuxiliarySwitch(
  name: AuxiliarySwitch,
  on: boolean,
  call: RpcCall = liveCall,
): Promise<boolean> {
  const view = auxiliarySettingsView.value;
  if (view.pending.has(name)) return false;
  auxiliarySettingsView.value = { ...view, pending: new Set([...view.pending, name]) };
  try {
    const { settings } = await call("settings.update", { [name]: on });
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, settings, error: null };
    return true;
  } catch (error) {
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, error: callFailure(error) };
    return false;
  } finally {
    const pending = new Set(auxiliarySettingsView.value.pending);
    pending.delete(name);
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, pending };
  }
}

/** A change of the compaction setting (each absent field keeps its value). */
export interface CompactionChange {
  /** The share of the window at which a Run compacts (0.5–0.95). */
  threshold?: number;
  /** Whether Runs compact at all. */
  enabled?: boolean;
}

/**
 * Changes when Runs compact their context (config.yaml's `compaction`); like the switches,
 * the controls show the runtime's answer, and a change while one waits is ignored.
 *
 * @param change the fields to change
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it
 */
export async function setCompaction(
  change: CompactionChange,
  call: RpcCall = liveCall,
): Promise<boolean> {
  const view = auxiliarySettingsView.value;
  if (view.pending.has("compaction")) return false;
  auxiliarySettingsView.value = { ...view, pending: new Set([...view.pending, "compaction"]) };
  try {
    const { settings } = await call("settings.update", { compaction: change });
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, settings, error: null };
    return true;
  } catch (error) {
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, error: callFailure(error) };
    return false;
  } finally {
    const pending = new Set(auxiliarySettingsView.value.pending);
    pending.delete("compaction");
    auxiliarySettingsView.value = { ...auxiliarySettingsView.value, pending };
  }
}
