/**
 * The skills catalog kept between turns: turn.start needs it every time, but the folder
 * rarely changes. A cheap fingerprint (the folder's entries and the lstat of each
 * SKILL.md: kind, mtime, size, inode) is taken per use; only when it differs is the folder
 * scanned and every SKILL.md parsed again. Whether a skill is enabled comes from
 * config.yaml at each use, so the cached scan is made with nothing disabled.
 *
 * @example
 * ```ts
 * const skills = new SkillCatalogCache(paths.skills);
 * const catalog = await skills.catalog(config.skills.disabled);
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { scanSkills, SKILL_FILE_NAME, type SkillCatalog } from "./catalog.ts";

/** Scans a skills folder; {@linkcode scanSkills} unless a test counts the scans. */
export type SkillScanner = typeof scanSkills;

/** A skills catalog rescanned only when the folder or a SKILL.md changed. */
export class SkillCatalogCache {
  readonly #skillsRoot: string;
  readonly #scan: SkillScanner;
  #cached: { fingerprint: string; catalog: SkillCatalog } | undefined;

  /**
   * Makes an empty cache; the first use scans.
   *
   * @param skillsRoot the skills folder, from `homePaths(home).skills`
   * @param scan the scanner (tests pass a counting one)
   */
  constructor(skillsRoot: string, scan: SkillScanner = scanSkills) {
    this.#skillsRoot = skillsRoot;
    this.#scan = scan;
  }

  /**
   * The catalog as {@linkcode scanSkills} would return it now.
   *
   * @param disabled names listed in config.yaml `skills.disabled`
   * @returns valid skills (with `enabled`) and diagnostics for every refused entry
   */
  async catalog(disabled: readonly string[] = []): Promise<SkillCatalog> {
    const fingerprint = folderFingerprint(this.#skillsRoot);
    let catalog = this.#cached?.fingerprint === fingerprint ? this.#cached.catalog : undefined;
    if (catalog === undefined) {
      // Fingerprint first, then scan: a change during the scan differs next time.
      catalog = await this.#scan({ skillsRoot: this.#skillsRoot });
      this.#cached = fingerprint === UNKNOWN ? undefined : { fingerprint, catalog };
    }
    const off = new Set(disabled);
    return {
      skills: catalog.skills.map((skill) => ({ ...skill, enabled: !off.has(skill.name) })),
      diagnostics: catalog.diagnostics.map((diagnostic) => ({ ...diagnostic })),
    };
  }
}

/** A fingerprint that never matches: the folder could not be examined, so always scan. */
const UNKNOWN = "";

/**
 * What the scan's result depends on, short of reading the SKILL.md files. Synchronous:
 * checked at every turn.start, and a folder listing plus a stat per skill are a few
 * microseconds each here, where each asynchronous call is a thread-pool round trip.
 */
function folderFingerprint(skillsRoot: string): string {
  const parts: string[] = [];
  try {
    const root = Deno.realPathSync(skillsRoot);
    parts.push(root);
    const entries = [...Deno.readDirSync(root)];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const kind = entry.isSymlink ? "l" : entry.isDirectory ? "d" : "f";
      parts.push(`${kind}:${entry.name}`);
      if (kind === "d") parts.push(skillFileStamp(join(root, entry.name)));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    return UNKNOWN;
  }
  return JSON.stringify(parts);
}

function skillFileStamp(folder: string): string {
  try {
    const info = Deno.lstatSync(join(folder, SKILL_FILE_NAME));
    const kind = info.isSymlink ? "l" : info.isFile ? "f" : "o";
    return `${kind}:${info.mtime?.getTime() ?? "?"}:${info.size}:${info.ino ?? "?"}`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "none";
    throw error;
  }
}
