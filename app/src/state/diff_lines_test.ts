import assert from "node:assert/strict";
import { diffLines } from "./diff_lines.ts";

Deno.test("diffLines: numbers old and new lines through hunks", () => {
  const diff = [
    "--- a/notes.txt",
    "+++ b/notes.txt",
    "@@ -2,3 +2,3 @@",
    " keep",
    "-old",
    "+new",
    "+added",
    " tail",
    "\\ No newline at end of file",
    "",
  ].join("\n");
  assert.deepEqual(
    diffLines(diff).map((l) => [l.kind, l.text, l.oldLine, l.newLine]),
    [
      ["meta", "--- a/notes.txt", null, null],
      ["meta", "+++ b/notes.txt", null, null],
      ["hunk", "@@ -2,3 +2,3 @@", null, null],
      ["context", "keep", 2, 2],
      ["remove", "old", 3, null],
      ["add", "new", null, 3],
      ["add", "added", null, 4],
      ["context", "tail", 4, 5],
      ["meta", "\\ No newline at end of file", null, null],
    ],
  );
});

Deno.test("diffLines: a new file, an empty diff, and a line of markup stay text", () => {
  assert.deepEqual(diffLines(""), []);
  const created = diffLines("@@ -0,0 +1 @@\n+<img src=x onerror=alert(1)>");
  assert.deepEqual(created[1], {
    kind: "add",
    text: "<img src=x onerror=alert(1)>",
    oldLine: null,
    newLine: 1,
  });
});
