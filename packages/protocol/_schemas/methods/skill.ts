/**
 * `skill.*`.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Skill, SkillDiagnostic, SkillName } from "../domain/skill.ts";

/** Methods of the `skill` namespace. */
export const skillMethods = {
  "skill.list": method({
    description: "Lists the skills folder: valid skills and diagnostics for invalid entries",
    params: z.strictObject({}),
    result: z.looseObject({ skills: z.array(Skill), diagnostics: z.array(SkillDiagnostic) }),
  }),
  "skill.set_enabled": method({
    description: "Enables or disables a skill for new runs",
    params: z.strictObject({ name: SkillName, enabled: z.boolean() }),
    result: z.looseObject({ skill: Skill }),
  }),
};
