import assert from "node:assert/strict";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { ToolError } from "../tool.ts";
import { grepTool } from "./grep.ts";
import { openLineSearch } from "./line_search.ts";

// Linear, but slow: this pattern defeats RE2's DFA over random a/b text, and the NFA then
// takes hundreds of steps per character (about 20 s for this line on the development machine).
const SLOW_PATTERN = "(?i)a[ab]{600}c";
const LONG_LINE = randomAbText(1_000_000);

function randomAbText(length: number): string {
  let seed = 1;
  let text = "";
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    text += seed < 1073741824 ? "a" : "b";
  }
  return text;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "settled";
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return error.code;
  }
}

Deno.test("a search in its Worker finds lines and reports pattern errors by code", async () => {
  const signal = new AbortController().signal;
  using search = await openLineSearch("^h.t$", { ignoreCase: true, signal });
  assert.deepEqual(await search.matchingLines("HIT\nmiss\r\nhot\r\n", 10), [0, 2]);
  assert.equal(
    await codeOf(openLineSearch("(a)\\1", { ignoreCase: false, signal })),
    "regex_backreference_unsupported",
  );
});

Deno.test("a search that runs out of time is stopped with grep_timeout", async () => {
  const signal = new AbortController().signal;
  using search = await openLineSearch(SLOW_PATTERN, {
    ignoreCase: false,
    signal,
    timeLimitMs: 300,
  });
  assert.equal(await codeOf(search.matchingLines(LONG_LINE, 1)), "grep_timeout");
  assert.equal(await codeOf(search.matchingLines("q", 1)), "grep_timeout", "stays stopped");
});

Deno.test("cancelling a running search settles it as cancelled", async () => {
  const controller = new AbortController();
  using search = await openLineSearch(SLOW_PATTERN, {
    ignoreCase: false,
    signal: controller.signal,
  });
  const running = search.matchingLines(LONG_LINE, 1);
  setTimeout(() => controller.abort(), 100);
  assert.equal(await codeOf(running), "cancelled");
});

Deno.test("grep answers a catastrophic pattern over a long line of a's", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("a.txt", `${"a".repeat(200_000)}!\n${"a".repeat(50_000)}\n`);
  const result = await executeTool(grepTool, { pattern: "^(a+)+$" }, ws.context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(result.details?.count, 1);
  assert.match(result.content, /^a\.txt:2:a{2000} …/);
  const refused = await executeTool(grepTool, { pattern: "(a)\\1" }, ws.context);
  assert.equal(refused.errorCode, "regex_backreference_unsupported");
});
