import assert from "node:assert/strict";
import { exportFileName } from "./export_name.ts";

const ID = "thread_0a3a547351d063f3cc48d2d2fd8a59ef";

const CASES: [string, string, "markdown" | "jsonl", string][] = [
  ["a plain title", "Weekly report", "markdown", "Weekly-report.md"],
  ["JSON lines extension", "Weekly report", "jsonl", "Weekly-report.jsonl"],
  ["Chinese kept", "写一篇周报", "markdown", "写一篇周报.md"],
  ["path and reserved characters", 'a/b\\c:d*e?f"g<h>i|j', "markdown", "a-b-c-d-e-f-g-h-i-j.md"],
  ["control characters and newlines", "line\none\ttab\u0000", "markdown", "line-one-tab.md"],
  ["runs collapse, edges trimmed", "  ..hello -- world!!  ", "markdown", "hello-world.md"],
  ["dot-only title falls back to the id", "...", "jsonl", `${ID}.jsonl`],
  ["empty title falls back to the id", "", "markdown", `${ID}.md`],
  ["emoji only falls back to the id", "🎉🎉", "markdown", `${ID}.md`],
  ["accents kept (combining marks too)", "Cafe\u0301 résumé", "markdown", "Café-résumé.md"],
  ["long titles cut to 60 characters", "x".repeat(300), "markdown", `${"x".repeat(60)}.md`],
  ["a cut never ends on a dash", `${"a".repeat(59)} b`, "markdown", `${"a".repeat(59)}.md`],
];

for (const [name, title, format, expected] of CASES) {
  Deno.test(`exportFileName: ${name}`, () => {
    assert.equal(exportFileName(title, ID, format), expected, `title ${JSON.stringify(title)}`);
  });
}
