/**
 * The first-run wizard's live state: the remembered record (finished or skipped, the
 * user's name) in localStorage, whether the wizard is open, and its RPC calls. Seed 000
 * §5 keeps the local user name and `onboardingCompleted` with the client's preferences,
 * and the runtime has no RPC for the user's profile (it only reads `<home>/USER.md`),
 * so both stay in the browser.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { DiscoveredModel } from "@daedalus/client";
import { models, refreshModels, rpc } from "./store.ts";
import { browserStorage } from "./web_storage.ts";
import {
  type ConnectedProvider,
  type OnboardingRecord,
  parseOnboardingRecord,
  parseUserName,
  shouldShowOnboarding,
} from "./onboarding_flow.ts";
import {
  type ConnectDraft,
  connectParams,
  discoverParams,
  type FieldProblem,
} from "./provider_form.ts";

/** The localStorage key; the browser tests' harness sets it to skip the wizard. */
export const ONBOARDING_STORAGE_KEY = "daedalus.onboarding";

function loadRecord(): OnboardingRecord {
  try {
    return parseOnboardingRecord(browserStorage()?.getItem(ONBOARDING_STORAGE_KEY) ?? null);
  } catch {
    return parseOnboardingRecord(null); // storage refused the read
  }
}

/** The remembered record. */
export const onboardingRecord = signal<OnboardingRecord>(loadRecord());
/** Whether the wizard is on screen. */
export const onboardingOpen = signal(false);

function remember(change: Partial<OnboardingRecord>): void {
  onboardingRecord.value = { ...onboardingRecord.value, ...change };
  try {
    browserStorage()?.setItem(ONBOARDING_STORAGE_KEY, JSON.stringify(onboardingRecord.value));
  } catch {
    // not remembered: the wizard may show again next time, nothing else breaks
  }
}

let checked = false;

/**
 * Opens the wizard once per page load when it is first run: not completed and no
 * provider connected (`provider.list`). Call it when the connection is up.
 */
export async function checkOnboarding(): Promise<void> {
  if (checked || onboardingRecord.value.completed) return;
  checked = true;
  try {
    const { providers } = await rpc().call("provider.list", {});
    onboardingOpen.value = shouldShowOnboarding(onboardingRecord.value, providers);
  } catch {
    checked = false; // the connection dropped; the next "connected" asks again
  }
}

/**
 * Remembers the user's name (the local profile of seed 000 §5: shown on their messages
 * in this browser; the model does not receive it); blank forgets it.
 *
 * @param text what was typed
 * @returns whether it was valid (blank counts as valid)
 */
export function saveUserName(text: string): boolean {
  if (text.trim() === "") {
    remember({ userName: null });
    return true;
  }
  const name = parseUserName(text);
  if (name === null) return false;
  remember({ userName: name });
  return true;
}

/** Closes the wizard for good (Finish or Skip setup). */
export function completeOnboarding(): void {
  remember({ completed: true });
  onboardingOpen.value = false;
}

/**
 * Problems found before asking (by the form's field names), or the runtime's refusal;
 * the form keeps what was typed.
 */
export type ConnectRefusal =
  | { ok: false; problems: FieldProblem<string>[] }
  | { ok: false; message: string };

/** What connecting gave: the provider, or why not. */
export type ConnectOutcome = { ok: true; provider: ConnectedProvider } | ConnectRefusal;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Saves the form's provider (`provider.configure`) and reloads the composer's models.
 *
 * @param draft the form
 * @param discovered models found by "Discover models", by id (they keep their names)
 * @returns the connected provider with its enabled models, or why not
 */
export async function connectProvider(
  draft: ConnectDraft,
  discovered: Readonly<Record<string, DiscoveredModel>>,
): Promise<ConnectOutcome> {
  const checkedForm = connectParams(draft, discovered);
  if (!checkedForm.ok) return checkedForm;
  try {
    const { provider } = await rpc().call("provider.configure", checkedForm.params);
    await refreshModels();
    const modelIds = models.value.filter((model) => model.providerId === provider.id)
      .map((model) => model.id);
    return {
      ok: true,
      provider: { providerId: provider.id, displayName: provider.displayName, modelIds },
    };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/**
 * Asks the provider for its models (`provider.discover_models`); a key given here is
 * not stored.
 *
 * @param draft the form
 * @returns the models found, or why not
 */
export async function discoverConnectModels(
  draft: ConnectDraft,
): Promise<{ ok: true; models: DiscoveredModel[] } | ConnectRefusal> {
  const checkedForm = discoverParams({ ...draft, headers: "" });
  if (!checkedForm.ok) return checkedForm;
  try {
    const { models: found } = await rpc().call("provider.discover_models", checkedForm.params);
    return { ok: true, models: found };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
