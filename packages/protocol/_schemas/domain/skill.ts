/**
 * Skills as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

export const SkillName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
  error: "a skill name is 1–64 of a-z, 0-9 and '-', starting with a letter or digit",
}).register(docs, { description: "A skill name: `^[a-z0-9][a-z0-9-]{0,63}$`." });

export const Skill = z.looseObject({
  name: SkillName,
  description: z.string().max(1024),
  /** Absolute path of its SKILL.md. */
  location: z.string(),
  enabled: z.boolean(),
}).register(docs, { description: "A skill found under `<home>/skills/<name>/SKILL.md`." });

export const SkillDiagnostic = z.looseObject({
  entry: z.string(),
  code: z.string(),
  message: z.string(),
}).register(docs, { description: "Why a skills-folder entry was not loaded." });
