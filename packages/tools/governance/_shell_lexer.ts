/**
 * The lexer of {@linkcode parseShell}: a command line as words (quotes and escapes removed,
 * expansions marked), operators and redirections (here-document bodies attached).
 *
 * @module
 */
import { SHELL_PARSE_MAX_NESTING } from "../limits.ts";

/** One piece of a word: literal text, a parameter, or a command the shell would run. */
export type WordPart =
  /** Text after quote removal; `quoted` when it came from quotes or an escape. */
  | { kind: "text"; text: string; quoted: boolean }
  /** `$NAME`, `$1`, `${NAME…}` (name holds what was between the braces). */
  | { kind: "param"; name: string; quoted: boolean }
  /** `$(…)`, a backtick pair, `<(…)` or `>(…)`: the text of the inner command line. */
  | { kind: "command"; script: string; quoted: boolean };

/** A word of a command line: the parts that the shell would join after expansion. */
export interface Word {
  /** The parts in order. */
  parts: WordPart[];
}

/** A redirection (`>`, `2>>`, `<<EOF`, …) and what it names. */
export interface Redirect {
  /** The operator without its file descriptor number (`>`, `>>`, `<<`, `<<<`, `&>`, …). */
  op: string;
  /** Its target word (for a here-document, the delimiter). */
  target: Word;
  /** A here-document's body; its `$(…)` parts are marked unless the delimiter was quoted. */
  heredoc?: Word;
}

/** A command line the shell would reject as unbalanced; `code` is `unparseable_command`. */
export class ShellParseError extends Error {
  /** Stable code: the line cannot be parsed. */
  readonly code = "unparseable_command";
  /**
   * Makes the error.
   *
   * @param message What is unbalanced, sentence case, without a trailing period.
   */
  constructor(message: string) {
    super(message);
    this.name = "ShellParseError";
  }
}

/** What the lexer yields: a word, a control operator, or a redirection with its target. */
export type Token =
  | { kind: "word"; word: Word }
  | { kind: "op"; op: string }
  | { kind: "redirect"; redirect: Redirect };

// Longest first, so `&&` is not read as two `&`.
const OPERATORS = "&>> <<< <<- && || ;; |& &> >> >| >& << <& <> ; & | ( ) < >".split(" ");
// Every operator starts with one of these; other characters skip the search.
const OPERATOR_STARTS = new Set("&<>|;()");
const REDIRECTIONS = new Set("&>> <<< <<- &> >> >| >& << <& <> < >".split(" "));
const BLANKS = new Set([" ", "\t"]);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMS = new Set([
  "@",
  "*",
  "#",
  "?",
  "-",
  "$",
  "!",
  "0",
  "1",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "8",
  "9",
]);

/**
 * Splits a command line into tokens.
 *
 * @throws {ShellParseError} When a quote, substitution or redirection is unbalanced.
 */
export function lexShell(source: string): Token[] {
  return new Lexer(source).tokens();
}

/** The text of a word when it has no parameter or command part, else `null`. */
export function literalWord(word: Word): string | null {
  let text = "";
  for (const part of word.parts) {
    if (part.kind !== "text") return null;
    text += part.text;
  }
  return text;
}

/**
 * A word written back as shell source that means the same to an inner shell: what the
 * outer shell removed (quotes) is gone, what it would expand is written as `${…}`/`$(…)`.
 * Used for `sh -c`, `eval` and here-documents, whose text a second shell parses again.
 */
export function wordSource(word: Word): string {
  return word.parts.map((part) => {
    if (part.kind === "text") return part.text;
    if (part.kind === "param") return `\${${part.name}}`;
    return `$(${part.script})`;
  }).join("");
}

class Lexer {
  #pos = 0;
  #out: Token[] = [];
  #pendingHeredocs: { redirect: Redirect; strip: boolean; quoted: boolean }[] = [];
  #nesting = 0;

  constructor(readonly src: string) {}

  tokens(): Token[] {
    let word: WordPart[] = [];
    const flush = () => {
      if (word.length > 0) this.#out.push({ kind: "word", word: { parts: mergeText(word) } });
      word = [];
    };
    while (this.#pos < this.src.length) {
      const ch = this.src[this.#pos];
      if (BLANKS.has(ch)) {
        flush();
        this.#pos++;
      } else if (ch === "\\" && this.src[this.#pos + 1] === "\n") {
        this.#pos += 2; // a line continuation joins the lines
      } else if (ch === "#" && word.length === 0) {
        while (this.#pos < this.src.length && this.src[this.#pos] !== "\n") this.#pos++;
      } else if (ch === "\n") {
        flush();
        this.#out.push({ kind: "op", op: "\n" });
        this.#pos++;
        this.#readHeredocBodies();
      } else if ((ch === "<" || ch === ">") && this.src[this.#pos + 1] === "(") {
        this.#pos += 2;
        word.push({
          kind: "command",
          script: this.#readBalanced("process substitution"),
          quoted: false,
        });
      } else {
        const op = this.#operatorHere();
        if (op === undefined) {
          this.#readWordPart(word);
          continue;
        }
        // `2>` and `10>&1`: digits glued to a redirection name its file descriptor.
        const fd = word.length > 0 && REDIRECTIONS.has(op) &&
          word.every((part) => part.kind === "text" && !part.quoted && /^\d+$/.test(part.text));
        if (fd) word = [];
        flush();
        this.#pos += op.length;
        if (REDIRECTIONS.has(op)) this.#readRedirect(op);
        else this.#out.push({ kind: "op", op });
      }
    }
    flush();
    return this.#out;
  }

  // Quotes in substitutions in quotes… recurse; a bound keeps a crafted line off the stack's end.
  #nested<T>(read: () => T): T {
    if (++this.#nesting > SHELL_PARSE_MAX_NESTING) {
      throw new ShellParseError(
        `Quotes and substitutions are nested more than ${SHELL_PARSE_MAX_NESTING} deep`,
      );
    }
    try {
      return read();
    } finally {
      this.#nesting--;
    }
  }

  #operatorHere(): string | undefined {
    if (!OPERATOR_STARTS.has(this.src[this.#pos])) return undefined;
    return OPERATORS.find((candidate) => this.src.startsWith(candidate, this.#pos));
  }

  #readRedirect(op: string): void {
    while (BLANKS.has(this.src[this.#pos] ?? "")) this.#pos++;
    const target: WordPart[] = [];
    while (this.#pos < this.src.length) {
      const ch = this.src[this.#pos];
      if (BLANKS.has(ch) || ch === "\n") break;
      if ((ch === "<" || ch === ">") && this.src[this.#pos + 1] === "(") {
        this.#pos += 2;
        target.push({
          kind: "command",
          script: this.#readBalanced("process substitution"),
          quoted: false,
        });
        continue;
      }
      if (this.#operatorHere() !== undefined) break;
      this.#readWordPart(target);
    }
    if (target.length === 0) throw new ShellParseError(`Redirection ${op} has no target`);
    const redirect: Redirect = { op, target: { parts: mergeText(target) } };
    if (op === "<<" || op === "<<-") {
      const quoted = target.some((part) => part.kind !== "text" || part.quoted);
      this.#pendingHeredocs.push({ redirect, strip: op === "<<-", quoted });
    }
    this.#out.push({ kind: "redirect", redirect });
  }

  // Bodies start on the line after the operator; without its delimiter line, bash reads a
  // body to the end of the input (with a warning), and so does this.
  #readHeredocBodies(): void {
    for (const pending of this.#pendingHeredocs) {
      const delimiter = wordSource(pending.redirect.target);
      const lines: string[] = [];
      while (this.#pos < this.src.length) {
        const end = this.src.indexOf("\n", this.#pos);
        const stop = end === -1 ? this.src.length : end;
        let line = this.src.slice(this.#pos, stop);
        this.#pos = end === -1 ? stop : stop + 1;
        if (pending.strip) line = line.replace(/^\t+/, "");
        if (line === delimiter) break;
        lines.push(line);
      }
      const body = lines.join("\n");
      pending.redirect.heredoc = pending.quoted
        ? { parts: [{ kind: "text", text: body, quoted: true }] }
        : { parts: new Lexer(body).#readDoubleQuoted(null) };
    }
    this.#pendingHeredocs = [];
  }

  #readWordPart(into: WordPart[]): void {
    const ch = this.src[this.#pos];
    if (ch === "'") {
      const end = this.src.indexOf("'", this.#pos + 1);
      if (end === -1) throw new ShellParseError("Single quote is not closed");
      into.push({ kind: "text", text: this.src.slice(this.#pos + 1, end), quoted: true });
      this.#pos = end + 1;
    } else if (ch === '"') {
      this.#pos++;
      into.push(...this.#readDoubleQuoted('"'));
    } else if (ch === "\\") {
      const next = this.src[this.#pos + 1];
      into.push({ kind: "text", text: next ?? "\\", quoted: true });
      this.#pos += next === undefined ? 1 : 2;
    } else if (ch === "$" && this.src[this.#pos + 1] === "'") {
      this.#pos += 2;
      into.push({ kind: "text", text: this.#readAnsiC(), quoted: true });
    } else if (ch === "$" && this.src[this.#pos + 1] === '"') {
      this.#pos += 2;
      into.push(...this.#readDoubleQuoted('"'));
    } else if (ch === "$" || ch === "`") {
      into.push(this.#readExpansion(false));
    } else {
      into.push({ kind: "text", text: ch, quoted: false });
      this.#pos++;
    }
  }

  // Reads to `terminator` (or to the end when it is null, for a here-document body).
  #readDoubleQuoted(terminator: string | null): WordPart[] {
    return this.#nested(() => this.#doubleQuotedParts(terminator));
  }

  #doubleQuotedParts(terminator: string | null): WordPart[] {
    const parts: WordPart[] = [];
    let text = "";
    const flushText = () => {
      if (text !== "") parts.push({ kind: "text", text, quoted: true });
      text = "";
    };
    while (true) {
      if (this.#pos >= this.src.length) {
        if (terminator === null) break;
        throw new ShellParseError("Double quote is not closed");
      }
      const ch = this.src[this.#pos];
      if (ch === terminator) {
        this.#pos++;
        break;
      }
      if (ch === "\\" && /[$`"\\\n]/.test(this.src[this.#pos + 1] ?? "")) {
        const next = this.src[this.#pos + 1];
        if (next !== "\n") text += next;
        this.#pos += 2;
      } else if (ch === "$" || ch === "`") {
        const part = this.#readExpansion(true);
        if (part.kind === "text") text += part.text;
        else {
          flushText();
          parts.push(part);
        }
      } else {
        text += ch;
        this.#pos++;
      }
    }
    flushText();
    if (parts.length === 0) parts.push({ kind: "text", text: "", quoted: true });
    return parts;
  }

  #readExpansion(quoted: boolean): WordPart {
    const src = this.src;
    if (src[this.#pos] === "`") {
      const start = ++this.#pos;
      let script = "";
      while (src[this.#pos] !== "`") {
        if (this.#pos >= src.length) throw new ShellParseError("Backtick is not closed");
        if (src[this.#pos] === "\\" && /[$`\\]/.test(src[this.#pos + 1] ?? "")) this.#pos++;
        script += src[this.#pos++];
      }
      this.#pos++;
      return start === this.#pos - 1
        ? { kind: "text", text: "", quoted }
        : { kind: "command", script, quoted };
    }
    const next = src[this.#pos + 1] ?? "";
    if (next === "(" && src[this.#pos + 2] === "(") {
      // Arithmetic: its value is unknown, like a parameter's.
      this.#pos += 2;
      const inner = this.#readBalanced("arithmetic expansion");
      return { kind: "param", name: `(${inner})`, quoted };
    }
    if (next === "(") {
      this.#pos += 2;
      return { kind: "command", script: this.#readBalanced("command substitution"), quoted };
    }
    if (next === "{") {
      const end = src.indexOf("}", this.#pos + 2);
      if (end === -1) throw new ShellParseError("Parameter expansion ${ is not closed");
      const name = src.slice(this.#pos + 2, end);
      this.#pos = end + 1;
      return { kind: "param", name, quoted };
    }
    if (NAME_START.test(next)) {
      let end = this.#pos + 1;
      while (end < src.length && NAME_CHAR.test(src[end])) end++;
      const name = src.slice(this.#pos + 1, end);
      this.#pos = end;
      return { kind: "param", name, quoted };
    }
    if (SPECIAL_PARAMS.has(next)) {
      this.#pos += 2;
      return { kind: "param", name: next, quoted };
    }
    this.#pos++;
    return { kind: "text", text: "$", quoted };
  }

  // From just after an opening `(` to its matching `)`, skipping quoted and escaped text.
  #readBalanced(what: string): string {
    return this.#nested(() => this.#balancedText(what));
  }

  #balancedText(what: string): string {
    const src = this.src;
    const start = this.#pos;
    let depth = 1;
    while (this.#pos < src.length) {
      const ch = src[this.#pos];
      if (ch === "\\") this.#pos += 2;
      else if (ch === "'") {
        const end = src.indexOf("'", this.#pos + 1);
        if (end === -1) throw new ShellParseError(`Single quote in ${what} is not closed`);
        this.#pos = end + 1;
      } else if (ch === '"') {
        this.#pos++;
        this.#readDoubleQuoted('"');
      } else if (ch === "`") {
        this.#readExpansion(false);
      } else {
        if (ch === "(") depth++;
        if (ch === ")") depth--;
        this.#pos++;
        if (depth === 0) return src.slice(start, this.#pos - 1);
      }
    }
    throw new ShellParseError(`${what[0].toUpperCase()}${what.slice(1)} is not closed`);
  }

  #readAnsiC(): string {
    const escapes: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\x07",
      b: "\b",
      e: "\x1b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
    };
    let text = "";
    while (true) {
      if (this.#pos >= this.src.length) throw new ShellParseError("Quote $' is not closed");
      const ch = this.src[this.#pos];
      if (ch === "'") {
        this.#pos++;
        return text;
      }
      if (ch !== "\\") {
        text += ch;
        this.#pos++;
        continue;
      }
      const rest = this.src.slice(this.#pos + 1);
      const hex = /^x([0-9A-Fa-f]{1,2})/.exec(rest);
      const octal = /^([0-7]{1,3})/.exec(rest);
      if (hex) {
        text += String.fromCharCode(parseInt(hex[1], 16));
        this.#pos += 1 + hex[0].length;
      } else if (octal) {
        text += String.fromCharCode(parseInt(octal[1], 8));
        this.#pos += 1 + octal[0].length;
      } else {
        const next = rest[0] ?? "";
        text += escapes[next] ?? `\\${next}`;
        this.#pos += 2;
      }
    }
  }
}

// The lexer adds text a character at a time; neighbours of the same quoting become one part,
// so `FOO=1` and `of=/dev/sda` start with a part a rule can read.
function mergeText(parts: WordPart[]): WordPart[] {
  const merged: WordPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (part.kind === "text" && last?.kind === "text" && last.quoted === part.quoted) {
      merged[merged.length - 1] = { ...last, text: last.text + part.text };
    } else merged.push(part);
  }
  return merged;
}
