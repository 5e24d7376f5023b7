import assert from "node:assert/strict";
import { permissionPatternProblem } from "@daedalus/protocol";
import type { ToolRisk } from "../tool.ts";
import { compileGlob } from "../files/traversal.ts";
import { callTarget } from "./call_target.ts";
import {
  compileRuleSet,
  decide,
  type PermissionCall,
  PermissionRuleError,
  permissionRuleSet,
} from "./permission_rules.ts";

const roots = { workspaceRoot: "/ws", artifactsFolder: "/h/artifacts/t1" };

function call(toolId: string, risk: ToolRisk, args: unknown): PermissionCall {
  return { toolId, risk, target: callTarget(toolId, args, roots) };
}

const read = (path: string) => call("read", "read", { path });
const write = (path: string) => call("write", "write", { path, content: "" });
const run = (command: string) => call("process_start", "process", { command });

Deno.test("decide: the last matching rule wins, and no match is the fallback", () => {
  const ruleSet = compileRuleSet([
    { origin: "preset:x", rules: [{ tool: "*", decision: "deny" }] },
    {
      origin: "config",
      rules: [
        { tool: "group:read", decision: "allow" },
        { tool: "read", pattern: "secret/**", decision: "ask" },
      ],
    },
  ], "ask");
  assert.deepEqual(decide(ruleSet, read("src/a.ts")), {
    decision: "allow",
    rule: { tool: "group:read", decision: "allow" },
    origin: "config",
    index: 0,
  });
  assert.deepEqual(decide(ruleSet, read("secret/k")), {
    decision: "ask",
    rule: { tool: "read", pattern: "secret/**", decision: "ask" },
    origin: "config",
    index: 1,
  });
  assert.equal(decide(ruleSet, write("a")).origin, "preset:x", "write falls to the preset");
  assert.deepEqual(decide(compileRuleSet([], "deny"), read("a")), {
    decision: "deny",
    rule: null,
    origin: null,
    index: null,
  });
  assert.equal(ruleSet.size, 3);
  assert.throws(() => decide({ fallback: "allow", size: 0 }, read("a")), TypeError, "a forged set");
});

Deno.test("decide: a rule's tool is *, the call's tool id or group:<risk>", () => {
  const cases: [unknown, PermissionCall, boolean][] = [
    [{ tool: "*" }, read("a"), true],
    [{ tool: "read" }, read("a"), true],
    [{ tool: "read" }, call("grep", "read", { pattern: "x" }), false],
    [{ tool: "group:read" }, call("grep", "read", { pattern: "x" }), true],
    [{ tool: "group:read" }, call("history_read", "read", {}), true],
    [{ tool: "group:write" }, read("a"), false],
    [{ tool: "group:process" }, call("process_stop", "process", {}), true],
    [{ tool: "group:session" }, call("subagent", "session", {}), true],
    [{ tool: "memory" }, call("memory", "memory", {}), true],
    [{ tool: "group:memory" }, call("memory", "memory", {}), true],
    [{ tool: "group:session" }, call("memory", "memory", {}), false],
    [{ tool: "group:read" }, call("mcp_search", "read", {}), true],
  ];
  for (const [rule, probe, matches] of cases) {
    const ruleSet = compileRuleSet([{
      origin: "t",
      rules: [{ ...rule as object, decision: "allow" }],
    }], "deny");
    assert.equal(
      decide(ruleSet, probe).decision,
      matches ? "allow" : "deny",
      `${JSON.stringify(rule)} on ${probe.toolId}`,
    );
  }
});

Deno.test("decide: mcp:<server> rules match that server's tools, mcp:<server>/<tool> one of them", () => {
  const mcp = (server: string, tool: string, risk: ToolRisk = "process"): PermissionCall => ({
    ...call(`mcp__${server}__${tool}`, risk, {}),
    mcp: { server, tool },
  });
  const cases: [string, PermissionCall, boolean][] = [
    ["mcp:github", mcp("github", "create_issue"), true],
    ["mcp:github", mcp("github", "search", "read"), true],
    ["mcp:github", mcp("gitlab", "create_issue"), false],
    ["mcp:git", mcp("github", "create_issue"), false],
    ["mcp:github/create_issue", mcp("github", "create_issue"), true],
    ["mcp:github/create_issue", mcp("github", "close_issue"), false],
    ["mcp:github/create_issue", mcp("gitlab", "create_issue"), false],
    // A server named a__b: its tools are not a's, whatever their offered names look like.
    ["mcp:a", mcp("a__b", "c"), false],
    ["mcp:a__b", mcp("a__b", "c"), true],
    // A tool that is not an MCP server's never matches an mcp: rule, even by its id.
    ["mcp:github", call("mcp__github__create_issue", "process", {}), false],
  ];
  for (const [tool, probe, matches] of cases) {
    const ruleSet = compileRuleSet([{ origin: "t", rules: [{ tool, decision: "allow" }] }], "deny");
    assert.equal(
      decide(ruleSet, probe).decision,
      matches ? "allow" : "deny",
      `${tool} on ${probe.mcp ? `${probe.mcp.server}/${probe.mcp.tool}` : probe.toolId}`,
    );
  }
});

Deno.test("decide: relative globs match inside the workspace only, absolute globs any path", () => {
  const cases: [string, PermissionCall, boolean][] = [
    ["**", read("a/b/c.ts"), true],
    ["**", read("/ws"), true],
    ["**", read("/etc/passwd"), false],
    ["*.ts", read("deep/in/x.ts"), true],
    ["*.ts", read("x.md"), false],
    ["src/**", read("src/a/b.ts"), true],
    ["src/**", read("lib/a.ts"), false],
    ["./src/*.ts", read("src/a.ts"), true],
    ["src/*.ts", read("src/a/b.ts"), false],
    ["{src,lib}/**", read("lib/x"), true],
    ["/**", read("/etc/passwd"), true],
    ["/**", read("inside.txt"), true],
    ["/etc/**", read("/etc/ssh/sshd_config"), true],
    ["/etc/**", read("/etcetera/x"), false],
    ["/ws/src/*.ts", read("src/a.ts"), true],
    ["**", call("history_read", "read", {}), false],
    ["**", call("list", "read", {}), true],
  ];
  for (const [pattern, probe, matches] of cases) {
    const ruleSet = compileRuleSet([{
      origin: "t",
      rules: [{ tool: "group:read", pattern, decision: "allow" }],
    }], "deny");
    const target = probe.target.kind === "path" ? probe.target.path : probe.target.kind;
    assert.equal(
      decide(ruleSet, probe).decision,
      matches ? "allow" : "deny",
      `${pattern} on ${target}`,
    );
  }
});

Deno.test("decide: a command prefix matches word-wise; allow needs every command, deny any", () => {
  const cases: [string, "allow" | "deny" | "ask", string, boolean][] = [
    ["git status", "allow", "git status -s", true],
    ["git status", "allow", "git status", true],
    ["git status", "allow", "git statusx", false],
    ["git status", "allow", "git  status", true],
    ["git status", "allow", "git status && curl x | sh", false],
    ["git status", "allow", "git status; git status -s", true],
    ["git status", "allow", "git status > /etc/motd", false],
    ["git status", "allow", "git status 2>&1", true],
    ["git status", "allow", "git status >/dev/null", true],
    ["git status", "allow", "FOO=1 git status", true],
    ["git status", "allow", "", false],
    ["rm", "deny", "rm -rf x", true],
    ["rm", "deny", "ls && rm -rf x", true],
    ["rm", "deny", 'echo "$(rm -rf x)"', true],
    ["rm", "deny", "'rm' -rf x", true],
    ["rm", "deny", "FOO=bar rm x", true],
    ["rm", "deny", "rmdir x", false],
    ["rm", "deny", "echo rm", false],
    ["git push --force", "ask", "git push --force origin main", true],
    ["git push --force", "ask", "git push origin main", false],
  ];
  for (const [prefix, decision, command, matches] of cases) {
    const fallback = decision === "allow" ? "deny" : "allow";
    const ruleSet = compileRuleSet([{
      origin: "t",
      rules: [{ tool: "process_start", pattern: prefix, decision }],
    }], fallback);
    assert.equal(
      decide(ruleSet, run(command)).decision,
      matches ? decision : fallback,
      `${decision} ${JSON.stringify(prefix)} on ${JSON.stringify(command)}`,
    );
  }
  const group = compileRuleSet([{
    origin: "t",
    rules: [{ tool: "group:process", pattern: "git", decision: "allow" }],
  }], "deny");
  assert.equal(decide(group, run("git log")).decision, "allow", "group:process with a prefix");
  assert.equal(
    decide(group, call("process_read", "process", {})).decision,
    "deny",
    "a command prefix never matches a call without a command",
  );
});

Deno.test("decide: reads of the thread's artifacts are allowed before any rule", () => {
  const ruleSet = compileRuleSet(
    [{ origin: "t", rules: [{ tool: "*", decision: "deny" }] }],
    "deny",
  );
  assert.deepEqual(decide(ruleSet, read("/h/artifacts/t1/result.txt")), {
    decision: "allow",
    rule: null,
    origin: "artifacts",
    index: null,
  });
  assert.equal(decide(ruleSet, write("/h/artifacts/t1/result.txt")).decision, "deny", "writes");
  assert.equal(decide(ruleSet, read("/h/artifacts/t2/result.txt")).decision, "deny", "others'");
});

Deno.test("compileRuleSet refuses a bad rule, naming its origin, index and field", () => {
  const cases: [unknown, string, RegExp][] = [
    [{ tool: "rm", decision: "deny" }, "tool", /built-in tool id/],
    [{ tool: "read", decision: "never" }, "decision", /allow, ask, deny/],
    [{ tool: "memory", pattern: "x", decision: "allow" }, "pattern", /memory takes no pattern/],
    [{ tool: "read", pattern: "src/[abc", decision: "allow" }, "pattern", /unclosed/],
    [{ tool: "read", pattern: "[z-a]", decision: "allow" }, "pattern", /bad range/],
    [{ tool: "process_start", pattern: " ", decision: "allow" }, "pattern", /at least one word/],
    [{ tool: "process_start", pattern: "", decision: "allow" }, "pattern", /empty/],
    [{ tool: "*", pattern: "**", decision: "allow" }, "pattern", /takes no pattern/],
    [{ tool: "read", decision: "allow", note: "x" }, "", /unknown key note/],
    ["allow everything", "", /object/],
    [null, "", /object/],
  ];
  for (const [rule, field, message] of cases) {
    assert.throws(
      () =>
        compileRuleSet([
          { origin: "preset:ask", rules: [] },
          { origin: "config", rules: [{ tool: "*", decision: "ask" }, rule] },
        ], "ask"),
      (error: unknown) => {
        assert.ok(
          error instanceof PermissionRuleError,
          `a PermissionRuleError for ${JSON.stringify(rule)}`,
        );
        assert.equal(error.code, "invalid_permission_rule");
        assert.equal(error.origin, "config");
        assert.equal(error.index, 1);
        assert.equal(error.field, field, `field of ${JSON.stringify(rule)}`);
        assert.match(error.message, message);
        assert.match(error.message, /^Permission rule config\[1\]/);
        return true;
      },
    );
  }
});

Deno.test("every glob the protocol accepts compiles in the matcher", () => {
  // A seeded generator (mulberry32) over the glob syntax, so a failure reproduces.
  let seed = 14;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = [
    "a",
    "z",
    "/",
    "*",
    "**",
    "?",
    "[",
    "]",
    "!",
    "^",
    "-",
    "{",
    "}",
    ",",
    ".",
    ":",
    "é",
  ];
  let accepted = 0;
  for (let n = 0; n < 5000; n++) {
    const length = 1 + Math.floor(random() * 24);
    let pattern = "";
    for (let i = 0; i < length; i++) pattern += pieces[Math.floor(random() * pieces.length)];
    if (permissionPatternProblem("read", pattern) !== null) continue;
    accepted++;
    assert.doesNotThrow(
      () => compileGlob(pattern),
      `accepted glob ${JSON.stringify(pattern)} fails to compile`,
    );
  }
  assert.ok(accepted > 1000, `only ${accepted} generated globs were valid`);
  for (const long of ["?", "*", "[!a]", "{a,b}", "**/", "{,}"]) {
    const pattern = long.repeat(Math.floor(512 / long.length));
    assert.equal(permissionPatternProblem("read", pattern), null, `${long}… is accepted`);
    assert.doesNotThrow(() => compileGlob(pattern), `${long}… at 512 characters compiles`);
  }
});

Deno.test("permissionRuleSet puts config rules after the preset's, and more after those", () => {
  const ruleSet = permissionRuleSet(
    { rules: [{ tool: "process_start", pattern: "git", decision: "allow" }] },
    [{
      origin: "thread",
      rules: [{ tool: "process_start", pattern: "git push", decision: "deny" }],
    }],
  );
  assert.equal(ruleSet.fallback, "ask", "the default preset is ask");
  assert.deepEqual(
    [run("git log"), run("git push -f"), run("ls")].map((probe) => decide(ruleSet, probe)),
    [
      {
        decision: "allow",
        rule: { tool: "process_start", pattern: "git", decision: "allow" },
        origin: "config",
        index: 0,
      },
      {
        decision: "deny",
        rule: { tool: "process_start", pattern: "git push", decision: "deny" },
        origin: "thread",
        index: 0,
      },
      { decision: "ask", rule: null, origin: null, index: null },
    ],
  );
  assert.equal(decide(permissionRuleSet({ preset: "read_only" }), write("a")).decision, "deny");
});

Deno.test("decide: absolute globs see Windows paths as /C:/…", () => {
  const ruleSet = compileRuleSet([{
    origin: "t",
    rules: [
      { tool: "read", pattern: "/**", decision: "ask" },
      { tool: "read", pattern: "/C:/Users/*/secret/**", decision: "deny" },
    ],
  }], "allow");
  const target = (path: string) => ({
    kind: "path" as const,
    path,
    insideWorkspace: false,
    workspacePath: null,
    inArtifacts: false,
  });
  const verdict = (path: string) =>
    decide(ruleSet, { toolId: "read", risk: "read", target: target(path) }).decision;
  assert.equal(verdict("C:\\Users\\me\\secret\\key"), "deny");
  assert.equal(verdict("D:\\data\\x"), "ask", "/** matches every drive");
  assert.equal(verdict("/etc/passwd"), "ask");
});
