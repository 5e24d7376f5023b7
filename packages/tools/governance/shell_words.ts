/**
 * A POSIX/bash command line split into words and simple commands, as far as the high-risk
 * classifier needs it: quotes and escapes are removed, `$NAME`, `${…}`, `$(…)`, backticks and
 * `<(…)` stay marked (they are only known when the shell runs), operators split commands and
 * pipelines, redirections and here-documents are kept apart from the words, and function
 * definitions are recognised (a fork bomb is one). It never runs or expands anything.
 *
 * Anything the shell itself would reject as unbalanced (a quote, `$(`, a backtick, a
 * redirection without a target) throws {@linkcode ShellParseError}: the caller treats such a
 * line as unknown, never as harmless.
 *
 * @module
 */
import { SHELL_PARSE_MAX_NESTING } from "../limits.ts";
import {
  lexShell,
  literalWord,
  type Redirect,
  ShellParseError,
  type Token,
  type Word,
} from "./_shell_lexer.ts";

export {
  literalWord,
  type Redirect,
  ShellParseError,
  type Word,
  type WordPart,
  wordSource,
} from "./_shell_lexer.ts";

/** A simple command: its words (assignments and the program included) and redirections. */
export interface SimpleCommand {
  /** The words in order, as the shell would see them before expansion. */
  words: Word[];
  /** The redirections, in order. */
  redirects: Redirect[];
  /** Values of array assignments (`list=(a "b c")`): data, though their `$(…)` parts run. */
  arrayValues: Word[];
}

/** Commands joined by `|`, run together; `background` when the list ended with `&`. */
export interface Pipeline {
  /** The stages, left to right (one for a command without a pipe). */
  stages: SimpleCommand[];
  /** Whether `&` sent it to the background. */
  background: boolean;
}

/** `name() { … }` or `function name { … }`. */
export interface FunctionDefinition {
  /** The function's name. */
  name: string;
  /** Its body. */
  body: ShellScript;
}

/** A parsed command line: its pipelines in order and the functions it defines. */
export interface ShellScript {
  /** Every pipeline outside function bodies, in order. */
  pipelines: Pipeline[];
  /** Every function definition, in order. */
  functions: FunctionDefinition[];
}

/**
 * Parses a shell command line.
 *
 * @param source The command line, as `/bin/sh -c` would receive it.
 * @returns Its pipelines and function definitions.
 * @throws {ShellParseError} When a quote, substitution or redirection is unbalanced.
 * @example
 * ```ts
 * import { parseShell } from "@daedalus/tools";
 *
 * const script = parseShell("cd build && rm -rf out | tee log");
 * console.log(script.pipelines.length); // 2
 * ```
 */
export function parseShell(source: string): ShellScript {
  return buildScript(lexShell(source));
}

const CONTROL_OPERATORS = new Set([";", "&&", "||", "&", "\n", ";;"]);

function buildScript(tokens: Token[], depth = 0): ShellScript {
  if (depth > SHELL_PARSE_MAX_NESTING) {
    throw new ShellParseError(`Functions are nested more than ${SHELL_PARSE_MAX_NESTING} deep`);
  }
  const script: ShellScript = { pipelines: [], functions: [] };
  let stages: SimpleCommand[] = [];
  let command: SimpleCommand = { words: [], redirects: [], arrayValues: [] };
  const endCommand = () => {
    if (command.words.length > 0 || command.redirects.length > 0) stages.push(command);
    command = { words: [], redirects: [], arrayValues: [] };
  };
  const endPipeline = (background: boolean) => {
    endCommand();
    if (stages.length > 0) script.pipelines.push({ stages, background });
    stages = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === "word") {
      const keyword = command.words.length === 0 && literalWord(token.word) === "function";
      const name = keyword && tokens[i + 1]?.kind === "word"
        ? literalWord((tokens[i + 1] as { word: Word }).word)
        : null;
      if (name !== null) {
        const parens = isOp(tokens[i + 2], "(") && isOp(tokens[i + 3], ")");
        i = readFunction(tokens, parens ? i + 4 : i + 2, name, script, depth) - 1;
        continue;
      }
      command.words.push(token.word);
    } else if (token.kind === "redirect") {
      command.redirects.push(token.redirect);
    } else if (token.op === "|" || token.op === "|&") {
      if (command.words.length === 0 && command.redirects.length === 0) {
        throw new ShellParseError(`Pipe ${token.op} has no command before it`);
      }
      endCommand();
    } else if (token.op === "(") {
      if (command.words.length === 0) continue; // a subshell: its commands run all the same
      const last = command.words.at(-1);
      if (last !== undefined && ARRAY_ASSIGNMENT.test(literalWord(last) ?? "")) {
        i = readArrayValues(tokens, i + 1, command.arrayValues) - 1;
        continue;
      }
      const name = command.words.length === 1 ? literalWord(command.words[0]) : null;
      if (name === null || !isOp(tokens[i + 1], ")")) {
        throw new ShellParseError("Parenthesis ( is not where a command can start");
      }
      command = { words: [], redirects: [], arrayValues: [] };
      i = readFunction(tokens, i + 2, name, script, depth) - 1;
    } else if (token.op === ")") {
      // `( … ) | next`: the group's last command feeds the next stage.
      if (isOp(tokens[i + 1], "|") || isOp(tokens[i + 1], "|&")) {
        endCommand();
        i++;
      } else endPipeline(false);
    } else if (CONTROL_OPERATORS.has(token.op)) {
      endPipeline(token.op === "&");
    }
  }
  endPipeline(false);
  return script;
}

const ARRAY_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/;

// Reads `a b …)` after `name=(`, newlines allowed; returns the index after the `)`.
function readArrayValues(tokens: Token[], start: number, into: Word[]): number {
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === "word") into.push(token.word);
    else if (isOp(token, ")")) return i + 1;
    else if (!isOp(token, "\n")) break;
  }
  throw new ShellParseError("Array assignment ( is not closed");
}

// Reads a function body (`{ … }` or `( … )`) starting at `start`; returns the index after it.
function readFunction(
  tokens: Token[],
  start: number,
  name: string,
  script: ShellScript,
  nesting: number,
): number {
  let i = start;
  while (isOp(tokens[i], "\n")) i++;
  const first = tokens[i];
  const brace = first?.kind === "word" && literalWord(first.word) === "{";
  if (!brace && !isOp(first, "(")) {
    throw new ShellParseError(`Function ${name} has no body in braces or parentheses`);
  }
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    const token = tokens[j];
    const text = token.kind === "word" ? literalWord(token.word) : null;
    if (brace ? text === "{" : isOp(token, "(")) depth++;
    if (brace ? text === "}" : isOp(token, ")")) depth--;
    if (depth === 0) {
      script.functions.push({ name, body: buildScript(tokens.slice(i + 1, j), nesting + 1) });
      return j + 1;
    }
  }
  throw new ShellParseError(`Body of function ${name} is not closed`);
}

function isOp(token: Token | undefined, op: string): boolean {
  return token?.kind === "op" && token.op === op;
}
