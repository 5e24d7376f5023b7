/**
 * The permission rules engine: ordered `{ tool, pattern?, decision }` rules, the last
 * matching one wins, no match falls back to the preset's default. Pure and synchronous;
 * rules are validated and their patterns compiled once ({@linkcode compileRuleSet}), so
 * {@linkcode decide} is a loop of cheap tests per call.
 *
 * How the gate will use it: when a Run starts, the runtime builds one rule set from the
 * thread's preset, config.yaml's rules, the thread's own and the `allow_always` rules
 * ({@linkcode permissionRuleSet}), keeps it with the Run's tool context, and before each
 * tool call (after argument validation) asks `decide(ruleSet, { toolId, risk, target })`
 * with the target from `call_target.ts`: `deny` refuses the call, `ask` opens an approval,
 * `allow` runs it; the verdict's origin and index name the rule in the event and reason.
 *
 * Matching:
 * - `tool`: `*`, the call's tool id, or `group:<risk>` of the call's risk class;
 * - a path `pattern` (a glob) matches only path targets: a relative glob against the path
 *   relative to the workspace, and only inside it; an absolute glob against the absolute
 *   path, inside or outside (on Windows, `C:\x` is matched as `/C:/x`);
 * - a command `pattern` (a word-wise prefix) matches only command targets: a `deny` or
 *   `ask` rule when any simple command of the line starts with it (`ls; rm -rf x` is an
 *   `rm`), an `allow` rule only when every one does and none redirects output into a file,
 *   so an allowed `git status` never lets `git status && curl … | sh` through.
 *
 * @module
 */
import {
  mcpRuleTarget,
  type PermissionDecision,
  type PermissionPreset,
  PermissionRule,
  type PermissionSettings,
} from "@daedalus/protocol";
import type { ToolRisk } from "../tool.ts";
import { ToolError } from "../tool.ts";
import { compileGlob } from "../files/traversal.ts";
import type { CallTarget } from "./call_target.ts";
import {
  type CommandWords,
  prefixWords,
  simpleCommands,
  startsWithWords,
} from "./command_words.ts";
import { PERMISSION_GLOB_CACHE_MAX_ENTRIES } from "../limits.ts";
import { DEFAULT_PERMISSION_PRESET, PERMISSION_PRESET_RULES } from "./presets.ts";

/** A tool call as the rules see it. */
export interface PermissionCall {
  /** The tool's id. */
  readonly toolId: string;
  /** The tool's risk class (what `group:<risk>` rules match). */
  readonly risk: ToolRisk;
  /** What the call touches (see `call_target.ts`). */
  readonly target: CallTarget;
  /** An MCP tool's server and own name (what `mcp:<server>[/<tool>]` rules match). */
  readonly mcp?: { readonly server: string; readonly tool: string };
}

/** Rules from one place, in order: a preset, config.yaml, a thread, `allow_always`… */
export interface PermissionRuleSource {
  /** Where they come from, named in verdicts and errors (`preset:ask`, `config`, `thread`). */
  readonly origin: string;
  /** The rules (unvalidated input is fine: every rule is checked). */
  readonly rules: readonly unknown[];
}

/** The outcome of {@linkcode decide}. */
export interface PermissionVerdict {
  /** What happens to the call. */
  readonly decision: PermissionDecision;
  /** The rule that decided, or null when none matched (or an artifacts read). */
  readonly rule: PermissionRule | null;
  /** Its source's origin; `artifacts` for a read of the thread's artifacts; null: fallback. */
  readonly origin: string | null;
  /** Its index within its source, or null for the fallback. */
  readonly index: number | null;
}

/** Rules ready for {@linkcode decide}: validated, patterns compiled, in evaluation order. */
export interface PermissionRuleSet {
  /** The decision when no rule matches. */
  readonly fallback: PermissionDecision;
  /** How many rules it holds. */
  readonly size: number;
}

/** The compiled rules of each rule set {@linkcode compileRuleSet} made (and only those). */
const compiledRules = new WeakMap<PermissionRuleSet, readonly CompiledRule[]>();

interface CompiledRule {
  readonly rule: PermissionRule;
  readonly origin: string;
  readonly index: number;
  readonly matchesTarget: (target: CallTarget, commands: CommandsOf) => boolean;
}

/** The simple commands of a command line, split once per {@linkcode decide}, not per rule. */
type CommandsOf = (line: string) => readonly CommandWords[] | null;

/** A rule that cannot be used, naming where it is and which field is wrong. */
export class PermissionRuleError extends Error {
  /** Always `invalid_permission_rule`. */
  readonly code = "invalid_permission_rule";
  /** The origin of the rule's source. */
  readonly origin: string;
  /** The rule's index within its source. */
  readonly index: number;
  /** The field at fault (`tool`, `pattern`, `decision`), or `""` for the rule as a whole. */
  readonly field: string;

  /**
   * Makes the error.
   *
   * @param origin where the rule comes from
   * @param index its index there
   * @param field the field at fault
   * @param problem what is wrong with it
   * @param options the original error
   */
  constructor(
    origin: string,
    index: number,
    field: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`Permission rule ${origin}[${index}]${field === "" ? "" : `.${field}`}: ${problem}`, {
      ...options,
    });
    this.name = "PermissionRuleError";
    this.origin = origin;
    this.index = index;
    this.field = field;
  }
}

/**
 * Validates and compiles rules, in order: later sources win over earlier ones.
 *
 * @param sources the rules, by where they come from
 * @param fallback the decision when no rule matches
 * @returns the rule set
 * @throws {PermissionRuleError} `invalid_permission_rule` for the first rule that is not a
 *   valid rule (unknown tool or decision, a pattern the tool does not take, a bad glob or an
 *   empty command prefix), naming its origin, index and field
 * @example
 * ```ts
 * const ruleSet = compileRuleSet([{ origin: "config", rules: [
 *   { tool: "process_start", pattern: "git status", decision: "allow" },
 * ] }], "ask");
 * decide(ruleSet, { toolId: "process_start", risk: "process",
 *   target: { kind: "command", command: "git status -s" } }).decision; // "allow"
 * ```
 */
export function compileRuleSet(
  sources: readonly PermissionRuleSource[],
  fallback: PermissionDecision,
): PermissionRuleSet {
  const compiled: CompiledRule[] = [];
  for (const source of sources) {
    source.rules.forEach((input, index) => {
      const parsed = PermissionRule.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.code === "unrecognized_keys" ? "" : String(issue?.path[0] ?? "");
        const problem = issue?.code === "unrecognized_keys"
          ? `unknown key ${issue.keys?.join(", ")}`
          : issue?.message ?? "not a rule";
        throw new PermissionRuleError(source.origin, index, field, problem);
      }
      compiled.push({
        rule: parsed.data,
        origin: source.origin,
        index,
        matchesTarget: targetMatcher(parsed.data, source.origin, index),
      });
    });
  }
  const ruleSet: PermissionRuleSet = Object.freeze({ fallback, size: compiled.length });
  compiledRules.set(ruleSet, compiled);
  return ruleSet;
}

/**
 * The rule set of a preset and rules checked after it (config.yaml's, a thread's…).
 *
 * @param settings the preset (default {@linkcode DEFAULT_PERMISSION_PRESET}) and config rules
 * @param more further sources, after the config's rules (they win over it)
 * @returns the rule set; its fallback is the preset's
 * @throws {PermissionRuleError} as {@linkcode compileRuleSet}
 */
export function permissionRuleSet(
  settings: PermissionSettings,
  more: readonly PermissionRuleSource[] = [],
): PermissionRuleSet {
  const preset: PermissionPreset = settings.preset ?? DEFAULT_PERMISSION_PRESET;
  const { fallback, rules } = PERMISSION_PRESET_RULES[preset];
  return compileRuleSet([
    { origin: `preset:${preset}`, rules },
    { origin: "config", rules: settings.rules ?? [] },
    ...more,
  ], fallback);
}

/**
 * Decides a call: the last rule that matches it, or the rule set's fallback. A read of the
 * thread's own artifacts folder is allowed before any rule (origin `artifacts`): it is the
 * runtime's own output for the model, which every mode has read.
 *
 * @param ruleSet the compiled rules
 * @param call the tool call
 * @returns the decision, and which rule made it
 * @throws {TypeError} for a rule set {@linkcode compileRuleSet} did not make
 */
export function decide(ruleSet: PermissionRuleSet, call: PermissionCall): PermissionVerdict {
  if (call.risk === "read" && call.target.kind === "path" && call.target.inArtifacts) {
    return { decision: "allow", rule: null, origin: "artifacts", index: null };
  }
  const rules = compiledRules.get(ruleSet);
  if (rules === undefined) throw new TypeError("Not a rule set made by compileRuleSet");
  const group = `group:${call.risk}`;
  let split: readonly CommandWords[] | null | undefined;
  const commandsOf: CommandsOf = (line) =>
    split === undefined ? split = simpleCommands(line) : split;
  for (let i = rules.length - 1; i >= 0; i--) {
    const compiled = rules[i];
    if (compiled === undefined) continue;
    const tool = compiled.rule.tool;
    if (tool !== "*" && tool !== call.toolId && tool !== group && !namesMcpTool(tool, call)) {
      continue;
    }
    if (!compiled.matchesTarget(call.target, commandsOf)) continue;
    return {
      decision: compiled.rule.decision,
      rule: compiled.rule,
      origin: compiled.origin,
      index: compiled.index,
    };
  }
  return { decision: ruleSet.fallback, rule: null, origin: null, index: null };
}

/** Whether a rule's `mcp:<server>` or `mcp:<server>/<tool>` names the call's MCP tool. */
function namesMcpTool(ruleTool: string, call: PermissionCall): boolean {
  const named = mcpRuleTarget(ruleTool);
  if (named === null || call.mcp === undefined || named.server !== call.mcp.server) return false;
  return named.tool === null || named.tool === call.mcp.tool;
}

function targetMatcher(
  rule: PermissionRule,
  origin: string,
  index: number,
): CompiledRule["matchesTarget"] {
  const pattern = rule.pattern;
  if (pattern === undefined) return () => true;
  // The schema accepted the pattern for this tool, so its kind is path or command.
  if (rule.tool === "process_start" || rule.tool === "group:process") {
    return commandMatcher(prefixWords(pattern), rule.decision === "allow");
  }
  return pathMatcher(pattern, origin, index);
}

function commandMatcher(
  prefix: readonly string[],
  allow: boolean,
): CompiledRule["matchesTarget"] {
  return (target, commandsOf) => {
    if (target.kind !== "command") return false;
    const commands = commandsOf(target.command);
    // A line that cannot be parsed: no allow vouches for it, every ask and deny applies.
    if (commands === null) return !allow;
    if (!allow) return commands.some((command) => startsWithWords(command, prefix));
    return commands.length > 0 &&
      commands.every((command) => !command.writesFile && startsWithWords(command, prefix));
  };
}

function pathMatcher(
  pattern: string,
  origin: string,
  index: number,
): (target: CallTarget) => boolean {
  let test = compiledGlobs.get(pattern);
  try {
    test ??= compileGlob(pattern);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const problem = error.message.replace(/^pattern: /, "");
    throw new PermissionRuleError(origin, index, "pattern", problem, { cause: error });
  }
  rememberGlob(pattern, test);
  if (pattern.startsWith("/")) {
    return (target) => target.kind === "path" && test(slashPath(target.path));
  }
  return (target) =>
    target.kind === "path" && target.workspacePath !== null && test(target.workspacePath);
}

/**
 * An absolute path as absolute globs see it: `/`-separated, starting with `/`, so that
 * `C:\Users\me` is `/C:/Users/me` and `/**` matches every path on every platform.
 */
function slashPath(path: string): string {
  const slashed = path.replaceAll("\\", "/");
  return slashed.startsWith("/") ? slashed : `/${slashed}`;
}

/**
 * Compiled globs by pattern: a Run's rule set is built from mostly the same rules as the
 * last one (the preset's, config.yaml's), and compiling RE2 programs is the costly part.
 */
const compiledGlobs = new Map<string, (path: string) => boolean>();

function rememberGlob(pattern: string, test: (path: string) => boolean): void {
  compiledGlobs.delete(pattern);
  compiledGlobs.set(pattern, test);
  // Map order is insertion order: the first key is the least recently used.
  const oldest = compiledGlobs.keys().next().value;
  if (compiledGlobs.size > PERMISSION_GLOB_CACHE_MAX_ENTRIES && oldest !== undefined) {
    compiledGlobs.delete(oldest);
  }
}
