import assert from "node:assert/strict";
import type { AgentProfile } from "@daedalus/protocol";
import { type AgentFacts, checkAgentProfile } from "./agent_checks.ts";

const facts: AgentFacts = {
  toolNames: new Set(["read", "write"]),
  skillNames: new Set(["pdf"]),
  mcpServers: new Set(["files"]),
  agentIds: new Set(["build", "plan", "explore", "mine"]),
  maxPermission: "workspace_write",
  modelProblem: (providerId, modelId) =>
    providerId === "p" && modelId === "m" ? null : `Model ${modelId} is not configured`,
};

const base: AgentProfile = {
  id: "mine",
  name: "Mine",
  permission: "ask",
  memory: { recall: true, memoryFile: false },
};

Deno.test("checkAgentProfile: each unknown name is refused with its code and field", () => {
  const cases: [string, Partial<AgentProfile>, string | null, string | null][] = [
    ["a valid profile", { tools: ["read"], skills: ["pdf"], mcpServers: ["files"] }, null, null],
    ["empty lists", { tools: [], skills: [], mcpServers: [], subagents: [] }, null, null],
    ["an unknown tool", { tools: ["read", "nope"] }, "tool_not_found", "profile.tools[1]"],
    ["an unknown skill", { skills: ["x"] }, "skill_not_found", "profile.skills[0]"],
    ["an unknown server", { mcpServers: ["s"] }, "mcp_server_not_found", "profile.mcpServers[0]"],
    ["an unknown sub-agent", { subagents: ["x"] }, "agent_not_found", "profile.subagents[0]"],
    [
      "an unknown model",
      { model: { providerId: "p", modelId: "x" } },
      "model_not_found",
      "profile.model",
    ],
    ["a known model", { model: { providerId: "p", modelId: "m" } }, null, null],
    [
      "a preset above the ceiling",
      { permission: "full_access" },
      "agent_permission_too_wide",
      "profile.permission",
    ],
    ["the ceiling itself", { permission: "workspace_write" }, null, null],
  ];
  for (const [name, change, code, field] of cases) {
    const refusal = checkAgentProfile({ ...base, ...change }, facts);
    assert.equal(refusal?.reasonCode ?? null, code, `${name}: wrong reason code`);
    assert.equal(refusal?.field ?? null, field, `${name}: wrong field`);
    if (refusal) assert.ok(refusal.message.length > 0, `${name}: no message`);
  }
});
