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
import { models, refreshModels, rpc } from "./store.ts";
import { browserStorage } from "./web_storage.ts";
import {
  type ConnectedProvider,
  type OnboardingRecord,
  parseOnboardingRecord,
  parseUserName,
  shouldShowOnboarding,
} from "./onboarding_flow.ts";
import { configureParams, discoverParams, type ProviderForm } from "./onboarding_provider_form.ts";

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
 * Remembers the user's name (what the assistant calls them); blank forgets it.
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

/** What connecting gave: the provider, or a message to show beside the kept form. */
export type ConnectOutcome =
  | { ok: true; provider: ConnectedProvider }
  | { ok: false; problem: string }
  | { ok: false; message: string };

/**
 * Saves the form's provider (`provider.configure`) and reloads the composer's models.
 *
 * @param form the fields
 * @returns the connected provider with its enabled models, or why not
 */
export async function connectProvider(form: ProviderForm): Promise<ConnectOutcome> {
  const checkedForm = configureParams(form);
  if ("problem" in checkedForm) return { ok: false, problem: checkedForm.problem };
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
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Asks the provider for its models (`provider.discover_models`); a key given here is
 * not stored.
 *
 * @param form the fields
 * @returns the model ids, or why not
 */
export async function discoverModelIds(
  form: ProviderForm,
): Promise<
  { ok: true; ids: string[] } | { ok: false; problem: string } | {
    ok: false;
    message: string;
  }
> {
  const params = discoverParams(form);
  if (!params) return { ok: false, problem: "baseUrlInvalid" };
  try {
    const { models: found } = await rpc().call("provider.discover_models", params);
    return { ok: true, ids: found.map((model) => model.id) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
