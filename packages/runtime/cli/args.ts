/**
 * Parses the `daedalus` command line with `node:util`'s `parseArgs` against the command
 * table (commands.ts): the command is the first positional word (`serve` when there is
 * none), its flags may come before or after it, and anything the table does not allow is
 * a {@linkcode UsageError} with one line that names the problem.
 *
 * @module
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { type CommandName, COMMANDS, type CommandSpec, isCommandName } from "./commands.ts";

/** A command line that cannot be run as written (exit code 2). */
export class UsageError extends Error {
  /** Stable code. */
  readonly code = "usage";
  /** The command whose help the user should read, when known. */
  readonly command: CommandName | null;

  /**
   * @param message one line naming the problem, sentence case, no trailing period
   * @param command the command it concerns
   */
  constructor(message: string, command: CommandName | null = null) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}

/** A flag's parsed value: a string, a switch, or the values of a repeatable flag. */
export type OptionValue = string | boolean | string[];

/** A parsed command line. */
export interface CommandLine {
  /** The command (`serve` when none was given). */
  command: CommandName;
  /** Whether the command was left out (and so is `serve`): `daedalus --help` is the overview. */
  defaulted: boolean;
  /** The positional arguments after the command's name. */
  positionals: string[];
  /** The flags given, by long name. */
  values: Record<string, OptionValue>;
  /** Whether `--help`/`-h` was given: print the command's help instead of running it. */
  help: boolean;
}

const HELP_OPTION = { type: "boolean", short: "h" } as const;

/**
 * Parses the arguments after the program name.
 *
 * @param input e.g. `["run", "--json", "hello"]`
 * @returns the command, its positionals and its flags
 * @throws {UsageError} for an unknown command or flag, a missing value, a value given to a
 *   switch, a flag of another command, or too few or too many positional arguments
 */
export function parseCommandLine(input: readonly string[]): CommandLine {
  // `deno task run -- --json hi` hands over `run -- --json hi`: a `--` right after the
  // command's name is the task's separator, not the end of the flags (a later one is).
  const args = isCommandName(input[0] ?? "") && input[1] === "--"
    ? [input[0]!, ...input.slice(2)]
    : input;
  // First pass with every command's flags: finds the command wherever the flags are.
  const all = parse(args, allOptions(), args.find(isCommandName) ?? null);
  const [first, ...rest] = all.positionals;
  const command: CommandName = first === undefined ? "serve" : checkCommand(first);
  const spec: CommandSpec = COMMANDS[command];
  const allowed = new Set(["help", ...Object.keys(spec.options)]);
  for (const token of all.tokens) {
    if (token.kind === "option" && !allowed.has(token.name)) {
      throw new UsageError(`${command} takes no ${token.rawName} option`, command);
    }
  }
  // Second pass with this command's flags only: their exact types and repeatability.
  const own = parse(args, { ...spec.options, help: HELP_OPTION }, command);
  const values: Record<string, OptionValue> = {};
  for (const [name, value] of Object.entries(own.values)) {
    if (name !== "help" && value !== undefined) values[name] = value as OptionValue;
  }
  const help = own.values.help === true;
  if (!help) {
    for (const [name, option] of Object.entries(spec.options)) {
      const value = values[name];
      if (!option.multiple && option.type === "string" && value === "") {
        throw new UsageError(`--${name} needs a non-empty value`, command);
      }
    }
    checkPositionals(command, spec, rest);
  }
  return { command, defaulted: first === undefined, positionals: rest, values, help };
}

/**
 * The flags of a command line as the older commands read them (`serve`, `login`, `token`,
 * `storage`): each flag's value as a string, a switch as `"true"`.
 *
 * @param values the parsed flags
 * @returns name → value
 */
export function flagMap(values: Readonly<Record<string, OptionValue>>): Map<string, string> {
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    flags.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  return flags;
}

function checkCommand(word: string): CommandName {
  if (isCommandName(word)) return word;
  throw new UsageError(`Unknown command "${word}"`);
}

function checkPositionals(command: CommandName, spec: CommandSpec, rest: string[]): void {
  const { min, max } = spec.positionals;
  if (rest.length > max) {
    const extra = rest[max]!;
    throw new UsageError(
      max === 0
        ? `${command} takes no arguments (got "${extra}")`
        : `${command} takes at most ${max} argument${max === 1 ? "" : "s"} (unexpected "${extra}")`,
      command,
    );
  }
  if (rest.length < min) {
    throw new UsageError(`${command} needs ${spec.synopsis}`, command);
  }
}

/** The union of every command's flags (no two commands give one name different types). */
function allOptions(): ParseArgsOptionsConfig {
  const options: ParseArgsOptionsConfig = { help: HELP_OPTION };
  for (const spec of Object.values(COMMANDS) as CommandSpec[]) {
    for (const [name, option] of Object.entries(spec.options)) {
      // Repeatable everywhere in this pass: a repeat is judged by the command's own pass.
      options[name] = option.short
        ? { type: option.type, multiple: true, short: option.short }
        : { type: option.type, multiple: true };
    }
  }
  return options;
}

function parse(
  args: readonly string[],
  options: ParseArgsOptionsConfig,
  command: CommandName | null,
) {
  try {
    return parseArgs({
      args: [...args],
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error, options), command);
  }
}

/** One line for `parseArgs`' errors, whose messages are long and name Node's API. */
function describeParseError(error: unknown, options: ParseArgsOptionsConfig): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const named = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? "";
  const long = named.startsWith("--")
    ? named.slice(2)
    : Object.entries(options).find(([, o]) => `-${o.short}` === named)?.[0];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `Unknown option ${named}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return long !== undefined && options[long]?.type === "boolean"
      ? `--${long} is a switch and takes no value`
      : `--${long ?? named.replace(/^-+/, "")} needs a value`;
  }
  return message;
}
