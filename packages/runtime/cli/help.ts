/**
 * The help texts of `daedalus`, made from the command table (commands.ts): the overview
 * (`daedalus --help`) and one command's synopsis with every flag (`daedalus help run`,
 * `daedalus run --help`).
 *
 * @module
 */
import { type CommandName, COMMANDS, type CommandSpec, type OptionSpec } from "./commands.ts";

/**
 * The overview: every command with its summary.
 *
 * @returns the text, ending in a newline
 */
export function overviewHelp(): string {
  const names = Object.keys(COMMANDS) as CommandName[];
  const width = Math.max(...names.map((name) => name.length));
  const lines = [
    "usage: daedalus [COMMAND] [FLAGS]",
    "",
    "Commands:",
    ...names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`),
    "",
    "`daedalus help COMMAND` (or `daedalus COMMAND --help`) lists a command's flags.",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * One command's help: synopsis, summary, every flag, then its notes.
 *
 * @param command the command
 * @returns the text, ending in a newline
 */
export function commandHelp(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const flags = Object.entries(spec.options).map(([name, option]) => [
    flagLabel(name, option),
    option.description,
  ]);
  flags.push(["-h, --help", "print this help"]);
  const width = Math.max(...flags.map(([label]) => label!.length));
  const synopsis = [`daedalus ${command}`, spec.synopsis, flags.length > 1 ? "[FLAGS]" : ""]
    .filter((part) => part !== "").join(" ");
  const lines = [
    `usage: ${synopsis}`,
    "",
    `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`,
    "",
    "Flags:",
    ...flags.map(([label, description]) => `  ${label!.padEnd(width)}  ${description}`),
  ];
  if (spec.notes) lines.push("", ...spec.notes);
  return `${lines.join("\n")}\n`;
}

function flagLabel(name: string, option: OptionSpec): string {
  const long = option.type === "string" ? `--${name} ${option.value ?? "VALUE"}` : `--${name}`;
  const label = option.short ? `-${option.short}, ${long}` : long;
  return option.multiple ? `${label}…` : label;
}
