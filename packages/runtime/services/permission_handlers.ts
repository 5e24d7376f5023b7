/**
 * The `permission.*` RPC methods over config.yaml's `permissions` section: the preset new
 * turns start from, what high-risk commands get, and the rules every Run checks after its
 * preset. Each change is one read-modify-write of the file through the storage package
 * (serialized with every other write, validated as a whole, never over a broken file), so
 * a rule that does not validate leaves the stored rules as they were. A change applies to
 * the next Run: each Run reads the section once when it starts.
 *
 * `allow_always` answers append their rule with {@linkcode appendPermissionRule}, the
 * function `permission.addRule` uses.
 *
 * @example
 * ```ts
 * const handlers = createPermissionHandlers({ configPath: paths.config });
 * await handlers["permission.addRule"]({
 *   rule: { tool: "process_start", pattern: "git status", decision: "allow" },
 * });
 * ```
 *
 * @module
 */
import {
  type PermissionRule,
  type PermissionsView,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  ConfigError,
  type DaedalusConfig,
  type PermissionsConfig,
  readConfig,
  updateConfig,
} from "@daedalus/storage";
import type { Handled } from "./services.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import { PERMISSION_ADD_REQUESTS_REMEMBERED_COUNT } from "../limits.ts";

/** What the permission handlers need. */
export interface PermissionHandlerOptions {
  /** The config file, from `homePaths(home).config`. */
  configPath: string;
  /** Cleans config error messages (config.yaml holds API keys). */
  protectedValues?: Pick<ProtectedValues, "redact">;
}

/** The methods served here. */
export type PermissionMethod =
  | "permission.read"
  | "permission.update"
  | "permission.addRule"
  | "permission.removeRule";

/** One handler per `permission.*` method. */
export type PermissionHandlers = {
  [M in PermissionMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Appends a rule to config.yaml's `permissions.rules`, where it wins over every earlier
 * rule. The whole file is validated before it is replaced: a rule the protocol refuses, a
 * list already at its maximum or a broken file leaves config.yaml untouched.
 *
 * @param configPath the config file, from `homePaths(home).config`
 * @param rule the rule to add
 * @returns the section as written
 * @throws {ConfigError} `config_invalid` (with issues naming `permissions.rules[i].<field>`)
 *   for a rule or list that does not validate, and every error of `updateConfig` for a file
 *   that cannot be read or written
 */
export async function appendPermissionRule(
  configPath: string,
  rule: PermissionRule,
): Promise<PermissionsConfig> {
  const written = await updateConfig(configPath, (config) => {
    const permissions = config.permissions ?? {};
    const rules = [...permissions.rules ?? [], ruleOnly(rule)];
    return { ...config, permissions: { ...permissions, rules } };
  });
  return written.permissions ?? {};
}

/**
 * Builds the `permission.*` handlers.
 *
 * @param options the config file and the protected values
 * @returns a handler per method; refusals are {@linkcode RpcError} -32602 with reason
 *   `config_invalid` (config.yaml cannot be read or written, or the rule list is full),
 *   `permission_rule_changed` (`removeRule` of a rule that is no longer at its index) or
 *   `idempotency_conflict` (a clientRequestId reused for another rule)
 */
export function createPermissionHandlers(options: PermissionHandlerOptions): PermissionHandlers {
  const { configPath, protectedValues } = options;
  const guard = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error) => {
      if (!(error instanceof ConfigError)) throw error;
      throw configRefusal(configPath, error, protectedValues);
    });
  const answered = (permissions: PermissionsConfig | undefined) => ({
    result: viewOf(permissions),
  });
  const addRequests = new RecentRequests();

  return {
    "permission.read": async () => answered((await guard(readConfig(configPath))).permissions),
    "permission.update": async (changes) => {
      const current = viewOf((await guard(readConfig(configPath))).permissions);
      const unchanged = (changes.preset ?? current.preset) === current.preset &&
        (changes.highRiskCommands ?? current.highRiskCommands) === current.highRiskCommands;
      // Rewriting an unchanged config would only drop the user's comments and layout.
      if (unchanged) return { result: current };
      const written = await guard(updateConfig(configPath, (config) => {
        const permissions = { ...config.permissions };
        if (changes.preset !== undefined) permissions.preset = changes.preset;
        if (changes.highRiskCommands !== undefined) {
          permissions.highRiskCommands = changes.highRiskCommands;
        }
        return { ...config, permissions };
      }));
      return answered(written.permissions);
    },
    "permission.addRule": async ({ rule, clientRequestId }) => {
      if (clientRequestId !== undefined && addRequests.seen(clientRequestId, rule)) {
        return answered((await guard(readConfig(configPath))).permissions);
      }
      const written = await guard(appendPermissionRule(configPath, rule));
      if (clientRequestId !== undefined) addRequests.remember(clientRequestId, rule);
      return answered(written);
    },
    "permission.removeRule": async ({ index, rule }) => {
      const written = await guard(updateConfig(configPath, (config) => {
        const rules = [...config.permissions?.rules ?? []];
        const stored = rules[index];
        if (stored === undefined || !sameRule(stored, rule)) throw ruleChanged(index, stored);
        rules.splice(index, 1);
        return withPermissions(config, withRules(config.permissions ?? {}, rules));
      }));
      return answered(written.permissions);
    },
  };
}

/**
 * The clientRequestIds of recent `permission.addRule` calls and their rules, oldest
 * forgotten first: a retried call returns the current settings instead of appending twice.
 */
class RecentRequests {
  readonly #rules = new Map<string, string>();

  /** True when `id` was used for this rule; throws when it was used for another one. */
  seen(id: string, rule: PermissionRule): boolean {
    const earlier = this.#rules.get(id);
    if (earlier === undefined) return false;
    if (earlier === ruleKey(rule)) return true;
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "idempotency_conflict",
      `clientRequestId ${id} was already used to add another rule`,
      { field: "clientRequestId" },
    );
  }

  remember(id: string, rule: PermissionRule): void {
    this.#rules.set(id, ruleKey(rule));
    if (this.#rules.size <= PERMISSION_ADD_REQUESTS_REMEMBERED_COUNT) return;
    const oldest = this.#rules.keys().next();
    if (!oldest.done) this.#rules.delete(oldest.value);
  }
}

function viewOf(permissions: PermissionsConfig | undefined): PermissionsView {
  return {
    preset: permissions?.preset ?? "ask",
    highRiskCommands: permissions?.highRiskCommands ?? "ask",
    rules: (permissions?.rules ?? []).map((rule, index) => ({ index, ...ruleOnly(rule) })),
  };
}

/** The rule's own fields, in the order config.yaml shows them. */
function ruleOnly(rule: PermissionRule): PermissionRule {
  return rule.pattern === undefined
    ? { tool: rule.tool, decision: rule.decision }
    : { tool: rule.tool, pattern: rule.pattern, decision: rule.decision };
}

function ruleKey(rule: PermissionRule): string {
  return JSON.stringify([rule.tool, rule.pattern ?? null, rule.decision]);
}

function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  return ruleKey(a) === ruleKey(b);
}

function withRules(
  permissions: NonNullable<DaedalusConfig["permissions"]>,
  rules: PermissionRule[],
): PermissionsConfig {
  const { rules: _old, ...rest } = permissions;
  return rules.length === 0 ? rest : { ...rest, rules };
}

/** The config with this section; an empty section is left out rather than written as `{}`. */
function withPermissions(config: DaedalusConfig, permissions: PermissionsConfig): DaedalusConfig {
  const { permissions: _old, ...rest } = config;
  return Object.keys(permissions).length === 0 ? rest : { ...rest, permissions };
}

function ruleChanged(index: number, stored: PermissionRule | undefined): RpcError {
  const now = stored === undefined
    ? "there is no rule there any more"
    : `it is now ${stored.tool}${stored.pattern === undefined ? "" : ` ${stored.pattern}`} → ` +
      stored.decision;
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "permission_rule_changed",
    `The rule at index ${index} is not the one to remove (${now}); reload the rules`,
    { field: "rule" },
  );
}

function configRefusal(
  configPath: string,
  error: ConfigError,
  protectedValues: Pick<ProtectedValues, "redact"> | undefined,
): RpcError {
  const issue = error.issues[0];
  const field = issue?.keyPath ?? "";
  const message = protectedValues
    ? protectedValues.redact(error.message)
    : `Config file ${configPath} cannot be used (${error.code}); fix it by hand`;
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "config_invalid",
    message,
    field ? { field } : {},
    { cause: error },
  );
}
