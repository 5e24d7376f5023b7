/**
 * A command line split into the simple commands a shell would run, each as its words,
 * for matching permission rules' command prefixes word by word. Not a shell: enough of
 * POSIX sh's quoting (`'…'`, `"…"`, `\`), operators (`;`, `&`, `|`, `&&`, `||`, newlines,
 * `(`, `)`), substitutions (`$(…)`, `` `…` ``, `<(…)`) and redirections to see every command
 * a line starts, so that a rule about `rm` also sees the `rm` in `ls; rm x` or
 * `echo "$(rm x)"`. What it does not see through: commands that run other commands
 * (`sh -c`, `xargs`, `env`, `sudo`), aliases and functions. The high-risk command stage and
 * the process sandbox stay underneath.
 *
 * @module
 */

/** One simple command of a command line. */
export interface SimpleCommand {
  /**
   * Its words, quotes removed; leading `VAR=value` assignments, shell keywords and empty
   * words dropped.
   */
  readonly words: readonly string[];
  /** Whether it redirects output to a file (not `/dev/null`, not another descriptor). */
  readonly writesFile: boolean;
}

/** Words that open or close a compound command; the command proper comes after them. */
const SHELL_KEYWORDS: ReadonlySet<string> = new Set([
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
  "time",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const BREAKS = new Set([";", "&", "|", "(", ")", "\n", "\r"]);
const BLANKS = new Set([" ", "\t"]);

type Context = "top" | "double" | "substitution" | "backtick";

/**
 * Splits a command line into its simple commands.
 *
 * @param line the command line as the model wrote it
 * @returns the simple commands in order; those with no words are left out
 * @example
 * ```ts
 * simpleCommands("FOO=1 git status -s && echo \"$(rm -rf x)\"").map((c) => c.words);
 * // [["git", "status", "-s"], ["echo"], ["rm", "-rf", "x"]]
 * ```
 */
export function simpleCommands(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  const contexts: Context[] = ["top"];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let writesFile = false;
  let redirect: "none" | "output" | "input" = "none";

  const endWord = () => {
    if (!inWord) return;
    if (redirect === "output") {
      if (word !== "/dev/null" && !/^&?\d*-?$/.test(word)) writesFile = true;
    } else if (redirect === "none") words.push(word);
    redirect = "none";
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    let start = 0;
    while (start < words.length) {
      const first = words[start] ?? "";
      // An empty first word is what is left of `"$(…)"` around a substitution.
      if (first !== "" && !SHELL_KEYWORDS.has(first) && !ASSIGNMENT.test(first)) break;
      start++;
    }
    if (start < words.length) commands.push({ words: words.slice(start), writesFile });
    words = [];
    writesFile = false;
    redirect = "none";
  };

  for (let i = 0; i < line.length; i++) {
    const char = line[i] ?? "";
    const context = contexts[contexts.length - 1] ?? "top";
    const next = line[i + 1];
    if (char === "\\") {
      // A backslash keeps the next character literal (a newline after it joins lines).
      if (next !== undefined && next !== "\n") word += next;
      inWord = true;
      i++;
      continue;
    }
    if (char === "`") {
      endCommand();
      if (context === "backtick") contexts.pop();
      else contexts.push("backtick");
      continue;
    }
    if (char === "$" && next === "(") {
      endCommand();
      contexts.push("substitution");
      i++;
      continue;
    }
    if (context === "double") {
      if (char === '"') contexts.pop();
      else word += char;
      inWord = true;
      continue;
    }
    if (char === '"') {
      contexts.push("double");
      inWord = true;
      continue;
    }
    if (char === "'") {
      const close = line.indexOf("'", i + 1);
      word += line.slice(i + 1, close === -1 ? line.length : close);
      inWord = true;
      i = close === -1 ? line.length : close;
      continue;
    }
    if (char === "#" && !inWord) {
      const newline = line.indexOf("\n", i);
      i = newline === -1 ? line.length : newline - 1;
      continue;
    }
    if ((char === "<" || char === ">") && next === "(") {
      endCommand(); // process substitution: a command of its own
      contexts.push("substitution");
      i++;
      continue;
    }
    if (char === "<" || char === ">") {
      // `2>` and `&>`: the descriptor glued to the operator is not a word of the command.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      } else endWord();
      redirect = char === ">" ? "output" : "input";
      while (line[i + 1] === ">" || line[i + 1] === "<" || line[i + 1] === "|") i++;
      if (line[i + 1] === "&") {
        i++;
        if (redirect === "output" && !/\d|-/.test(line[i + 1] ?? "")) writesFile = true;
      }
      continue;
    }
    if (char === "&" && next === ">") {
      endWord();
      redirect = "output";
      i++;
      if (line[i + 1] === ">") i++;
      continue;
    }
    if (char === ")" && context === "substitution") {
      endCommand();
      contexts.pop();
      continue;
    }
    if (BREAKS.has(char)) {
      endCommand();
      continue;
    }
    if (BLANKS.has(char)) {
      endWord();
      continue;
    }
    word += char;
    inWord = true;
  }
  endCommand();
  return commands;
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
export function startsWithWords(command: SimpleCommand, prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= command.words.length &&
    prefix.every((word, index) => command.words[index] === word);
}
