import assert from "node:assert/strict";
import {
  mcpRuleTarget,
  PERMISSION_PATTERN_MAX_CHARS,
  PERMISSION_RULES_MAX_COUNT,
  permissionPatternKind,
  permissionPatternProblem,
  PermissionRule,
  PermissionRules,
  PermissionSettings,
  TOOL_IDS,
  TOOL_PATTERN_KINDS,
} from "./mod.ts";

Deno.test("every built-in tool has a pattern kind, and only the file tools and process_start take one", () => {
  const path = TOOL_IDS.filter((id) => TOOL_PATTERN_KINDS[id] === "path");
  const command = TOOL_IDS.filter((id) => TOOL_PATTERN_KINDS[id] === "command");
  assert.deepEqual(path.sort(), ["edit", "glob", "grep", "list", "read", "write"]);
  assert.deepEqual(command, ["process_start"]);
  assert.equal(Object.keys(TOOL_PATTERN_KINDS).length, TOOL_IDS.length);
});

Deno.test("permissionPatternKind names groups, tools and *, and nothing else", () => {
  const cases: [string, string | null][] = [
    ["*", "none"],
    ["group:read", "path"],
    ["group:write", "path"],
    ["group:process", "command"],
    ["group:session", "none"],
    ["group:memory", "none"],
    ["read", "path"],
    ["process_start", "command"],
    ["process_read", "none"],
    ["memory", "none"],
    ["process", null],
    ["toString", null],
    ["__proto__", null],
    ["", null],
  ];
  for (const [tool, kind] of cases) {
    assert.equal(permissionPatternKind(tool), kind, `pattern kind of ${JSON.stringify(tool)}`);
  }
});

Deno.test("permissionPatternProblem accepts well-formed patterns", () => {
  const ok: [string, string][] = [
    ["read", "**"],
    ["read", "src/**/*.ts"],
    ["read", "./src/*.ts"],
    ["write", "/etc/**"],
    ["group:write", "docs/{a,b}/[!x]?.md"],
    ["edit", "[a-z0-9].txt"],
    ["grep", "[-a]"],
    ["process_start", "git status"],
    ["group:process", "  deno   task test "],
    ["process_start", "npm"],
    ["list", "x".repeat(PERMISSION_PATTERN_MAX_CHARS)],
  ];
  for (const [tool, pattern] of ok) {
    assert.equal(permissionPatternProblem(tool, pattern), null, `${tool} ${pattern} is valid`);
  }
});

Deno.test("permissionPatternProblem refuses bad patterns with a reason", () => {
  const bad: [string, string, RegExp][] = [
    ["memory", "x", /memory takes no pattern/],
    ["group:session", "x", /takes no pattern/],
    ["thread_send", "x", /takes no pattern/],
    ["process_read", "git", /takes no pattern/],
    ["*", "**", /\* takes no pattern/],
    ["nope", "x", /unknown tool nope/],
    ["read", "", /must not be empty/],
    ["read", "x".repeat(PERMISSION_PATTERN_MAX_CHARS + 1), /at most 512/],
    ["read", "a\u0000b", /control characters/],
    ["read", "a\nb", /control characters/],
    ["read", "src/[abc", /unclosed "\["/],
    ["read", "src/{a,b", /unclosed "\{"/],
    ["read", "src/[z-a].ts", /bad range z-a/],
    ["read", "[!]x]", /empty/],
    ["read", "[^]x]", /empty/],
    ["read", "[[:alpha:]]", /\[:class:\]/],
    ["read", "../other/**", /\.\. segments/],
    ["read", "/a/../b", /\.\. segments/],
    ["read", "src\\a.ts", /backslashes/],
    ["process_start", "   ", /at least one word/],
    ["process_start", "git status; rm", /plain words/],
    ["process_start", "echo $(id)", /plain words/],
    ["group:process", "rm 'x'", /plain words/],
    ["process_start", "ls > out", /plain words/],
    ["process_start", "a && b", /plain words/],
  ];
  for (const [tool, pattern, reason] of bad) {
    const problem = permissionPatternProblem(tool, pattern);
    assert.ok(problem !== null, `${tool} ${JSON.stringify(pattern)} should be refused`);
    assert.match(problem, reason, `reason for ${tool} ${JSON.stringify(pattern)}`);
  }
});

Deno.test("PermissionRule names the field at fault", () => {
  const cases: [unknown, string, RegExp][] = [
    [{ tool: "rm", decision: "deny" }, "tool", /tool "rm" is not a built-in tool id/],
    [{ tool: "read", decision: "maybe" }, "decision", /allow, ask, deny/],
    [{ tool: "memory", pattern: "x", decision: "allow" }, "pattern", /takes no pattern/],
    [{ tool: "read", pattern: "[", decision: "allow" }, "pattern", /unclosed/],
    [{ tool: "read", pattern: 3, decision: "allow" }, "pattern", /string/],
    [{ tool: "read", decision: "allow", why: "x" }, "", /why/],
  ];
  for (const [input, field, message] of cases) {
    const result = PermissionRule.safeParse(input);
    assert.equal(result.success, false, `${JSON.stringify(input)} should be refused`);
    const issue = result.error?.issues[0];
    assert.equal(issue?.path.join("."), field, `field of ${JSON.stringify(input)}`);
    assert.match(
      issue?.code === "unrecognized_keys" ? issue.keys?.join() ?? "" : issue?.message ?? "",
      message,
    );
  }
  assert.deepEqual(
    PermissionRule.parse({ tool: "group:process", pattern: "git", decision: "ask" }),
    {
      tool: "group:process",
      pattern: "git",
      decision: "ask",
    },
  );
});

Deno.test("PermissionRule names MCP tools by server, or by server and the server's tool name", () => {
  for (const tool of ["mcp:github", "mcp:github/create_issue", "mcp:a-b_c/x.y-z_1"]) {
    assert.deepEqual(PermissionRule.parse({ tool, decision: "allow" }), {
      tool,
      decision: "allow",
    });
    assert.equal(permissionPatternKind(tool), "none", `${tool} takes no pattern`);
  }
  assert.deepEqual(mcpRuleTarget("mcp:github/create_issue"), {
    server: "github",
    tool: "create_issue",
  });
  assert.deepEqual(mcpRuleTarget("mcp:github"), { server: "github", tool: null });
  for (
    const tool of [
      "mcp:",
      "mcp:GitHub",
      "mcp:-x",
      `mcp:${"a".repeat(33)}`,
      "mcp:github/",
      "mcp:github/a b",
      `mcp:github/${"t".repeat(129)}`,
      "mcp__github__create_issue",
      "mcp:github/x/y",
    ]
  ) {
    const result = PermissionRule.safeParse({ tool, decision: "allow" });
    assert.equal(result.success, false, `${tool} should be refused`);
    assert.match(result.error?.issues[0]?.message ?? "", /mcp:<server>/, tool);
    assert.equal(mcpRuleTarget(tool), null, tool);
  }
  const patterned = PermissionRule.safeParse({
    tool: "mcp:github",
    pattern: "x",
    decision: "deny",
  });
  assert.equal(patterned.error?.issues[0]?.path.join("."), "pattern");
  assert.match(patterned.error?.issues[0]?.message ?? "", /takes no pattern/);
});

Deno.test("PermissionRules and PermissionSettings bound and check the whole list", () => {
  const many = Array.from({ length: PERMISSION_RULES_MAX_COUNT + 1 }, () => ({
    tool: "*",
    decision: "ask",
  }));
  assert.equal(PermissionRules.safeParse(many).success, false, "too many rules pass");
  const settings = PermissionSettings.safeParse({
    preset: "ask",
    rules: [{ tool: "read", decision: "allow" }, {
      tool: "memory",
      pattern: "x",
      decision: "deny",
    }],
  });
  assert.equal(settings.success, false);
  assert.deepEqual(settings.error?.issues[0]?.path, ["rules", 1, "pattern"]);
  assert.equal(PermissionSettings.safeParse({ preset: "yolo" }).success, false);
  assert.deepEqual(PermissionSettings.parse({}), {});
});
