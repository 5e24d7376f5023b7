import assert from "node:assert/strict";
import { PROVIDER_FAILURE_CATEGORIES } from "@daedalus/protocol";
import {
  breakerOutcome,
  countsAsFailure,
  FAILURE_CODES,
  NON_FAILURE_CODES,
} from "./failure_codes.ts";

Deno.test("countsAsFailure: the tool's faults count, the caller's mistakes do not", () => {
  const table: [string | undefined, boolean][] = [
    ["tool_failed", true],
    ["tool_unavailable", true],
    ["file_system_error", true],
    ["spawn_failed", true],
    ["provider_server", true],
    ["provider_rate_limit", true],
    ["provider_network", true],
    ["invalid_arguments", false],
    ["permission_denied", false],
    ["cancelled", false],
    ["file_not_found", false],
    ["stale_content", false],
    ["repeated_call", false],
    ["circuit_open", false],
    ["provider_authentication", false],
    ["provider_invalid_request", false],
    // A code nobody classed (a new tool's, an MCP server's) is a fault a breaker exists for.
    ["mcp_server_exploded", true],
    [undefined, true],
    ["", true],
  ];
  for (const [code, expected] of table) {
    assert.equal(countsAsFailure(code), expected, `countsAsFailure(${JSON.stringify(code)})`);
  }
});

Deno.test("the two lists are disjoint and every listed code has the counted answer", () => {
  for (const code of FAILURE_CODES) {
    assert.ok(!NON_FAILURE_CODES.has(code), `${code} is in both lists`);
    assert.equal(countsAsFailure(code), true, code);
  }
  for (const code of NON_FAILURE_CODES) assert.equal(countsAsFailure(code), false, code);
});

Deno.test("every provider failure category is classed", () => {
  for (const category of PROVIDER_FAILURE_CATEGORIES) {
    const code = `provider_${category}`;
    assert.ok(
      FAILURE_CODES.has(code) || NON_FAILURE_CODES.has(code),
      `${code} is in neither list: decide whether it says the provider is unwell`,
    );
  }
});

Deno.test("every error code the built-in tools produce is classed", async () => {
  const root = new URL("../", import.meta.url);
  // The shapes code literals take in this package: constructors, helpers and result fields.
  const literal =
    /(?:new (?:ToolError|ProcessError)|codedError|failure)\(\s*"([a-z][a-z_]*)"|(?:errorCode|code):\s*"([a-z][a-z_]*)"/g;
  // zod's issue code, not a tool error code.
  const notToolCodes = new Set(["custom"]);
  const unclassed: string[] = [];
  let seen = 0;
  for await (const path of sourceFiles(root)) {
    const text = await Deno.readTextFile(path);
    for (const match of text.matchAll(literal)) {
      const code = match[1] ?? match[2] ?? "";
      if (notToolCodes.has(code)) continue;
      seen++;
      if (!FAILURE_CODES.has(code) && !NON_FAILURE_CODES.has(code)) {
        unclassed.push(`${code} (${path.slice(root.pathname.length)})`);
      }
    }
  }
  assert.ok(seen > 40, `the scan found only ${seen} code literals: is the pattern still right?`);
  assert.deepEqual(unclassed, [], "add each to FAILURE_CODES or NON_FAILURE_CODES");
});

Deno.test("breakerOutcome maps a tool result to success, failure or ignored", () => {
  const table: [{ isError?: boolean; errorCode?: string }, string][] = [
    [{}, "success"],
    [{ isError: false, errorCode: "tool_failed" }, "success"],
    [{ isError: true, errorCode: "tool_failed" }, "failure"],
    [{ isError: true }, "failure"],
    [{ isError: true, errorCode: "invalid_arguments" }, "ignored"],
    [{ isError: true, errorCode: "cancelled" }, "ignored"],
  ];
  for (const [result, expected] of table) {
    assert.equal(breakerOutcome(result), expected, JSON.stringify(result));
  }
});

async function* sourceFiles(folder: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), folder);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
      if (!entry.name.startsWith("_testing")) yield url.pathname;
    }
  }
}
