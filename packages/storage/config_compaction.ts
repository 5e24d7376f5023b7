/**
 * The `compaction` section of config.yaml: the share of the model's window at which a
 * Run compacts its context, and whether it compacts at all. Read through the config
 * cache like every section; written by {@linkcode writeCompaction}, which validates the
 * section before anything is read or written, then replaces the file atomically with the
 * rest of the config unchanged. {@linkcode effectiveCompaction} lays a thread's own
 * override over it: what a Run freezes.
 *
 * @example
 * ```ts
 * await writeCompaction(paths.config, { threshold: 0.8 });
 * await readCompaction(paths.config); // { threshold: 0.8, enabled: true }
 * ```
 *
 * @module
 */
import { z } from "zod";
import { COMPACTION_THRESHOLD_DEFAULT } from "@daedalus/protocol";
import { ConfigError } from "./errors.ts";
import { configIssues, formatIssues } from "./_config_yaml.ts";
import { readConfig, updateConfig } from "./config_file.ts";
import { type CompactionConfig, CompactionConfigSchema } from "./config_schema.ts";

const SectionSchema = z.strictObject({ compaction: CompactionConfigSchema });

/** The compaction setting with every default filled in. */
export interface CompactionSetting {
  /** The share of the window at which a Run compacts (0.5–0.95). */
  threshold: number;
  /** Whether Runs compact; off, a Run whose input no longer fits fails. */
  enabled: boolean;
}

/** A thread's own override: each absent field follows config.yaml. */
export interface CompactionOverrideSetting {
  /** Its threshold, if it has one. */
  threshold?: number;
  /** Its switch, if it has one. */
  enabled?: boolean;
}

/**
 * The section with defaults filled in (0.9 of the window, on).
 *
 * @param section the section as stored, or undefined
 * @returns the setting
 */
export function compactionSetting(section: CompactionConfig | undefined): CompactionSetting {
  return {
    threshold: section?.threshold ?? COMPACTION_THRESHOLD_DEFAULT,
    enabled: section?.enabled ?? true,
  };
}

/**
 * The `compaction` section as stored, defaults filled in; the defaults when config.yaml
 * or the section does not exist.
 *
 * @param path the config file, from `homePaths(home).config`
 * @returns the setting
 * @throws {ConfigError} every error of {@linkcode readConfig}
 */
export async function readCompaction(path: string): Promise<CompactionSetting> {
  return compactionSetting((await readConfig(path)).compaction);
}

/**
 * Changes the given fields of the `compaction` section; absent fields keep their value.
 * The change is validated first: a threshold outside 0.5–0.95 or a non-boolean switch is
 * refused with an issue naming the field (`compaction.threshold`), and the file is not
 * touched. A change that leaves the section as it is writes nothing (a rewrite would only
 * drop the user's comments).
 *
 * @param path the config file, from `homePaths(home).config`
 * @param change the fields to change
 * @returns the setting as written
 * @throws {ConfigError} `config_invalid` for an invalid change, and every error of
 *   {@linkcode updateConfig} (a broken file is never overwritten)
 */
export async function writeCompaction(
  path: string,
  change: CompactionOverrideSetting,
): Promise<CompactionSetting> {
  const fields = withoutUndefined(change);
  const checked = SectionSchema.safeParse({ compaction: fields });
  if (!checked.success) {
    const issues = configIssues(checked.error, { compaction: fields });
    throw new ConfigError("config_invalid", path, formatIssues(path, issues), issues);
  }
  const current = (await readConfig(path)).compaction ?? {};
  const next = { ...current, ...fields };
  if (sameSection(current, next)) return compactionSetting(current);
  const written = await updateConfig(path, (config) => ({ ...config, compaction: next }));
  return compactionSetting(written.compaction);
}

/**
 * The setting a Run freezes: the thread's own fields over config.yaml's.
 *
 * @param config config.yaml's setting
 * @param override the thread's own, or null
 * @returns the setting and where it came from (`thread` when the thread overrides any field)
 */
export function effectiveCompaction(
  config: CompactionSetting,
  override: CompactionOverrideSetting | null,
): CompactionSetting & { source: "config" | "thread" } {
  const own = override === null ? {} : withoutUndefined(override);
  if (Object.keys(own).length === 0) return { ...config, source: "config" };
  return { ...config, ...own, source: "thread" };
}

function sameSection(a: CompactionConfig, b: CompactionConfig): boolean {
  return a.threshold === b.threshold && a.enabled === b.enabled;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined),
  ) as T;
}
