import assert from "node:assert/strict";
import { approvalRule } from "./approval_rule.ts";
import { decide, permissionRuleSet } from "./permission_rules.ts";
import type { CallTarget } from "./call_target.ts";

const inside = (workspacePath: string): CallTarget => ({
  kind: "path",
  path: `/ws/${workspacePath}`,
  insideWorkspace: true,
  workspacePath,
  inArtifacts: false,
});

Deno.test("approvalRule names the exact command words, path or tool", () => {
  const cases: Array<[string, CallTarget, unknown]> = [
    ["process_start", { kind: "command", command: "  npm   test " }, {
      tool: "process_start",
      pattern: "npm test",
      decision: "allow",
    }],
    ["write", inside("src/a.ts"), { tool: "write", pattern: "src/a.ts", decision: "allow" }],
    ["read", {
      kind: "path",
      path: "/etc/hosts",
      insideWorkspace: false,
      workspacePath: null,
      inArtifacts: false,
    }, { tool: "read", pattern: "/etc/hosts", decision: "allow" }],
    ["write", inside("a[1]*{x}?.ts"), {
      tool: "write",
      pattern: "a[[]1[]][*][{]x[}][?].ts",
      decision: "allow",
    }],
    ["thread_create", { kind: "none" }, { tool: "thread_create", decision: "allow" }],
  ];
  for (const [tool, target, expected] of cases) {
    assert.deepEqual(approvalRule(tool, target), expected, `${tool} ${JSON.stringify(target)}`);
  }
});

Deno.test("approvalRule has no rule for what a rule cannot name", () => {
  const cases: Array<[string, CallTarget]> = [
    ["process_start", { kind: "command", command: "npm test && rm -rf x" }],
    ["process_start", { kind: "command", command: "echo 'hi'" }],
    ["process_start", { kind: "command", command: "   " }],
    ["write", inside("")],
    ["mcp_unknown", { kind: "none" }],
  ];
  for (const [tool, target] of cases) {
    assert.equal(approvalRule(tool, target), null, `${tool} ${JSON.stringify(target)}`);
  }
});

Deno.test("an escaped path rule matches that path and no other", () => {
  const rule = approvalRule("write", inside("a[1]*.ts"));
  assert.ok(rule);
  const rules = permissionRuleSet({ preset: "read_only", rules: [rule] });
  const verdict = (workspacePath: string) =>
    decide(rules, { toolId: "write", risk: "write", target: inside(workspacePath) }).decision;
  assert.equal(verdict("a[1]*.ts"), "allow");
  assert.equal(verdict("a1x.ts"), "deny", "the glob characters match only themselves");
});
