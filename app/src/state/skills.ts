/**
 * The Skills settings section's state: `skill.list` (valid skills and diagnostics for
 * the entries that could not be loaded) and `skill.set_enabled`. Every function takes
 * the RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { ResultOf, Skill, SkillDiagnostic } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** The code of the diagnostic that counts the entries left out of the list. */
export const TOO_MANY_DIAGNOSTICS = "too_many_diagnostics";

/** What the section shows. */
export interface SkillsView {
  /** `loading` keeps the previous lists on screen while a refresh runs. */
  status: "idle" | "loading" | "ready" | "failed";
  /** Valid skills, by name. */
  skills: Skill[];
  /** Entries that could not be loaded, by entry. */
  diagnostics: SkillDiagnostic[];
  /** Names whose switch is waiting for `skill.set_enabled`. */
  pending: ReadonlySet<string>;
  /** The last failure (listing or toggling), cleared by the next success. */
  error: CallFailure | null;
}

/** The state before the first load. */
export function emptySkills(): SkillsView {
  return { status: "idle", skills: [], diagnostics: [], pending: new Set(), error: null };
}

/**
 * Orders a `skill.list` result for display: skills by name; diagnostics by entry, with
 * the "N more were not reported" line last.
 *
 * @param result the `skill.list` result
 * @returns the two lists
 */
export function shapeSkillList(
  result: ResultOf<"skill.list">,
): Pick<SkillsView, "skills" | "diagnostics"> {
  const skills = [...result.skills].sort((a, b) => a.name.localeCompare(b.name));
  const rank = (d: SkillDiagnostic) => (d.code === TOO_MANY_DIAGNOSTICS ? 1 : 0);
  const diagnostics = [...result.diagnostics].sort((a, b) =>
    rank(a) - rank(b) || a.entry.localeCompare(b.entry)
  );
  return { skills, diagnostics };
}

/**
 * Puts the server's copy of one skill in place of the listed one.
 *
 * @param skills the listed skills
 * @param skill the skill `skill.set_enabled` returned
 * @returns the new list (unchanged order; appended if it was not listed)
 */
export function replaceSkill(skills: readonly Skill[], skill: Skill): Skill[] {
  const found = skills.some((listed) => listed.name === skill.name);
  if (!found) return shapeSkillList({ skills: [...skills, skill], diagnostics: [] }).skills;
  return skills.map((listed) => (listed.name === skill.name ? skill : listed));
}

/**
 * The skills folder, read off a valid skill's `location` (`<folder>/<name>/SKILL.md`,
 * with `/` or `\\`), so an invalid entry can be shown as a full path.
 *
 * @param skills the valid skills
 * @returns the folder with its trailing separator, or null when no location tells it
 */
export function skillsFolderOf(skills: readonly Skill[]): string | null {
  for (const { name, location } of skills) {
    for (const sep of ["/", "\\"]) {
      const tail = `${sep}${name}${sep}SKILL.md`;
      if (location.endsWith(tail)) return location.slice(0, location.length - tail.length + 1);
    }
  }
  return null;
}

/** The section's live state. */
export const skillsView: Signal<SkillsView> = signal<SkillsView>(emptySkills());

let loadGeneration = 0;

/**
 * Loads (or refreshes) the list. A refresh that is overtaken by a newer one is dropped.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadSkills(call: RpcCall = liveCall): Promise<void> {
  const generation = ++loadGeneration;
  skillsView.value = { ...skillsView.value, status: "loading" };
  try {
    const result = await call("skill.list", {});
    if (generation !== loadGeneration) return;
    skillsView.value = {
      ...skillsView.value,
      ...shapeSkillList(result),
      status: "ready",
      error: null,
    };
  } catch (error) {
    if (generation !== loadGeneration) return;
    skillsView.value = { ...skillsView.value, status: "failed", error: callFailure(error) };
  }
}

/**
 * Enables or disables a skill for new runs. The switch shows the server's answer, not
 * a guess: it changes only when `skill.set_enabled` succeeds.
 *
 * @param name the skill
 * @param enabled the wanted state
 * @param call the RPC call, the app's connection by default
 * @returns whether the server accepted it
 */
export async function setSkillEnabled(
  name: string,
  enabled: boolean,
  call: RpcCall = liveCall,
): Promise<boolean> {
  if (skillsView.value.pending.has(name)) return false;
  skillsView.value = {
    ...skillsView.value,
    pending: withName(skillsView.value.pending, name, true),
  };
  try {
    const { skill } = await call("skill.set_enabled", { name, enabled });
    skillsView.value = {
      ...skillsView.value,
      skills: replaceSkill(skillsView.value.skills, skill),
      error: null,
    };
    return true;
  } catch (error) {
    skillsView.value = { ...skillsView.value, error: callFailure(error) };
    return false;
  } finally {
    skillsView.value = {
      ...skillsView.value,
      pending: withName(skillsView.value.pending, name, false),
    };
  }
}

function withName(names: ReadonlySet<string>, name: string, present: boolean): Set<string> {
  const next = new Set(names);
  if (present) next.add(name);
  else next.delete(name);
  return next;
}
