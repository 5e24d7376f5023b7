/**
 * The programs one simple command runs, seen through the wrappers that run another program
 * (`sudo`, `env`, `nohup`, `time`, `command`, `exec`, `timeout`, `nice`, `xargs`, …), leading
 * `NAME=value` assignments, reserved words (`if`, `{`, `!`, …) and absolute paths (`/bin/rm`).
 *
 * @module
 */
import { literalWord, type Word } from "./shell_words.ts";

/** One program a command runs: its file name and the words after it. */
export interface Invocation {
  /** The program's file name (`rm` for `/bin/rm`). */
  name: string;
  /** The words after it. */
  args: Word[];
}

/** Reserved words that may open a command; the program is the word after them. */
export const SHELL_RESERVED_WORDS: ReadonlySet<string> = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
]);

/** How a wrapper program's own options are read before the command it runs. */
interface WrapperSyntax {
  /** Options that take the next word as their value. */
  valueOptions: ReadonlySet<string>;
  /** Operands before the command (`timeout 5 cmd`: 1). */
  operands?: number;
  /** Whether `NAME=value` words may come before the command (`env`). */
  assignments?: boolean;
  /** Options after which no command runs (`command -v rm` only looks it up). */
  lookupOptions?: ReadonlySet<string>;
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items);
export const WATCH_VALUE_OPTIONS = set("-n", "--interval", "-q", "--equexit", "-s", "--shell");
const WRAPPERS: Readonly<Record<string, WrapperSyntax>> = {
  sudo: {
    valueOptions: set(
      "-u",
      "-g",
      "-C",
      "-D",
      "-h",
      "-p",
      "-r",
      "-t",
      "-T",
      "-U",
      "--user",
      "--group",
      "--chdir",
      "--prompt",
      "--role",
      "--type",
      "--other-user",
      "--host",
      "--close-from",
      "--command-timeout",
    ),
    assignments: true,
  },
  doas: { valueOptions: set("-u", "-C") },
  pkexec: { valueOptions: set("--user") },
  run0: {
    valueOptions: set(
      "-u",
      "--user",
      "-g",
      "--group",
      "-D",
      "--chdir",
      "--setenv",
      "--unit",
      "--property",
      "--description",
      "--slice",
      "--nice",
    ),
  },
  env: { valueOptions: set("-u", "--unset", "-C", "--chdir"), assignments: true },
  nohup: { valueOptions: set() },
  busybox: { valueOptions: set() },
  setsid: { valueOptions: set() },
  builtin: { valueOptions: set() },
  command: { valueOptions: set(), lookupOptions: set("-v", "-V") },
  exec: { valueOptions: set("-a") },
  time: { valueOptions: set("-o", "-f", "--output", "--format") },
  nice: { valueOptions: set("-n", "--adjustment") },
  ionice: { valueOptions: set("-c", "-n", "--class", "--classdata") },
  chrt: { valueOptions: set(), operands: 1 },
  taskset: { valueOptions: set(), operands: 1 },
  stdbuf: { valueOptions: set("-i", "-o", "-e") },
  timeout: { valueOptions: set("-s", "-k", "--signal", "--kill-after"), operands: 1 },
  flock: { valueOptions: set("-w", "-E", "--timeout", "--conflict-exit-code"), operands: 1 },
  xargs: {
    valueOptions: set(
      "-I",
      "-n",
      "-P",
      "-d",
      "-E",
      "-L",
      "-s",
      "-a",
      "--max-args",
      "--max-procs",
      "--delimiter",
      "--arg-file",
      "--max-lines",
      "--max-chars",
      "--eof",
    ),
  },
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Whether a word is a leading `NAME=value` assignment (unquoted name), not a program. */
export function isAssignment(word: Word): boolean {
  const first = word.parts[0];
  return first?.kind === "text" && !first.quoted && ASSIGNMENT.test(first.text);
}

// The programs a command runs, outermost first: `sudo env X=1 rm -rf /` gives sudo, env, rm.
export function unwrap(words: Word[]): Invocation[] {
  const chain: Invocation[] = [];
  let rest = words;
  while (rest.length > 0) {
    rest = dropLeading(
      rest,
      (word) => isAssignment(word) || SHELL_RESERVED_WORDS.has(literalWord(word) ?? ""),
    );
    const program = rest.length > 0 ? literalWord(rest[0]) : null;
    if (program === null || program === "") break;
    const name = program.split("/").pop() || program;
    const args = rest.slice(1);
    chain.push({ name, args });
    const syntax = WRAPPERS[name];
    if (syntax === undefined) break;
    const lookup = syntax.lookupOptions;
    if (lookup && args.some((arg) => lookup.has(literalWord(arg) ?? ""))) break;
    rest = skipOptions(args, syntax.valueOptions).slice(syntax.operands ?? 0);
    if (syntax.assignments) rest = dropLeading(rest, isAssignment);
  }
  return chain;
}

function dropLeading(words: Word[], drop: (word: Word) => boolean): Word[] {
  let i = 0;
  while (i < words.length && drop(words[i])) i++;
  return words.slice(i);
}

export function skipOptions(args: Word[], valueOptions: ReadonlySet<string>): Word[] {
  let i = 0;
  while (i < args.length) {
    const text = literalWord(args[i]);
    if (text === "--") return args.slice(i + 1);
    if (text === null || !text.startsWith("-") || text === "-") break;
    i += valueOptions.has(text) ? 2 : 1;
  }
  return args.slice(i);
}
