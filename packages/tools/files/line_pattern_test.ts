import assert from "node:assert/strict";
import { ToolError } from "../tool.ts";
import { compileLinePattern, matchingLineIndexes } from "./line_pattern.ts";

function codeOf(pattern: string): string {
  try {
    compileLinePattern(pattern, false);
    return "compiled";
  } catch (error) {
    assert.ok(error instanceof ToolError, `${pattern} threw ${error}`);
    return error.code;
  }
}

Deno.test("a catastrophic-backtracking pattern answers over a long line", () => {
  // A JavaScript RegExp runs for ever on this; RE2 answers in one pass.
  const nested = compileLinePattern("^(a+)+$", false);
  assert.equal(nested.test(`${"a".repeat(100_000)}!`), false);
  assert.equal(nested.test("a".repeat(100_000)), true);
  assert.equal(compileLinePattern("(x+x+)+y", false).test("x".repeat(50_000)), false);
});

Deno.test("what RE2 cannot do is refused with a code naming the feature", () => {
  assert.equal(codeOf("(a)\\1"), "regex_backreference_unsupported");
  assert.equal(codeOf("(?<n>a)\\k<n>"), "regex_backreference_unsupported");
  assert.equal(codeOf("foo(?=bar)"), "regex_lookahead_unsupported");
  assert.equal(codeOf("foo(?!bar)"), "regex_lookahead_unsupported");
  assert.equal(codeOf("(?<=x)y"), "regex_lookbehind_unsupported");
  assert.equal(codeOf("(?<!x)y"), "regex_lookbehind_unsupported");
  assert.equal(codeOf("(\\pL|\\pN){900}"), "regex_too_large");
  assert.equal(codeOf("("), "invalid_arguments");
  assert.equal(codeOf("a{2000}"), "invalid_arguments");
  try {
    compileLinePattern("foo(?=bar)", false);
  } catch (error) {
    assert.match(String(error), /lookahead.*RE2/);
  }
});

Deno.test("escapes and classes are read as written, not mistaken for refused features", () => {
  assert.ok(compileLinePattern("\\\\1", false).test("a\\1"), "an escaped backslash then 1");
  assert.ok(compileLinePattern("[(?=]x", false).test("=x"), "(?= inside a class");
  assert.ok(compileLinePattern("[]a]", false).test("]"), "] first in a class");
  assert.ok(compileLinePattern("[^]a]", false).test("b"));
  assert.ok(compileLinePattern("\\u0041\\u{1F600}", false).test("A😀"), "JavaScript \\u escapes");
  assert.ok(compileLinePattern("(?<word>\\w+)=\\d+", false).test("x=1"), "named groups");
  assert.ok(compileLinePattern("(?:ab)+$", false).test("abab"));
});

Deno.test("ignoreCase maps to RE2's case-insensitive flag", () => {
  assert.ok(compileLinePattern("todo", true).test("A TODO here"));
  assert.ok(!compileLinePattern("todo", false).test("A TODO here"));
  assert.ok(compileLinePattern("(?i)todo", false).test("TODO"), "inline flags work too");
});

Deno.test("matching line indexes strip \\r, stop at max, at the deadline and on cancel", async () => {
  const pattern = compileLinePattern("^hit$", false);
  assert.deepEqual(await matchingLineIndexes(pattern, "hit\r\nmiss\nhit\nhit", 10), [0, 2, 3]);
  assert.deepEqual(await matchingLineIndexes(pattern, "hit\nhit\nhit", 2), [0, 1]);
  await assert.rejects(
    matchingLineIndexes(pattern, "hit\n".repeat(1000), 2000, { deadline: performance.now() - 1 }),
    (error: unknown) => error instanceof ToolError && error.code === "grep_timeout",
  );
  // A slow pattern over many lines: the pause between slices lets the abort in.
  const slow = compileLinePattern("(?i)a[ab]{600}c", false);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(
    matchingLineIndexes(slow, `${"ab".repeat(500)}\n`.repeat(100_000), 1, {
      signal: controller.signal,
    }),
    (error: unknown) => error instanceof ToolError && error.code === "cancelled",
  );
});
