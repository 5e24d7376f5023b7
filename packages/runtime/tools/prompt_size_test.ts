import assert from "node:assert/strict";
import { measureFirstRequest } from "./prompt_size.ts";
import { BUILTIN_TOOLS } from "@daedalus/tools";
import { builtinToolManifest } from "./manifest.ts";

/**
 * Issue 13's budget for the system prompt plus the tool schemas ("10 KB"), held with all
 * 23 built-in tools (its 21 and issue 21's `ask_user` and `plan`).
 */
const PROMPT_MAX_BYTES = 10_000;

Deno.test("a fresh thread's first request carries at most 10 KB of system prompt and tool schemas", () => {
  const size = measureFirstRequest();
  const rows = size.tools.map((tool) =>
    `  ${tool.name.padEnd(15)} ${String(tool.bytes).padStart(5)} B ` +
    `(description ${tool.descriptionBytes}, parameters ${tool.parametersBytes})`
  );
  console.log(
    [
      `system message  ${size.systemBytes} B`,
      ...rows,
      `tools array     ${size.toolsBytes} B (${size.tools.length} tools)`,
      `total           ${size.totalBytes} B`,
    ].join("\n"),
  );
  assert.equal(size.tools.length, 23, "every built-in tool is offered");
  assert.ok(
    size.totalBytes <= PROMPT_MAX_BYTES,
    `system prompt + tool schemas are ${size.totalBytes} B, over ${PROMPT_MAX_BYTES} B`,
  );
});

Deno.test("every tool schema the model reads is plain: no $schema URL, no safe-integer bounds", () => {
  for (const tool of builtinToolManifest()) {
    const text = JSON.stringify(tool.parameters);
    assert.ok(!text.includes("$schema"), `${tool.name} carries a $schema URL`);
    assert.ok(
      !text.includes(String(Number.MAX_SAFE_INTEGER)),
      `${tool.name} carries the safe-integer bound`,
    );
    for (const rule of stringRules(tool.parameters)) {
      assert.fail(`${tool.name} shows the model a string rule: ${rule}`);
    }
  }
});

/** The `pattern`/`minLength`/`maxLength` of every string schema inside a JSON Schema. */
function stringRules(schema: unknown, at = "parameters"): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found = node.type === "string"
    ? ["pattern", "minLength", "maxLength"].filter((key) => key in node).map((key) =>
      `${at}.${key}`
    )
    : [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [name, child] of Object.entries(value)) {
        found.push(...stringRules(child, `${at}.${name}`));
      }
    } else if (typeof value === "object") found.push(...stringRules(value, `${at}.${key}`));
  }
  return found;
}

Deno.test("a rule left out of the model's schema is still enforced, naming the field", () => {
  const thread = BUILTIN_TOOLS.find((tool) => tool.id === "thread_rename")!;
  const parsed = thread.params.safeParse({ threadId: "thread_nope", title: "x" });
  assert.ok(!parsed.success, "a malformed id is refused");
  assert.deepEqual(parsed.error.issues[0]!.path, ["threadId"]);
});
