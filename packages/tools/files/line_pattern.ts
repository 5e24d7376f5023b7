/**
 * grep's pattern language: RE2 (via re2js), which matches in time linear in the text, so a
 * model-supplied pattern such as `^(a+)+$` cannot backtrack for ever. The JavaScript escapes
 * models habitually write (`\uXXXX`, `\u{…}`) are accepted; what RE2 cannot do in linear
 * time (backreferences, lookahead, lookbehind) is refused with a code naming the feature.
 *
 * @module
 */
import { RE2JS, RE2JSException } from "re2js";
import { ToolError } from "../tool.ts";
import { GREP_PATTERN_MAX_PROGRAM_SIZE } from "../limits.ts";

/** A compiled line pattern. */
export interface LinePattern {
  /** Whether some part of the line matches. */
  test(line: string): boolean;
}

/** A construct RE2 refuses, with the stable code grep reports for it. */
interface Unsupported {
  code: string;
  feature: string;
}

const BACKREFERENCE: Unsupported = {
  code: "regex_backreference_unsupported",
  feature: "backreferences (\\1, \\k<name>)",
};
const LOOKAHEAD: Unsupported = {
  code: "regex_lookahead_unsupported",
  feature: "lookahead ((?=…), (?!…))",
};
const LOOKBEHIND: Unsupported = {
  code: "regex_lookbehind_unsupported",
  feature: "lookbehind ((?<=…), (?<!…))",
};

/**
 * Compiles a grep pattern.
 *
 * @param pattern the pattern as the model wrote it
 * @param ignoreCase case-insensitive matching
 * @returns the compiled pattern
 * @throws {ToolError} `regex_backreference_unsupported`, `regex_lookahead_unsupported`,
 *   `regex_lookbehind_unsupported`, `regex_too_large`, or `invalid_arguments` for a syntax error
 */
export function compileLinePattern(pattern: string, ignoreCase: boolean): LinePattern {
  const source = toRe2Syntax(pattern);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw new ToolError(
      "invalid_arguments",
      `pattern: not a valid RE2 regular expression (${error.message})`,
      { cause: error },
    );
  }
  const size = compiled.programSize();
  if (size > GREP_PATTERN_MAX_PROGRAM_SIZE) {
    throw new ToolError(
      "regex_too_large",
      `pattern: too large once compiled (${size} > ${GREP_PATTERN_MAX_PROGRAM_SIZE}); ` +
        "use fewer or smaller repetitions",
    );
  }
  return { test: (line) => compiled.test(line) };
}

/**
 * The 0-based indexes of the lines of `text` that match, at most `max` of them. Lines are
 * split at `\n` with a trailing `\r` removed, as grep shows them.
 *
 * @param pattern the compiled pattern
 * @param text the file's text
 * @param max most indexes returned
 * @param deadline `performance.now()` past which the search stops
 * @returns the indexes, ascending
 * @throws {ToolError} `grep_timeout` past the deadline
 */
export function matchingLineIndexes(
  pattern: LinePattern,
  text: string,
  max: number,
  deadline = Infinity,
): number[] {
  const found: number[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length && found.length < max; index++) {
    if (index % 64 === 0 && performance.now() > deadline) throw searchTimedOut();
    const line = lines[index] ?? "";
    if (pattern.test(line.endsWith("\r") ? line.slice(0, -1) : line)) found.push(index);
  }
  return found;
}

/**
 * The error of a search that ran out of time.
 *
 * @returns a `grep_timeout` tool error
 */
export function searchTimedOut(): ToolError {
  return new ToolError(
    "grep_timeout",
    "The search took too long and was stopped; narrow the path or include, or simplify the pattern",
  );
}

/**
 * Rewrites the JavaScript-only escapes RE2 spells differently and refuses what RE2 cannot
 * do. Walks the pattern once, honouring `\` escapes and `[…]` classes.
 */
function toRe2Syntax(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || (next === "k" && pattern[i + 2] === "<"))) {
        throw refuse(BACKREFERENCE);
      }
      const unicode = next === "u"
        ? /^u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/.exec(
          pattern.slice(i + 1),
        )
        : null;
      if (unicode) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        i += unicode[0].length;
        continue;
      }
      out += char + next;
      i++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal in RE2, not the end of the class.
      const literalClose = pattern[i + 1] === "^" ? 2 : 1;
      if (pattern[i + literalClose] === "]") {
        out += pattern.slice(i, i + literalClose + 1);
        i += literalClose;
        continue;
      }
    } else if (char === "(" && pattern[i + 1] === "?") {
      const group = pattern.slice(i + 2, i + 4);
      if (group.startsWith("=") || group.startsWith("!")) throw refuse(LOOKAHEAD);
      if (group === "<=" || group === "<!") throw refuse(LOOKBEHIND);
    }
    out += char;
  }
  return out;
}

function refuse(unsupported: Unsupported): ToolError {
  return new ToolError(
    unsupported.code,
    `pattern: ${unsupported.feature} are not supported; grep uses RE2 syntax, which matches ` +
      "in linear time. Search for a simpler pattern and check the lines you get",
  );
}
