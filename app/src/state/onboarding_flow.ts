/**
 * The first-run wizard as plain values: its three steps and their transitions, the
 * remembered record (finished or skipped, the user's name), when it is shown (seed 000
 * §4: no connected provider and not finished).
 *
 * @module
 */
import { parseStoredRecord } from "./_stored_record.ts";

/** The steps in order. */
export const STEPS = ["profile", "provider", "summary"] as const;
/** One step. */
export type Step = typeof STEPS[number];

/** What step 2 connected, for the summary. */
export interface ConnectedProvider {
  /** The id `provider.configure` saved it under. */
  providerId: string;
  /** Its name as shown. */
  displayName: string;
  /** The enabled models' ids. */
  modelIds: string[];
}

/** The wizard while it is open. */
export interface Flow {
  /** The step on screen. */
  step: Step;
  /** Null until a provider is connected (or when step 2 was skipped). */
  provider: ConnectedProvider | null;
  /** Set once Finish or Skip setup was chosen; the wizard closes. */
  outcome: "finished" | "skipped" | null;
}

/** What the user did. */
export type FlowAction =
  | { type: "next" }
  | { type: "back" }
  | { type: "skipStep" }
  | { type: "skipAll" }
  | { type: "connected"; provider: ConnectedProvider }
  | { type: "finish" };

/** @returns a wizard at step 1 */
export function startFlow(): Flow {
  return { step: "profile", provider: null, outcome: null };
}

function offset(step: Step, by: number): Step {
  const at = Math.min(Math.max(STEPS.indexOf(step) + by, 0), STEPS.length - 1);
  return STEPS[at]!;
}

/**
 * The wizard after an action. "Skip" on a step moves on without what that step would
 * save; connecting a provider moves to the summary; a closed wizard ignores everything.
 *
 * @param flow the wizard
 * @param action what the user did
 * @returns the next wizard
 */
export function reduceFlow(flow: Flow, action: FlowAction): Flow {
  if (flow.outcome !== null) return flow;
  switch (action.type) {
    case "next":
    case "skipStep":
      if (flow.step === "summary") return flow;
      return { ...flow, step: offset(flow.step, 1) };
    case "back":
      return { ...flow, step: offset(flow.step, -1) };
    case "connected":
      return { ...flow, provider: action.provider, step: "summary" };
    case "skipAll":
      return { ...flow, outcome: "skipped" };
    case "finish":
      return flow.step === "summary" ? { ...flow, outcome: "finished" } : flow;
  }
}

/** What is remembered across runs. */
export interface OnboardingRecord {
  /** Finished or skipped: never shown again. */
  completed: boolean;
  /** What the assistant calls the user, or null when not given. */
  userName: string | null;
}

/** The longest name (seed 000 §5: 1–32 characters after trimming). */
export const USER_NAME_MAX_CHARS = 32;

/**
 * Validates a user name: trimmed, 1–32 characters, no control characters.
 *
 * @param value anything
 * @returns the trimmed name, or null when it is not one
 */
export function parseUserName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const name = value.trim();
  if (name === "" || [...name].length > USER_NAME_MAX_CHARS) return null;
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u001f\u007f]/.test(name) ? null : name;
}

/**
 * Reads the stored record; anything corrupt means "not completed, no name".
 *
 * @param text what localStorage held (null when nothing)
 * @returns a valid record
 */
export function parseOnboardingRecord(text: string | null): OnboardingRecord {
  const stored = parseStoredRecord(text);
  if (stored === null) return { completed: false, userName: null };
  return { completed: stored.completed === true, userName: parseUserName(stored.userName) };
}

/**
 * Whether the wizard opens on connecting: not finished or skipped before, and no
 * provider connected yet (someone who configured one another way is past first run).
 *
 * @param record the remembered record
 * @param providers `provider.list`'s providers
 * @returns whether to show it
 */
export function shouldShowOnboarding(
  record: OnboardingRecord,
  providers: readonly { configured: boolean }[],
): boolean {
  return !record.completed && !providers.some((provider) => provider.configured);
}
