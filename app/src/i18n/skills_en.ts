/**
 * English strings of Settings → Skills (and the failure line the data sections share).
 * `skills.problem.<code>` explains each skills-folder diagnostic code of the runtime.
 *
 * @module
 */
export const skillsEn = {
  "dataSection.failed": "That did not work.",
  "skills.title": "Skills",
  "skills.intro":
    "Skills are folders under the runtime's skills folder, each with a SKILL.md. Enabled skills are offered to new runs; a run already started keeps the skills it began with.",
  "skills.refresh": "Refresh",
  "skills.refreshing": "Refreshing…",
  "skills.loading": "Reading the skills folder…",
  "skills.none": "No skills yet. Add a folder with a SKILL.md to the skills folder, then Refresh.",
  "skills.listLabel": "Skills",
  "skills.toggle": "Enable skill {name}",
  "skills.on": "On",
  "skills.off": "Off",
  "skills.problemsTitle": "Entries that could not be loaded",
  "skills.entryUnnamed": "(unnamed entry)",
  "skills.code": "Code:",
  "skills.problem.invalid_name":
    "The folder name is not a valid skill name: 1–64 lowercase letters, digits and hyphens, starting with a letter or digit.",
  "skills.problem.symlink_refused": "Symbolic links are not followed in the skills folder.",
  "skills.problem.not_a_directory": "Only folders can be skills; this entry is a file.",
  "skills.problem.missing_skill_md": "The folder has no SKILL.md.",
  "skills.problem.too_large": "SKILL.md is too large.",
  "skills.problem.invalid_utf8": "SKILL.md is not valid UTF-8 text.",
  "skills.problem.invalid_frontmatter": "The front matter at the top of SKILL.md cannot be read.",
  "skills.problem.frontmatter_too_large": "The front matter of SKILL.md is too long.",
  "skills.problem.name_mismatch": "The name in SKILL.md does not match the folder name.",
  "skills.problem.missing_description": "SKILL.md has no description.",
  "skills.problem.description_too_long": "The description is longer than 1,024 characters.",
  "skills.problem.location_too_long": "The path of this skill is too long.",
  "skills.problem.unreadable": "The entry cannot be read.",
};
