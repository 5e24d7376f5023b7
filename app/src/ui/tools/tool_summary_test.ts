import assert from "node:assert/strict";
import {
  summarizeToolCall,
  TOOL_TARGET_MAX_CHARS,
  truncateTarget,
  workspacePath,
} from "./tool_summary.ts";

const ROOT = "/home/ada/project";

Deno.test("tool summary: kind, verb and target of every built-in, MCP and unknown tools", () => {
  const cases: [string, unknown, [string, string, string, boolean]][] = [
    ["read", { path: `${ROOT}/src/main.ts` }, ["read", "read", "src/main.ts", true]],
    ["read", { path: "/etc/hosts" }, ["read", "read", "/etc/hosts", true]],
    ["write", { path: "notes.txt", content: "hi" }, ["change", "wrote", "notes.txt", true]],
    ["edit", { path: `${ROOT}/a.ts`, oldString: "a", newString: "b" }, [
      "change",
      "edited",
      "a.ts",
      true,
    ]],
    ["list", {}, ["read", "listedWorkspace", "", true]],
    ["list", { path: ROOT }, ["read", "listedWorkspace", "", true]],
    ["list", { path: "." }, ["read", "listedWorkspace", "", true]],
    ["list", { path: `${ROOT}/src` }, ["read", "listed", "src", true]],
    ["glob", { pattern: "**/*.ts" }, ["search", "found", "**/*.ts", true]],
    ["grep", { pattern: "startServer", path: `${ROOT}/tests` }, [
      "search",
      "searched",
      "startServer · tests",
      true,
    ]],
    ["grep", { pattern: "x", path: ROOT }, ["search", "searched", "x", true]],
    ["process_start", { command: "deno task test\necho done" }, [
      "process",
      "ran",
      "deno task test …",
      true,
    ]],
    ["process_read", { processId: "proc_1" }, ["process", "readOutput", "proc_1", true]],
    ["process_wait", { processId: "proc_1" }, ["process", "waited", "proc_1", true]],
    ["process_stop", { processId: "proc_1" }, ["process", "stopped", "proc_1", true]],
    ["process_write", { processId: "proc_1", data: "y\n" }, [
      "process",
      "sentInput",
      "proc_1",
      true,
    ]],
    ["process_resize", { processId: "p", cols: 80, rows: 24 }, ["process", "resized", "p", true]],
    ["memory", { action: "save", content: "Likes tea" }, [
      "memory",
      "remembered",
      "Likes tea",
      false,
    ]],
    ["memory", { action: "search", query: "tea" }, ["memory", "searchedMemory", "tea", false]],
    ["memory", { action: "update", memoryId: "m", content: "c" }, [
      "memory",
      "updatedMemory",
      "c",
      false,
    ]],
    ["memory", { action: "forget", memoryId: "m" }, ["memory", "forgot", "", false]],
    ["memory", { action: "dance" }, ["memory", "used", "", false]],
    ["history_read", {}, ["history", "readHistory", "", false]],
    ["subagent", { task: "Summarize\nthe logs", title: "Logs" }, [
      "subagent",
      "delegated",
      "Logs",
      false,
    ]],
    ["subagent", { task: "Summarize\nthe logs" }, ["subagent", "delegated", "Summarize …", false]],
    ["thread_create", { title: "Plan" }, ["thread", "createdThread", "Plan", false]],
    ["thread_rename", { threadId: "t", title: "New" }, ["thread", "renamedThread", "New", false]],
    ["thread_archive", { threadId: "t", archived: true }, [
      "thread",
      "archivedThread",
      "t",
      true,
    ]],
    ["thread_archive", { threadId: "t", archived: false }, [
      "thread",
      "unarchivedThread",
      "t",
      true,
    ]],
    ["thread_send", { threadId: "t", content: "hello" }, [
      "thread",
      "sentToThread",
      "hello",
      false,
    ]],
    ["thread_list", {}, ["thread", "listedThreads", "", false]],
    ["thread_read", { threadId: "t" }, ["thread", "readThread", "t", true]],
    ["mcp__github__create_issue", { title: "x" }, [
      "mcp",
      "called",
      "github · create_issue",
      true,
    ]],
    ["mcp__a__b__c", {}, ["mcp", "called", "a · b__c", true]],
    ["echo", { text: "hi" }, ["other", "used", "echo", true]],
    ["mcp_", {}, ["other", "used", "mcp_", true]],
    // arguments of the wrong shape never throw
    ["read", "not json", ["read", "read", "", true]],
    ["read", null, ["read", "read", "", true]],
    ["read", ["a"], ["read", "read", "", true]],
    ["read", { path: 42 }, ["read", "read", "", true]],
    ["toString", {}, ["other", "used", "toString", true]],
  ];
  for (const [toolId, args, [kind, verb, target, code]] of cases) {
    const summary = summarizeToolCall(toolId, args, ROOT);
    assert.deepEqual(
      [summary.kind, summary.verb, summary.target, summary.code],
      [kind, verb, target, code],
      `${toolId} ${JSON.stringify(args)}`,
    );
    assert.equal(summary.fullTarget, target, `${toolId}: short targets are whole`);
  }
});

Deno.test("tool summary: a long target is cut with an ellipsis, the whole text kept", () => {
  const command = `echo ${"x".repeat(300)}`;
  const summary = summarizeToolCall("process_start", { command }, null);
  assert.equal(summary.fullTarget, command);
  assert.equal(Array.from(summary.target).length, TOOL_TARGET_MAX_CHARS);
  assert.ok(summary.target.endsWith("…"));
  assert.equal(truncateTarget("short"), "short");
  // astral characters count as one and are never split
  const emoji = "😀".repeat(TOOL_TARGET_MAX_CHARS + 5);
  const cut = truncateTarget(emoji);
  assert.equal(Array.from(cut).length, TOOL_TARGET_MAX_CHARS);
  assert.ok(!cut.includes("\uFFFD"));
});

Deno.test("tool summary: paths relative to the workspace, either slash, else as given", () => {
  const cases: [string, string | null, string][] = [
    [`${ROOT}/src/a.ts`, ROOT, "src/a.ts"],
    [`${ROOT}/src/a.ts`, `${ROOT}/`, "src/a.ts"],
    [ROOT, ROOT, "."],
    [`${ROOT}-other/a.ts`, ROOT, `${ROOT}-other/a.ts`],
    ["C:\\work\\app\\main.ts", "C:\\work\\app", "main.ts"],
    ["src/a.ts", ROOT, "src/a.ts"],
    [`${ROOT}/a.ts`, null, `${ROOT}/a.ts`],
    ["", ROOT, ""],
  ];
  for (const [path, root, shown] of cases) {
    assert.equal(workspacePath(path, root), shown, `${path} in ${root}`);
  }
});
