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
import { GREP_MATCH_SLICE_MS, GREP_PATTERN_MAX_PROGRAM_SIZE } from "../limits.ts";

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

/** When {@linkcode matchingLineIndexes} gives up or pauses. */
export interface MatchBounds {
  /** `performance.now()` past which the search stops with `grep_timeout`. */
  deadline?: number;
  /** Checked at each pause: a cancelled search stops with `cancelled`. */
  signal?: AbortSignal;
}

/**
 * The 0-based indexes of the lines of `text` that match, at most `max` of them. Lines are
 * split at `\n` with a trailing `\r` removed, as grep shows them. Every
 * {@linkcode GREP_MATCH_SLICE_MS} it lets the event loop run, so a cancel message reaches the
 * thread it runs on.
 *
 * @param pattern the compiled pattern
 * @param text the file's text
 * @param max most indexes returned
 * @param bounds deadline and cancellation
 * @returns the indexes, ascending
 * @throws {ToolError} `grep_timeout` past the deadline, `cancelled` once the signal fires
 */
export async function matchingLineIndexes(
  pattern: LinePattern,
  text: string,
  max: number,
  bounds: MatchBounds = {},
): Promise<number[]> {
  const found: number[] = [];
  const lines = text.split("\n");
  let sliceEnd = performance.now() + GREP_MATCH_SLICE_MS;
  for (let index = 0; index < lines.length && found.length < max; index++) {
    if (index % 64 === 0) {
      if (performance.now() > (bounds.deadline ?? Infinity)) throw searchTimedOut();
      if (performance.now() > sliceEnd) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (bounds.signal?.aborted) throw new ToolError("cancelled", "The search was cancelled");
        sliceEnd = performance.now() + GREP_MATCH_SLICE_MS;
      }
    }
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
