import assert from "node:assert/strict";
import {
  approvalPreview,
  PREVIEW_COMMAND_MAX_CHARS,
  PREVIEW_LINE_MAX_CHARS,
  PREVIEW_MAX_LINES,
} from "./approval_preview.ts";

Deno.test("preview: a write shows the new content as added lines", () => {
  const preview = approvalPreview("write", { path: "notes.md", content: "# Notes\nfirst\n" });
  assert.deepEqual(preview, {
    kind: "diff",
    path: "notes.md",
    mode: "write",
    lines: [
      { kind: "add", text: "# Notes", oldLine: null, newLine: null },
      { kind: "add", text: "first", oldLine: null, newLine: null },
    ],
    hiddenLines: 0,
  });
});

Deno.test("preview: an edit shows the replaced text, then its replacement", () => {
  const preview = approvalPreview("edit", {
    path: "src/a.ts",
    oldString: "let a = 1;\r\nlet b = 2;",
    newString: "const a = 1;",
    replaceAll: true,
  });
  assert.equal(preview.kind, "diff");
  if (preview.kind !== "diff") return;
  assert.equal(preview.mode, "edit_all");
  assert.deepEqual(preview.lines.map((l) => [l.kind, l.text]), [
    ["remove", "let a = 1;"],
    ["remove", "let b = 2;"],
    ["add", "const a = 1;"],
  ]);
  const deletion = approvalPreview("edit", { path: "a", oldString: "x", newString: "" });
  assert.deepEqual(
    deletion.kind === "diff" && deletion.lines.map((l) => l.kind),
    ["remove"],
    "an empty replacement adds no line",
  );
});

Deno.test("preview: long content is bounded and the rest counted", () => {
  const content = Array.from({ length: PREVIEW_MAX_LINES + 7 }, (_, i) => `line ${i}`).join("\n");
  const preview = approvalPreview("write", { path: "big.txt", content });
  assert.equal(preview.kind === "diff" && preview.lines.length, PREVIEW_MAX_LINES);
  assert.equal(preview.kind === "diff" && preview.hiddenLines, 7);
  const wide = approvalPreview("write", { path: "min.js", content: "x".repeat(10_000) });
  const text = wide.kind === "diff" ? wide.lines[0]?.text ?? "" : "";
  assert.equal(text.length, PREVIEW_LINE_MAX_CHARS, "one line is clipped");
  assert.ok(text.endsWith("…"), "a clipped line says so");
});

Deno.test("preview: an empty write has no lines", () => {
  const preview = approvalPreview("write", { path: "empty.txt", content: "" });
  assert.deepEqual(preview.kind === "diff" && preview.lines, []);
});

Deno.test("preview: process_start shows the command, its folder and background", () => {
  assert.deepEqual(
    approvalPreview("process_start", { command: "npm test", cwd: "app", background: true }),
    { kind: "command", command: "npm test", cwd: "app", background: true },
  );
  assert.deepEqual(approvalPreview("process_start", { command: "echo hi" }), {
    kind: "command",
    command: "echo hi",
    cwd: null,
    background: false,
  });
  const long = approvalPreview("process_start", { command: "a".repeat(50_000) });
  assert.equal(long.kind === "command" && long.command.length, PREVIEW_COMMAND_MAX_CHARS);
});

Deno.test("preview: nothing for other tools or arguments of the wrong shape", () => {
  const none = [
    ["read", { path: "a" }],
    ["memory", { content: "x" }],
    ["write", { path: "a" }],
    ["write", { path: 1, content: "x" }],
    ["edit", { path: "a", oldString: "x" }],
    ["process_start", { command: "" }],
    ["process_start", null],
    ["write", ["a", "b"]],
    ["write", "text"],
  ] as const;
  for (const [tool, args] of none) {
    assert.deepEqual(
      approvalPreview(tool, args),
      { kind: "none" },
      `${tool} ${JSON.stringify(args)}`,
    );
  }
});
