/**
 * A command line as the simple commands a shell would run, each as its words, for matching
 * permission rules' command prefixes word by word. It reads the line with the same shell
 * parser as the high-risk stage (`shell_words.ts`): quoting, operators, substitutions
 * (`$(…)`, `` `…` ``, `<(…)`: their commands are listed too, so a rule about `rm` also sees
 * the `rm` in `ls; rm x` or `echo "$(rm x)"`), redirections and here-documents. What it does
 * not see through: commands that run other commands (`sh -c`, `xargs`, `env`, `sudo`),
 * aliases and functions — the high-risk stage (which does) and the process sandbox stay
 * underneath.
 *
 * A line the shell would reject as unbalanced has no simple commands it can vouch for:
 * {@linkcode simpleCommands} returns null, and the rules then let no `allow` match it while
 * every `ask` and `deny` with a command prefix does (the safe side).
 *
 * @module
 */
import {
  literalWord,
  parseShell,
  type Redirect,
  ShellParseError,
  type ShellScript,
  type Word,
  wordSource,
} from "./shell_words.ts";
import { isAssignment, SHELL_RESERVED_WORDS } from "./_wrappers.ts";

/** One simple command of a command line. */
export interface CommandWords {
  /**
   * Its words, quotes removed (an expansion kept as its source, e.g. `$(id)`); leading
   * `VAR=value` assignments and shell keywords dropped.
   */
  readonly words: readonly string[];
  /** Whether it redirects output to a file (not `/dev/null`, not another descriptor). */
  readonly writesFile: boolean;
}

/**
 * Words that open or close a compound command; the command proper comes after them (the
 * shell's reserved words, plus the subshell's parentheses and `time`).
 */
const SHELL_KEYWORDS: ReadonlySet<string> = new Set([...SHELL_RESERVED_WORDS, "(", ")", "time"]);
/** Redirections that write (`>`, `>>`, `>|`, `&>`, `&>>`, `>&file`, `<>`). */
const OUTPUT_REDIRECTS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);

/**
 * Splits a command line into its simple commands.
 *
 * @param line the command line as the model wrote it
 * @returns the simple commands in order (those with no words left out), or null when the
 *   line is unbalanced (see the module notes)
 * @example
 * ```ts
 * simpleCommands("FOO=1 git status -s && echo \"$(rm -rf x)\"")?.map((c) => c.words);
 * // [["git", "status", "-s"], ["echo", "$(rm -rf x)"], ["rm", "-rf", "x"]]
 * ```
 */
export function simpleCommands(line: string): CommandWords[] | null {
  const commands: CommandWords[] = [];
  return collect(line, commands) ? commands : null;
}

/** Adds the commands of a (sub)script; false when some part of it cannot be parsed. */
function collect(source: string, into: CommandWords[]): boolean {
  let script: ShellScript;
  try {
    script = parseShell(source);
  } catch (error) {
    if (error instanceof ShellParseError) return false;
    throw error;
  }
  return collectScript(script, into);
}

function collectScript(script: ShellScript, into: CommandWords[]): boolean {
  let parsed = true;
  for (const definition of script.functions) {
    parsed = collectScript(definition.body, into) && parsed;
  }
  for (const pipeline of script.pipelines) {
    for (const stage of pipeline.stages) {
      const words = stage.words.map(wordText);
      let start = 0;
      while (start < words.length) {
        const first = stage.words[start]!;
        if (!SHELL_KEYWORDS.has(words[start] ?? "") && !isAssignment(first)) break;
        start++;
      }
      if (start < words.length) {
        into.push({ words: words.slice(start), writesFile: stage.redirects.some(writesFile) });
      }
      const inner = [
        ...stage.words,
        ...stage.arrayValues,
        ...stage.redirects.flatMap((r) => r.heredoc ? [r.target, r.heredoc] : [r.target]),
      ];
      for (const word of inner) {
        for (const part of word.parts) {
          if (part.kind === "command") parsed = collect(part.script, into) && parsed;
        }
      }
    }
  }
  return parsed;
}

function wordText(word: Word): string {
  return literalWord(word) ?? wordSource(word);
}

function writesFile(redirect: Redirect): boolean {
  if (!OUTPUT_REDIRECTS.has(redirect.op)) return false;
  const target = literalWord(redirect.target);
  if (target === "/dev/null") return false;
  // `2>&1`, `>&-`: another descriptor, not a file.
  return !(redirect.op === ">&" && target !== null && /^\d*-?$/.test(target));
}

/**
 * Splits a rule's command prefix into its words.
 *
 * @param prefix a prefix of plain words (validated by the rule schema)
 * @returns its words
 */
export function prefixWords(prefix: string): string[] {
  return prefix.split(/[ \t]+/).filter((word) => word !== "");
}

/**
 * Whether a simple command starts with the given words, word by word (`git status`
 * starts `git status -s`, not `git statusx`).
 *
 * @param command the simple command
 * @param prefix the words
 * @returns true when each word of the prefix equals the command's word at that place
 */
export function startsWithWords(command: CommandWords, prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= command.words.length &&
    prefix.every((word, index) => command.words[index] === word);
}
