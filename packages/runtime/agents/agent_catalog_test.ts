import assert from "node:assert/strict";
import type { AgentProfile } from "@daedalus/protocol";
import { agentCatalog, narrowerPreset, presetRank } from "./agent_catalog.ts";
import { BUILTIN_AGENTS, isBuiltInAgent } from "./builtin_agents.ts";

const reviewer: AgentProfile = {
  id: "reviewer",
  name: "Reviewer",
  permission: "read_only",
  tools: ["read"],
  memory: { recall: false, memoryFile: false },
};

Deno.test("agentCatalog: the built-ins alone, build the default, full_access the ceiling", () => {
  const catalog = agentCatalog({});
  assert.deepEqual(catalog.agents.map((a) => a.profile.id), ["build", "plan", "explore"]);
  assert.equal(catalog.defaultAgentId, "build");
  assert.equal(catalog.maxPermission, "full_access");
  assert.ok(catalog.agents.every((a) => a.builtIn && !a.saved), "built-ins are not saved");
  assert.equal(catalog.find("build")?.isDefault, true);
  assert.equal(catalog.find("nope"), undefined);
});

Deno.test("agentCatalog: a saved copy replaces its built-in in place; others follow", () => {
  const planCopy: AgentProfile = { ...BUILTIN_AGENTS[1], name: "My plan", tools: ["read"] };
  const catalog = agentCatalog({
    profiles: [reviewer, planCopy],
    default_agent_id: "reviewer",
    max_permission: "ask",
  });
  assert.deepEqual(catalog.agents.map((a) => a.profile.id), [
    "build",
    "plan",
    "explore",
    "reviewer",
  ]);
  const plan = catalog.find("plan")!;
  assert.equal(plan.profile.name, "My plan", "the saved copy must win over the built-in");
  assert.equal(plan.builtIn && plan.saved, true);
  assert.equal(catalog.find("reviewer")?.builtIn, false);
  assert.equal(catalog.defaultAgentId, "reviewer");
  assert.equal(catalog.find("reviewer")?.isDefault, true);
  assert.equal(catalog.find("build")?.isDefault, false);
  assert.equal(catalog.maxPermission, "ask");
});

Deno.test("agentCatalog: a default that names no profile falls back to build", () => {
  assert.equal(agentCatalog({ default_agent_id: "gone" }).defaultAgentId, "build");
});

Deno.test("presets rank read_only < ask < workspace_write < full_access", () => {
  const order = ["read_only", "ask", "workspace_write", "full_access"] as const;
  order.forEach((preset, index) => assert.equal(presetRank(preset), index, preset));
  for (const a of order) {
    for (const b of order) {
      const expected = order.indexOf(a) <= order.indexOf(b) ? a : b;
      assert.equal(narrowerPreset(a, b), expected, `narrower of ${a} and ${b}`);
    }
  }
});

Deno.test("built-ins: plan and explore are read-only with no write or process tool", () => {
  for (const id of ["plan", "explore"]) {
    const profile = BUILTIN_AGENTS.find((p) => p.id === id)!;
    assert.equal(profile.permission, "read_only", `${id} must be read_only`);
    const tools = profile.tools ?? [];
    assert.ok(tools.length > 0, `${id} must list its tools`);
    for (const tool of tools) {
      assert.ok(
        !["write", "edit", "subagent"].includes(tool) && !tool.startsWith("process_"),
        `${id} lists ${tool}`,
      );
    }
    assert.deepEqual(profile.mcpServers, [], `${id} must get no MCP server`);
  }
  const build = BUILTIN_AGENTS[0];
  assert.equal(build.tools, undefined, "build selects every tool");
  assert.equal(build.skills, undefined, "build selects every skill");
  assert.ok(isBuiltInAgent("explore") && !isBuiltInAgent("reviewer"));
});
