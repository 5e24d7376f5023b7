import assert from "node:assert/strict";
import { TOOL_PREVIEW_CHARS, TOOL_PREVIEW_LINES, TOOL_SHOWN_MAX_CHARS } from "./limits.ts";
import { argumentsText, textPreview } from "./text_preview.ts";

Deno.test("text preview: short texts whole, long ones folded with a count of what is hidden", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
  const cases: [string, string, number, boolean][] = [
    ["empty", "", 0, false],
    ["a few lines", lines(3), 0, false],
    ["exactly the limit", lines(TOOL_PREVIEW_LINES), 0, false],
    ["one line more", lines(TOOL_PREVIEW_LINES + 1), 1, true],
    ["many more", lines(100), 100 - TOOL_PREVIEW_LINES, true],
    ["one very long line", "x".repeat(TOOL_PREVIEW_CHARS + 10), 1, true],
  ];
  for (const [name, text, hidden, folded] of cases) {
    const preview = textPreview(text);
    assert.equal(preview.hiddenLines, hidden, `${name}: hidden lines`);
    assert.equal(preview.head.endsWith("…"), folded, `${name}: ellipsis`);
    assert.equal(preview.whole, text, `${name}: unfolded is the whole text`);
    assert.ok(preview.head.length <= TOOL_PREVIEW_CHARS + 1, `${name}: head length`);
  }
  const huge = textPreview("y".repeat(TOOL_SHOWN_MAX_CHARS + 5));
  assert.equal(huge.cut, true);
  assert.equal(huge.whole.length, TOOL_SHOWN_MAX_CHARS + 1);
});

Deno.test("text preview: arguments as indented JSON, strings as they are", () => {
  assert.equal(argumentsText({ path: "a.ts" }), '{\n  "path": "a.ts"\n}');
  assert.equal(argumentsText("raw {not json"), "raw {not json");
  assert.equal(argumentsText({}), "");
  assert.equal(argumentsText(null), "");
  assert.equal(argumentsText(undefined), "");
  assert.equal(argumentsText([1, 2]), "[\n  1,\n  2\n]");
});
