/**
 * The `skill.*` RPC methods. Every call rescans the skills folder and rereads config.yaml,
 * so hand edits to either are picked up; enabling or disabling a skill rewrites
 * `skills.disabled` through `updateConfig` (atomic, serialized, never over a broken file).
 * Changes apply to new Runs only: a started Run keeps the descriptors it froze.
 *
 * @example
 * ```ts
 * const handlers = createSkillHandlers({ skillsRoot: paths.skills, configPath: paths.config });
 * const { result } = await handlers["skill.set_enabled"]({ name: "pdf-tools", enabled: false });
 * result.skill.enabled; // false
 * ```
 *
 * @module
 */
import {
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type Skill,
  type ValidParamsOf,
} from "@daedalus/protocol";
import { ConfigError, type DaedalusConfig, readConfig, updateConfig } from "@daedalus/storage";
import type { Handled } from "./services.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import { scanSkills, type SkillCatalog } from "../skills/catalog.ts";

/** What the skill handlers need. */
export interface SkillHandlerOptions {
  /** The skills folder, from `homePaths(home).skills`. */
  skillsRoot: string;
  /** The config file, from `homePaths(home).config`. */
  configPath: string;
  /**
   * Cleans config error messages (they may quote config.yaml, which holds API keys);
   * pass `protectedValues`. Without it, messages name only the file and the error code.
   */
  protectedValues?: Pick<ProtectedValues, "redact">;
}

/** The methods served here. */
export type SkillMethod = "skill.list" | "skill.set_enabled";

/** One handler per `skill.*` method. */
export type SkillHandlers = {
  [M in SkillMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Builds the `skill.*` handlers.
 *
 * @param options the skills folder, the config file and the protected values
 * @returns a handler per method; refusals are thrown as {@linkcode RpcError} -32602 with
 *   reason `skill_not_found` (no valid skill of that name) or `config_invalid` (config.yaml
 *   cannot be read or written)
 */
export function createSkillHandlers(options: SkillHandlerOptions): SkillHandlers {
  const { skillsRoot, configPath, protectedValues } = options;
  const guard = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error) => {
      if (!(error instanceof ConfigError)) throw error;
      const message = protectedValues
        ? protectedValues.redact(error.message)
        : `Config file ${configPath} cannot be used (${error.code}); fix it by hand`;
      throw new RpcError(RPC_ERROR_CODES.invalidParams, "config_invalid", message, {}, {
        cause: error,
      });
    });

  const catalog = async (): Promise<SkillCatalog> => {
    const config = await guard(readConfig(configPath));
    return await scanSkills({ skillsRoot, disabled: config.skills.disabled });
  };

  return {
    "skill.list": async () => ({ result: await catalog() }),
    "skill.set_enabled": async ({ name, enabled }) => {
      const found = (await catalog()).skills.find((skill) => skill.name === name);
      if (!found) throw skillNotFound(name);
      // Rewriting an unchanged config would only drop the user's comments and layout.
      if (found.enabled !== enabled) {
        await guard(updateConfig(configPath, (config) => withSkillEnabled(config, name, enabled)));
      }
      const skill: Skill = { ...found, enabled };
      return { result: { skill } };
    },
  };
}

/** The config with `name` removed from, or added to the end of, `skills.disabled`. */
function withSkillEnabled(config: DaedalusConfig, name: string, enabled: boolean) {
  const others = config.skills.disabled.filter((disabled) => disabled !== name);
  return {
    ...config,
    skills: { ...config.skills, disabled: enabled ? others : [...others, name] },
  };
}

function skillNotFound(name: string): RpcError {
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "skill_not_found",
    `Skill ${name} is not in the skills folder or is invalid`,
    { field: "name" },
  );
}
