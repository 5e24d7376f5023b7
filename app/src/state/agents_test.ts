import assert from "node:assert/strict";
import type { AgentInfo, AgentProfile } from "@daedalus/client";
import {
  agentOfThread,
  agentsView,
  copyProfile,
  emptyAgents,
  loadAgents,
  removeAgent,
  saveAgent,
  withSelection,
} from "./agents.ts";
import { fakeCall, rpcFailure } from "./_fake_call.ts";

const build: AgentProfile = {
  id: "build",
  name: "Build",
  permission: "full_access",
  memory: { recall: true, memoryFile: true },
};
const info = (profile: AgentProfile, isDefault = false): AgentInfo => ({
  profile,
  builtIn: profile.id === "build",
  saved: profile.id !== "build",
  isDefault,
});
const listed = (agents: AgentInfo[]) => () => ({
  agents,
  defaultAgentId: "build",
  tools: ["read"],
});

Deno.test("copyProfile: a free id and a copy's name, the settings kept", () => {
  const copy = copyProfile(build, ["build", "build-copy"], (name) => `${name} (copy)`);
  assert.equal(copy.id, "build-copy-2", "the copy took an id in use");
  assert.equal(copy.name, "Build (copy)");
  assert.equal(copy.permission, "full_access");
  assert.equal(copyProfile(build, ["build"], (n) => n).id, "build-copy");
});

Deno.test("withSelection: null leaves the list out (all), a list is kept, [] is none", () => {
  const limited = withSelection(build, "tools", ["read"]);
  assert.deepEqual(limited.tools, ["read"]);
  assert.ok(!("tools" in withSelection(limited, "tools", null)), "all must drop the key");
  assert.deepEqual(withSelection(build, "skills", []).skills, [], "[] must stay []");
});

Deno.test("agentOfThread: the binding when it exists, else the default", () => {
  const view = { ...emptyAgents(), agents: [info(build, true), info({ ...build, id: "plan" })] };
  assert.equal(agentOfThread(view, { agentId: "plan" } as never)?.profile.id, "plan");
  assert.equal(agentOfThread(view, { agentId: "gone" } as never)?.profile.id, "build");
  assert.equal(agentOfThread(view, undefined)?.profile.id, "build");
});

Deno.test("loadAgents, saveAgent, removeAgent: the list, a refusal kept, a removal said", async () => {
  agentsView.value = emptyAgents();
  const mine = { ...build, id: "mine", name: "Mine" };
  let agents = [info(build, true)];
  const fake = fakeCall({
    "agent.list": () => listed(agents)(),
    "skill.list": () => ({ skills: [{ name: "b" }, { name: "a" }], diagnostics: [] }),
    "agent.save": (params) => {
      const profile = params.profile as AgentProfile;
      if (profile.tools?.includes("nope")) {
        throw rpcFailure("tool_not_found", 'There is no tool "nope"');
      }
      agents = [...agents, info(profile)];
      return { agent: info(profile) };
    },
    "agent.remove": () => {
      agents = agents.filter((a) => a.profile.id !== "mine");
      return { agentId: "mine", movedTo: "build", movedThreads: 2 };
    },
  });
  await loadAgents(fake.call);
  assert.equal(agentsView.value.status, "ready");
  assert.deepEqual(agentsView.value.skills, ["a", "b"], "skills must be sorted");
  assert.deepEqual(agentsView.value.tools, ["read"]);
  assert.equal(await saveAgent({ ...mine, tools: ["nope"] }, false, fake.call), false);
  assert.equal(agentsView.value.error?.code, "tool_not_found", "the refusal is not shown");
  assert.equal(await saveAgent(mine, true, fake.call), true);
  assert.equal(agentsView.value.error, null, "a success must clear the failure");
  assert.deepEqual(
    fake.calls.filter((c) => c.method === "agent.save").at(-1)?.params,
    { profile: mine, makeDefault: true },
  );
  assert.deepEqual(agentsView.value.agents.map((a) => a.profile.id), ["build", "mine"]);
  assert.equal(await removeAgent("mine", fake.call), true);
  assert.deepEqual(agentsView.value.removed, {
    agentId: "mine",
    movedTo: "build",
    movedThreads: 2,
  });
  assert.deepEqual(agentsView.value.agents.map((a) => a.profile.id), ["build"]);
  assert.equal(agentsView.value.pending, false);
});
