import assert from "node:assert/strict";
import type { McpServer, PermissionsView } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  applyMcpToolChoice,
  type ListedRule,
  mcpRuleSuggestions,
  mcpRuleTool,
  mcpToolChoicePlan,
  mcpToolRuleDecision,
  ruleToolName,
} from "./mcp_rules.ts";
import { emptyPermissionSettings, permissionSettings } from "./permission_settings.ts";

const rule = (index: number, tool: string, decision: ListedRule["decision"], pattern?: string) =>
  ({ index, tool, decision, ...(pattern === undefined ? {} : { pattern }) }) as ListedRule;

Deno.test("mcp rules: a rule's tool reads as built-in, a whole server or one tool", () => {
  const cases: [string, ReturnType<typeof ruleToolName>][] = [
    ["read", { kind: "builtin", tool: "read" }],
    ["*", { kind: "builtin", tool: "*" }],
    ["group:process", { kind: "builtin", tool: "group:process" }],
    ["mcp:github", { kind: "mcpServer", server: "github" }],
    ["mcp:github/create_issue", { kind: "mcpTool", server: "github", tool: "create_issue" }],
    ["mcp:every-thing/get.sum-2", { kind: "mcpTool", server: "every-thing", tool: "get.sum-2" }],
    // Not MCP rule names: shown as they are.
    ["mcp:", { kind: "builtin", tool: "mcp:" }],
    ["mcp:Git", { kind: "builtin", tool: "mcp:Git" }],
    ["mcp:github/", { kind: "builtin", tool: "mcp:github/" }],
  ];
  for (const [tool, expected] of cases) {
    assert.deepEqual(ruleToolName(tool), expected, `ruleToolName(${tool})`);
  }
});

Deno.test("mcp rules: names a rule cannot hold give no rule tool", () => {
  assert.equal(mcpRuleTool("github"), "mcp:github");
  assert.equal(mcpRuleTool("github", "create_issue"), "mcp:github/create_issue");
  assert.equal(mcpRuleTool("github", "a/b"), null, "a slash in a tool name");
  assert.equal(mcpRuleTool("github", "has space"), null);
  assert.equal(mcpRuleTool("github", "x".repeat(129)), null, "over 128 characters");
  assert.equal(mcpRuleTool("Bad Name"), null);
});

Deno.test("mcp rules: the picker offers each server, then its tools, skipping bad names", () => {
  const servers = [
    { name: "github", tools: [{ name: "create_issue" }, { name: "weird name" }] },
    { name: "files", tools: [] },
  ] as unknown as McpServer[];
  assert.deepEqual(mcpRuleSuggestions(servers), [
    { value: "mcp:github", name: { kind: "mcpServer", server: "github" } },
    {
      value: "mcp:github/create_issue",
      name: { kind: "mcpTool", server: "github", tool: "create_issue" },
    },
    { value: "mcp:files", name: { kind: "mcpServer", server: "files" } },
  ]);
  assert.deepEqual(mcpRuleSuggestions([]), []);
});

Deno.test("mcp rules: a tool's decision is its own last rule, not the server's", () => {
  const rules = [
    rule(0, "mcp:github", "deny"),
    rule(1, "mcp:github/create_issue", "ask"),
    rule(2, "read", "allow"),
    rule(3, "mcp:github/create_issue", "allow"),
    rule(4, "mcp:gitlab/create_issue", "deny"),
  ];
  assert.equal(mcpToolRuleDecision(rules, "github", "create_issue"), "allow");
  assert.equal(mcpToolRuleDecision(rules, "github", "list_issues"), null, "server rule only");
  assert.equal(mcpToolRuleDecision(rules, "gitlab", "create_issue"), "deny");
  assert.equal(mcpToolRuleDecision([], "github", "create_issue"), null);
});

Deno.test("mcp rules: a choice replaces the tool's rules; the same choice removes them", () => {
  const rules = [
    rule(0, "mcp:github/create_issue", "ask"),
    rule(1, "mcp:github", "deny"),
    rule(2, "mcp:github/create_issue", "deny"),
  ];
  const cases: {
    name: string;
    rules: ListedRule[];
    decision: ListedRule["decision"];
    remove: number[];
    add: string | null;
  }[] = [
    { name: "no rule yet: allow adds one", rules: [], decision: "allow", remove: [], add: "allow" },
    { name: "no rule yet: ask adds one", rules: [], decision: "ask", remove: [], add: "ask" },
    {
      name: "a different choice replaces both own rules, highest index first",
      rules,
      decision: "allow",
      remove: [2, 0],
      add: "allow",
    },
    {
      name: "the current choice removes the rules",
      rules,
      decision: "deny",
      remove: [2, 0],
      add: null,
    },
  ];
  for (const c of cases) {
    const plan = mcpToolChoicePlan(c.rules, "github", "create_issue", c.decision);
    assert.ok(plan, c.name);
    assert.deepEqual(plan.remove.map((r) => r.index), c.remove, `${c.name}: removals`);
    assert.deepEqual(
      plan.add,
      c.add === null ? null : { tool: "mcp:github/create_issue", decision: c.add },
      `${c.name}: addition`,
    );
  }
  assert.equal(mcpToolChoicePlan([], "github", "a b", "allow"), null, "a name rules refuse");
});

const view = (rules: ListedRule[]): PermissionsView => ({
  preset: "ask",
  highRiskCommands: "ask",
  rules,
});

Deno.test("mcp rules: a choice removes the tool's rules and appends the new one", async () => {
  let stored = [rule(0, "mcp:s/t", "deny"), rule(1, "read", "allow"), rule(2, "mcp:s/t", "ask")];
  permissionSettings.value = {
    ...emptyPermissionSettings(),
    status: "ready",
    settings: view(stored),
  };
  const fake = fakeCall({
    "permission.removeRule": (p) => {
      const index = p.index as number;
      stored = stored.filter((r) => r.index !== index).map((r, i) => ({ ...r, index: i }));
      return view(stored);
    },
    "permission.addRule": (p) => {
      stored = [...stored, { ...(p.rule as ListedRule), index: stored.length }];
      return view(stored);
    },
  });
  assert.equal(await applyMcpToolChoice("s", "t", "allow", fake.call), true);
  assert.deepEqual(fake.calls.map((c) => [c.method, c.params.index ?? null]), [
    ["permission.removeRule", 2],
    ["permission.removeRule", 0],
    ["permission.addRule", null],
  ]);
  assert.deepEqual(permissionSettings.value.settings?.rules, [
    rule(0, "read", "allow"),
    rule(1, "mcp:s/t", "allow"),
  ]);
  // The same choice again takes the rule away.
  assert.equal(await applyMcpToolChoice("s", "t", "allow", fake.call), true);
  assert.deepEqual(permissionSettings.value.settings?.rules, [rule(0, "read", "allow")]);
});

Deno.test("mcp rules: a refused step stops the choice and keeps the reason", async () => {
  permissionSettings.value = {
    ...emptyPermissionSettings(),
    status: "ready",
    settings: view([rule(0, "mcp:s/t", "deny")]),
  };
  const fake = fakeCall({
    "permission.removeRule": () => {
      throw rpcFailure("config_invalid", "config.yaml is broken");
    },
  });
  assert.equal(await applyMcpToolChoice("s", "t", "allow", fake.call), false);
  assert.equal(fake.calls.length, 1, "nothing is added after a refused removal");
  assert.equal(permissionSettings.value.error?.code, "config_invalid");
  // Before the settings were read nothing is sent.
  permissionSettings.value = emptyPermissionSettings();
  const idle = fakeCall({});
  assert.equal(await applyMcpToolChoice("s", "t", "allow", idle.call), false);
  assert.equal(idle.calls.length, 0);
});
