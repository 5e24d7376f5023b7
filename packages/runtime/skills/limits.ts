/**
 * Limits of the skills folder (seed: skills catalog rules).
 *
 * @module
 */

/** A skill name: 1–64 of a-z, 0-9 and '-', starting with a letter or digit. */
export const SKILL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Largest SKILL.md, in bytes: a catalog scan must not load big files. */
export const SKILL_MD_MAX_BYTES = 256 * 1024;

/** Largest YAML frontmatter, in bytes: it holds a name and a description, nothing big. */
export const SKILL_FRONTMATTER_MAX_BYTES = 16 * 1024;

/** Longest description, in UTF-16 code units (the wire schema's `max(1024)`). */
export const SKILL_DESCRIPTION_MAX_CHARS = 1024;

/** Longest canonical SKILL.md location, in characters (the Windows extended path limit). */
export const SKILL_LOCATION_MAX_CHARS = 32_767;

/** Most diagnostics one scan reports, the last one saying how many more were left out. */
export const SKILL_DIAGNOSTICS_MAX = 100;

/** A diagnostic's entry name is cut to this many characters (names on disk are unbounded). */
export const SKILL_DIAGNOSTIC_ENTRY_MAX_CHARS = 255;

/** A diagnostic's message is cut to this many characters (YAML errors quote the input). */
export const SKILL_DIAGNOSTIC_MESSAGE_MAX_CHARS = 500;
