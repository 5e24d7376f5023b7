import assert from "node:assert/strict";
import { inEnglish } from "../../_testing.ts";
import { t } from "../../i18n/i18n.ts";
import { processBadges, toolCallFacts, toolResultFacts } from "./tool_facts.ts";

const plain = (facts: { label: string; value: string }[]) => facts.map((f) => [f.label, f.value]);

Deno.test("read card: path, line range with total and next offset, bytes", () => {
  const facts = inEnglish(() =>
    toolResultFacts("read", {
      toolId: "read",
      path: "src/a.ts",
      lineStart: 1,
      lineEnd: 200,
      nextOffset: 201,
      totalBytes: 9000,
      totalLines: 450,
      revision: "r1",
      truncated: true,
      durationMs: 3,
    })
  );
  assert.deepEqual(plain(facts), [
    ["tool.label.path", "src/a.ts"],
    ["tool.label.lines", "1–200 of 450 · more from line 201"],
    ["tool.label.size", "9000 bytes"],
  ]);
});

Deno.test("write and edit cards: bytes, created, replacements, additions/deletions", () => {
  inEnglish(() => {
    assert.deepEqual(
      plain(toolResultFacts("write", {
        path: "b.txt",
        created: true,
        bytes: 12,
        additions: 2,
        deletions: 0,
        revision: "r",
      })),
      [
        ["tool.label.path", "b.txt"],
        ["tool.label.size", "12 bytes · new file"],
        ["tool.label.changes", "+2 −0"],
      ],
    );
    assert.deepEqual(
      plain(toolResultFacts("edit", { path: "c.ts", replacements: 3, additions: 3, deletions: 3 })),
      [["tool.label.path", "c.ts"], ["tool.label.replacements", "3"], [
        "tool.label.changes",
        "+3 −3",
      ]],
    );
  });
});

Deno.test("process cards: id, state, exit code, localized error code", () => {
  const facts = inEnglish(() =>
    toolResultFacts("process_wait", {
      processId: "proc_1",
      state: "exited",
      exitCode: 2,
      cwd: "/w",
      output: "secret log text",
      errorCode: "timeout",
    })
  );
  assert.deepEqual(plain(facts), [
    ["tool.label.process", "proc_1"],
    ["tool.label.state", "exited"],
    ["tool.label.exitCode", "2"],
    ["tool.label.cwd", "/w"],
    ["tool.label.error", "The process did not finish in time. (timeout)"],
  ]);
});

Deno.test("unknown keys, wrong types and unknown tools are ignored", () => {
  assert.deepEqual(toolResultFacts("read", { lineStart: "1", lineEnd: 2, whatever: 1 }), []);
  assert.deepEqual(toolResultFacts("mystery", { path: "x" }), []);
  assert.deepEqual(toolResultFacts("process_stop", { state: "weird", exitCode: null }), []);
  assert.deepEqual(plain(toolCallFacts("read", { path: "a.ts", offset: 3 })), [[
    "tool.label.path",
    "a.ts",
  ]]);
  assert.deepEqual(plain(toolCallFacts("process_start", { command: "ls" })), [[
    "tool.label.command",
    "ls",
  ]]);
  assert.deepEqual(toolCallFacts("read", "not json"), []);
});

Deno.test("process badges: background, terminal, supervised from process_start's arguments", () => {
  assert.deepEqual(
    inEnglish(() =>
      processBadges("process_start", {
        command: "x",
        background: true,
        pty: true,
        supervise: "always",
      }).map((key) => t(key))
    ),
    ["background", "terminal", "supervised"],
  );
  assert.deepEqual(processBadges("process_start", { command: "x" }), []);
  assert.deepEqual(processBadges("read", { background: true }), []);
  assert.deepEqual(processBadges("process_start", null), []);
});
