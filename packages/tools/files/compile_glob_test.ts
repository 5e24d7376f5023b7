import assert from "node:assert/strict";
import { ToolError } from "../tool.ts";
import { compileGlob } from "./traversal.ts";

function codeOf(pattern: string): string {
  try {
    compileGlob(pattern);
    return "compiled";
  } catch (error) {
    assert.ok(error instanceof ToolError, `${pattern} threw ${error}`);
    return error.code;
  }
}

Deno.test("globs that would backtrack exponentially as a RegExp answer at once", () => {
  // As a JavaScript RegExp this is (?:[^/]*|[^/]*) 25 times over: 2^25 ways to fail.
  const nested = compileGlob(`${"{*,*}".repeat(25)}.ts`);
  assert.equal(nested(`src/${"a".repeat(60)}.tsx`), false);
  assert.equal(nested(`src/${"a".repeat(60)}.ts`), true);
});

Deno.test("a glob too complex to match every path against, or malformed, is refused", () => {
  assert.equal(codeOf("{*a,*b,*c}".repeat(200)), "invalid_arguments");
  assert.equal(codeOf("{a,b,c,d,e,f,g,h,i,j}".repeat(200)), "compiled", "one class per group");
  assert.equal(codeOf("[z-a].ts"), "invalid_arguments");
  assert.equal(codeOf("src/**/*.{ts,tsx}"), "compiled");
});
