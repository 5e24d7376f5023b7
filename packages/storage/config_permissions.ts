/**
 * The `permissions` section of config.yaml: the preset new threads start from and the
 * rules checked after it. Read through the config cache like every section; written by
 * {@linkcode writePermissions}, which validates the section before anything is read or
 * written and then replaces the file atomically with the rest of the config unchanged.
 *
 * @example
 * ```ts
 * await writePermissions(paths.config, {
 *   preset: "ask",
 *   rules: [{ tool: "process_start", pattern: "git status", decision: "allow" }],
 * });
 * (await readPermissions(paths.config)).rules?.length; // 1
 * ```
 *
 * @module
 */
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { configIssues, formatIssues } from "./_config_yaml.ts";
import { readConfig, updateConfig } from "./config_file.ts";
import { type PermissionsConfig, PermissionsConfigSchema } from "./config_schema.ts";

const SectionSchema = z.strictObject({ permissions: PermissionsConfigSchema });

/**
 * The `permissions` section as stored; `{}` (the `ask` preset, no rules) when config.yaml
 * or the section does not exist.
 *
 * @param path the config file, from `homePaths(home).config`
 * @returns a private copy of the section
 * @throws {ConfigError} every error of {@linkcode readConfig}
 */
export async function readPermissions(path: string): Promise<PermissionsConfig> {
  return (await readConfig(path)).permissions ?? {};
}

/**
 * Replaces the `permissions` section. The section is validated first: an unknown tool, a
 * pattern the tool does not take, a bad glob, an empty command prefix, an unknown decision
 * or preset is refused with an issue naming the rule's index and field
 * (`permissions.rules[2].pattern`), and the file is not touched. An empty section removes
 * it from the file.
 *
 * @param path the config file, from `homePaths(home).config`
 * @param settings the new section
 * @returns the section as written
 * @throws {ConfigError} `config_invalid` for an invalid section, and every error of
 *   {@linkcode updateConfig} (a broken file is never overwritten)
 */
export async function writePermissions(
  path: string,
  settings: PermissionsConfig,
): Promise<PermissionsConfig> {
  const section = withoutUndefined(settings);
  const result = SectionSchema.safeParse({ permissions: section });
  if (!result.success) {
    const issues = configIssues(result.error, { permissions: section });
    throw new ConfigError("config_invalid", path, formatIssues(path, issues), issues);
  }
  const written = await updateConfig(path, (config) => {
    if (Object.keys(section).length === 0) delete config.permissions;
    else config.permissions = section;
    return config;
  });
  return written.permissions ?? {};
}

function withoutUndefined(settings: PermissionsConfig): PermissionsConfig {
  if (typeof settings !== "object" || settings === null) return settings;
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  ) as PermissionsConfig;
}
