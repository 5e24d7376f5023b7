/**
 * Settings › Permissions: config.yaml's permission settings over `permission.read`,
 * `permission.update`, `permission.addRule` and `permission.removeRule`. The section
 * shows the runtime's answer, never a guess: each change lands the settings the runtime
 * returns, and a refusal (a rule the runtime rejects, a list that changed meanwhile, a
 * broken config.yaml) is kept with its reason until the next success. Every function
 * takes the RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { PermissionRule, PermissionsView } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What the section shows. */
export interface PermissionSettingsView {
  /** `loading` until the first answer; `failed` when reading failed. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The runtime's answer; null before the first one. */
  settings: PermissionsView | null;
  /** A change is on its way (further changes wait for it). */
  saving: boolean;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
  /** What failed, so the section shows the failure beside it. */
  errorAt: PermissionPart | null;
}

/** The parts of the section a failure is shown beside. */
export type PermissionPart = "load" | "defaults" | "rules";

/** The state before the first load. */
export function emptyPermissionSettings(): PermissionSettingsView {
  return { status: "idle", settings: null, saving: false, error: null, errorAt: null };
}

/** The section's live state. */
export const permissionSettings: Signal<PermissionSettingsView> = signal(
  emptyPermissionSettings(),
);

/**
 * Loads the settings.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadPermissionSettings(call: RpcCall = liveCall): Promise<void> {
  permissionSettings.value = { ...permissionSettings.value, status: "loading" };
  try {
    const settings = await call("permission.read", {});
    permissionSettings.value = {
      ...permissionSettings.value,
      settings,
      status: "ready",
      error: null,
    };
  } catch (error) {
    permissionSettings.value = {
      ...permissionSettings.value,
      status: "failed",
      error: callFailure(error),
      errorAt: "load",
    };
  }
}

/**
 * Runs one change and lands its answer; ignored while another change is on its way.
 *
 * @returns whether the runtime accepted it
 */
async function change(
  part: PermissionPart,
  send: () => Promise<PermissionsView>,
): Promise<boolean> {
  if (permissionSettings.value.saving) return false;
  permissionSettings.value = { ...permissionSettings.value, saving: true };
  try {
    const settings = await send();
    permissionSettings.value = {
      ...permissionSettings.value,
      settings,
      status: "ready",
      error: null,
      errorAt: null,
    };
    return true;
  } catch (error) {
    permissionSettings.value = {
      ...permissionSettings.value,
      error: callFailure(error),
      errorAt: part,
    };
    return false;
  } finally {
    permissionSettings.value = { ...permissionSettings.value, saving: false };
  }
}

/**
 * Sets the default preset of new runs and/or what high-risk commands get.
 *
 * @param changes what to change
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it
 */
export function updatePermissionSettings(
  changes: Partial<Pick<PermissionsView, "preset" | "highRiskCommands">>,
  call: RpcCall = liveCall,
): Promise<boolean> {
  return change("defaults", () => call("permission.update", changes));
}

/**
 * The rule a form's fields describe: a blank pattern means "any target" (no pattern).
 *
 * @param fields the form's tool, pattern and decision
 * @returns the rule to send
 */
export function ruleFromForm(
  fields: { tool: string; pattern: string; decision: string },
): PermissionRule {
  const pattern = fields.pattern.trim();
  return {
    tool: fields.tool as PermissionRule["tool"],
    decision: fields.decision as PermissionRule["decision"],
    ...(pattern === "" ? {} : { pattern }),
  };
}

/**
 * Appends a rule (it wins over the earlier ones). The runtime validates it; a refusal
 * names the field (`rule.pattern`) and nothing is stored.
 *
 * @param rule the rule
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it
 */
export function addPermissionRule(
  rule: PermissionRule,
  call: RpcCall = liveCall,
): Promise<boolean> {
  const clientRequestId = crypto.randomUUID();
  return change("rules", () => call("permission.addRule", { rule, clientRequestId }));
}

/**
 * Removes the rule at its index, naming the rule the list showed; when the list changed
 * meanwhile (config.yaml edited by hand, another window) the runtime refuses with
 * `permission_rule_changed` and the list is reloaded, so the user sees what is stored.
 *
 * @param rule the rule as listed, with its index
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime removed it
 */
export async function removePermissionRule(
  rule: PermissionsView["rules"][number],
  call: RpcCall = liveCall,
): Promise<boolean> {
  const { index, ...shown } = rule;
  const removed = await change(
    "rules",
    () => call("permission.removeRule", { index, rule: shown }),
  );
  if (!removed && permissionSettings.value.error?.code === "permission_rule_changed") {
    const error = permissionSettings.value.error;
    await loadPermissionSettings(call);
    // The reload succeeded, but the user must still learn why nothing was removed.
    permissionSettings.value = { ...permissionSettings.value, error, errorAt: "rules" };
  }
  return removed;
}
