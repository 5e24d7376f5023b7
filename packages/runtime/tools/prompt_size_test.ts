import assert from "node:assert/strict";
import { measureFirstRequest } from "./prompt_size.ts";
import { builtinToolManifest } from "./manifest.ts";

/**
 * Issue 13's budget for the system prompt plus the tool schemas of its 21 tools ("10 KB"),
 * plus 700 B for issue 21's two conversation tools (`ask_user`, `plan`: ~1.1 KB together,
 * the rest paid for by the shortest descriptions they can have).
 */
const PROMPT_MAX_BYTES = 10_700;

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
  }
});
