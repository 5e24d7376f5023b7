/**
 * The skills catalog: one level of `<home>/skills/<name>/SKILL.md`, each SKILL.md checked
 * (size, UTF-8, YAML frontmatter with `name` and `description`, no symlinks) and either
 * listed as a skill or reported as a bounded diagnostic. One bad entry never hides the
 * good ones. Only names, descriptions and locations are read into the catalog; bodies stay
 * on disk until the model reads them.
 *
 * @example
 * ```ts
 * const config = await readConfig(paths.config);
 * const catalog = await scanSkills({
 *   skillsRoot: paths.skills,
 *   disabled: config.skills.disabled,
 * });
 * const frozen = freezeSkillDescriptors(catalog.skills); // into the RunConfig
 * ```
 *
 * @module
 */
import { join, sep } from "node:path";
import { parse } from "yaml";
import type { ResultOf, Skill, SkillDiagnostic } from "@daedalus/protocol";
import {
  SKILL_DESCRIPTION_MAX_CHARS,
  SKILL_DIAGNOSTIC_ENTRY_MAX_CHARS,
  SKILL_DIAGNOSTIC_MESSAGE_MAX_CHARS,
  SKILL_DIAGNOSTICS_MAX,
  SKILL_FRONTMATTER_MAX_BYTES,
  SKILL_LOCATION_MAX_CHARS,
  SKILL_MD_MAX_BYTES,
  SKILL_NAME_PATTERN,
} from "./limits.ts";
import { readAtMost } from "../files/read_at_most.ts";

/** The file every skill folder holds. */
export const SKILL_FILE_NAME = "SKILL.md";

/** Why an entry of the skills folder was refused; the code is the diagnostic's `code`. */
export type SkillDiagnosticCode =
  | "invalid_name"
  | "symlink_refused"
  | "not_a_directory"
  | "missing_skill_md"
  | "too_large"
  | "invalid_utf8"
  | "invalid_frontmatter"
  | "frontmatter_too_large"
  | "name_mismatch"
  | "missing_description"
  | "description_too_long"
  | "location_too_long"
  | "unreadable"
  | "too_many_diagnostics";

/** A skill as frozen into a RunConfig and shown to the model. */
export interface SkillDescriptor {
  /** The skill's name, equal to its folder's name. */
  readonly name: string;
  /** When to use it, from the frontmatter (1–1,024 characters). */
  readonly description: string;
  /** Absolute canonical path of its SKILL.md. */
  readonly location: string;
}

/**
 * What one scan found: valid skills sorted by name, and at most
 * {@linkcode SKILL_DIAGNOSTICS_MAX} diagnostics sorted by entry (the `skill.list` result).
 */
export type SkillCatalog = ResultOf<"skill.list">;

/** What {@linkcode scanSkills} reads. */
export interface ScanSkillsOptions {
  /** The skills folder, from `homePaths(home).skills`. */
  skillsRoot: string;
  /** Names listed in config.yaml `skills.disabled`. */
  disabled?: readonly string[];
  /** Stops the scan between entries. */
  signal?: AbortSignal;
}

/** One refused skills-folder entry. */
export class SkillEntryError extends Error {
  /** The stable diagnostic code. */
  readonly code: SkillDiagnosticCode;

  /**
   * Makes the refusal.
   *
   * @param code the diagnostic code
   * @param message sentence-case reason, no trailing period
   * @param options the original error as `cause`
   */
  constructor(code: SkillDiagnosticCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SkillEntryError";
    this.code = code;
  }
}

/**
 * Scans the skills folder one level deep. A missing folder is an empty catalog.
 *
 * @param options the folder, the disabled names and a cancellation signal
 * @returns valid skills (with `enabled`) and diagnostics for every refused entry
 * @throws the signal's reason when aborted
 */
export async function scanSkills(options: ScanSkillsOptions): Promise<SkillCatalog> {
  const disabled = new Set(options.disabled ?? []);
  let root: string;
  const entries: Deno.DirEntry[] = [];
  try {
    root = await Deno.realPath(options.skillsRoot);
    for await (const entry of Deno.readDir(root)) entries.push(entry);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { skills: [], diagnostics: [] };
    const diagnostic = toDiagnostic(".", unreadable("The skills folder", error));
    return { skills: [], diagnostics: [diagnostic] };
  }
  const skills: Skill[] = [];
  const diagnostics: SkillDiagnostic[] = [];
  for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
    options.signal?.throwIfAborted();
    // Dot entries are the file system's or an editor's (.DS_Store, .git), never skills.
    if (entry.name.startsWith(".")) continue;
    try {
      const found = await loadSkill(root, entry);
      skills.push({ ...found, enabled: !disabled.has(found.name) });
    } catch (error) {
      if (!(error instanceof SkillEntryError)) throw error;
      diagnostics.push(toDiagnostic(entry.name, error));
    }
  }
  return { skills, diagnostics: boundDiagnostics(diagnostics) };
}

/**
 * The enabled skills as immutable descriptors, in name order: what `turn.start` freezes
 * into the RunConfig, so a later change to the folder or config cannot alter the Run.
 *
 * @param skills skills from {@linkcode scanSkills}
 * @returns the enabled ones, frozen
 */
export function freezeSkillDescriptors(skills: readonly Skill[]): readonly SkillDescriptor[] {
  const descriptors = skills
    .filter((skill) => skill.enabled)
    .map(({ name, description, location }) => Object.freeze({ name, description, location }))
    .sort((a, b) => compareText(a.name, b.name));
  return Object.freeze(descriptors);
}

/**
 * Reads the `name` and `description` of a SKILL.md text's YAML frontmatter.
 *
 * @param text the whole SKILL.md, already decoded
 * @param folderName the skill folder's name, which `name` must equal
 * @returns the name and the trimmed description
 * @throws {SkillEntryError} `invalid_frontmatter`, `frontmatter_too_large`,
 *   `name_mismatch`, `missing_description`, `description_too_long`
 */
export function parseSkillFrontmatter(
  text: string,
  folderName: string,
): { name: string; description: string } {
  const data = frontmatterData(text);
  const name = data.name;
  if (typeof name !== "string" || name === "") {
    throw new SkillEntryError("invalid_frontmatter", "The frontmatter has no `name` string");
  }
  if (name !== folderName) {
    throw new SkillEntryError(
      "name_mismatch",
      `The frontmatter name ${JSON.stringify(name)} is not the folder name ${folderName}`,
    );
  }
  const raw = data.description;
  const description = typeof raw === "string" ? raw.trim() : "";
  if (description === "") {
    throw new SkillEntryError("missing_description", "The frontmatter has no `description`");
  }
  if (description.length > SKILL_DESCRIPTION_MAX_CHARS) {
    throw new SkillEntryError(
      "description_too_long",
      `The description is ${description.length} characters; at most ${SKILL_DESCRIPTION_MAX_CHARS} are allowed`,
    );
  }
  return { name, description };
}

async function loadSkill(root: string, entry: Deno.DirEntry): Promise<SkillDescriptor> {
  if (!SKILL_NAME_PATTERN.test(entry.name)) {
    throw new SkillEntryError(
      "invalid_name",
      "A skill folder name is 1–64 of a-z, 0-9 and '-', starting with a letter or digit",
    );
  }
  if (entry.isSymlink) {
    throw new SkillEntryError("symlink_refused", "The skill folder is a symbolic link");
  }
  if (!entry.isDirectory) {
    throw new SkillEntryError("not_a_directory", "A skill must be a folder holding SKILL.md");
  }
  const location = await checkedLocation(root, entry.name);
  const text = await readSkillText(location);
  return { ...parseSkillFrontmatter(text, entry.name), location };
}

/** The SKILL.md's canonical path, after refusing symlinks and anything outside `root`. */
async function checkedLocation(root: string, name: string): Promise<string> {
  const path = join(root, name, SKILL_FILE_NAME);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new SkillEntryError("missing_skill_md", `The folder has no ${SKILL_FILE_NAME}`);
    }
    throw unreadable(SKILL_FILE_NAME, error);
  }
  if (info.isSymlink) {
    throw new SkillEntryError("symlink_refused", `${SKILL_FILE_NAME} is a symbolic link`);
  }
  if (!info.isFile) {
    throw new SkillEntryError("missing_skill_md", `${SKILL_FILE_NAME} is not a regular file`);
  }
  if (info.size > SKILL_MD_MAX_BYTES) throw tooLarge(info.size);
  let location: string;
  try {
    location = await Deno.realPath(path);
  } catch (error) {
    throw unreadable(SKILL_FILE_NAME, error);
  }
  // Guards against links the lstat checks cannot see (a junction, a bind mount, a swap).
  if (!location.startsWith(root + sep)) {
    throw new SkillEntryError(
      "symlink_refused",
      `${SKILL_FILE_NAME} resolves outside the skills folder`,
    );
  }
  if (location.length > SKILL_LOCATION_MAX_CHARS) {
    throw new SkillEntryError(
      "location_too_long",
      `The location is ${location.length} characters; at most ${SKILL_LOCATION_MAX_CHARS} are allowed`,
    );
  }
  return location;
}

async function readSkillText(location: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readAtMost(location, SKILL_MD_MAX_BYTES + 1);
  } catch (error) {
    throw unreadable(SKILL_FILE_NAME, error);
  }
  // The file may have grown since lstat: the bytes read decide.
  if (bytes.byteLength > SKILL_MD_MAX_BYTES) throw tooLarge(bytes.byteLength, true);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SkillEntryError("invalid_utf8", `${SKILL_FILE_NAME} is not valid UTF-8`, {
      cause: error,
    });
  }
}

function frontmatterData(text: string): Record<string, unknown> {
  // CRLF files are common on Windows; a lone trailing CR would confuse the YAML parser.
  const lines = text.split(/\r?\n/);
  if (!isFence(lines[0])) {
    throw new SkillEntryError(
      "invalid_frontmatter",
      `${SKILL_FILE_NAME} must start with a '---' line opening the YAML frontmatter`,
    );
  }
  const end = lines.findIndex((line, index) => index > 0 && isFence(line));
  if (end < 0) {
    throw new SkillEntryError("invalid_frontmatter", "The frontmatter has no closing '---' line");
  }
  const yamlText = lines.slice(1, end).join("\n");
  const bytes = new TextEncoder().encode(yamlText).byteLength;
  if (bytes > SKILL_FRONTMATTER_MAX_BYTES) {
    throw new SkillEntryError(
      "frontmatter_too_large",
      `The frontmatter is ${bytes} bytes; at most ${SKILL_FRONTMATTER_MAX_BYTES} are allowed`,
    );
  }
  let data: unknown;
  try {
    data = parse(yamlText, { logLevel: "error", prettyErrors: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new SkillEntryError(
      "invalid_frontmatter",
      `The frontmatter is not valid YAML: ${reason}`,
      {
        cause: error,
      },
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new SkillEntryError("invalid_frontmatter", "The frontmatter must be a YAML mapping");
  }
  return data as Record<string, unknown>;
}

function isFence(line: string | undefined): boolean {
  return line !== undefined && line.trimEnd() === "---";
}

function tooLarge(bytes: number, atLeast = false): SkillEntryError {
  const size = atLeast ? `more than ${SKILL_MD_MAX_BYTES}` : String(bytes);
  return new SkillEntryError(
    "too_large",
    `${SKILL_FILE_NAME} is ${size} bytes; at most ${SKILL_MD_MAX_BYTES} are allowed`,
  );
}

function unreadable(what: string, cause: unknown): SkillEntryError {
  const reason = cause instanceof Error ? cause.name : "error";
  return new SkillEntryError("unreadable", `${what} cannot be read (${reason})`, { cause });
}

function toDiagnostic(entry: string, error: SkillEntryError): SkillDiagnostic {
  return {
    entry: bounded(entry, SKILL_DIAGNOSTIC_ENTRY_MAX_CHARS),
    code: error.code,
    message: bounded(error.message, SKILL_DIAGNOSTIC_MESSAGE_MAX_CHARS),
  };
}

/** The first diagnostics by entry; when there are too many, the last one counts the rest. */
function boundDiagnostics(diagnostics: SkillDiagnostic[]): SkillDiagnostic[] {
  if (diagnostics.length <= SKILL_DIAGNOSTICS_MAX) return diagnostics;
  const kept = diagnostics.slice(0, SKILL_DIAGNOSTICS_MAX - 1);
  const left = diagnostics.length - kept.length;
  return [...kept, {
    entry: "",
    code: "too_many_diagnostics",
    message: `${left} more invalid entries were not reported`,
  }];
}

/** Control characters out (names on disk may hold any), then cut to `max` characters. */
function bounded(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, "\uFFFD");
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
