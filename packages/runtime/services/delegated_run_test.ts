/**
 * Delegated Runs and agent profiles (issue 21): a cross-thread message (`thread_send`)
 * runs the target thread's own profile, not the sender's, and a sub-agent never gets a
 * skill or tool its caller may not use (seed 003's selection rule on both sides: absent =
 * all, `[]` = none, a list = those; the child gets the intersection).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JournalEvent } from "@daedalus/protocol";
import { readRunConfig } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import {
  createScriptedProvider,
  type Script,
  type ScriptedProvider,
} from "../providers/scripted.ts";
import { messageText, type ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";

const MODEL = { providerId: "scripted", modelId: "scripted-model" };
const memory = { recall: false, memoryFile: false };

interface Harness {
  // deno-lint-ignore no-explicit-any
  call: (method: string, params: unknown) => Promise<any>;
  /** Starts a full-access turn, waits for it to settle, returns its runId. */
  run: (threadId: string, content: string) => Promise<string>;
  core: Awaited<ReturnType<typeof openRuntimeCore>>;
  provider: ScriptedProvider;
}

async function withRuntime(script: Script, body: (harness: Harness) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-delegated-" });
  for (const name of ["alpha", "beta"]) {
    await Deno.mkdir(join(home, "skills", name), { recursive: true });
    await Deno.writeTextFile(
      join(home, "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: The ${name} skill\n---\nBody\n`,
    );
  }
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [provider],
    threadTitles: false,
    memoryRefinement: false,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = dispatchOn(core);
  const run = async (threadId: string, content: string) => {
    // Session tools ask under `ask`: these turns allow them (a profile may lower it).
    const started = await call("turn.start", {
      threadId,
      content,
      ...MODEL,
      executionPolicy: "full_access",
    });
    await runSettled(events, started.runId);
    return started.runId as string;
  };
  try {
    await body({ call, run, core, provider });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

function lastUser(request: ProviderRequest): string {
  const user = [...request.messages].reverse().find((m) => m.role === "user");
  return user ? messageText(user.content) : "";
}

function systemOf(request: ProviderRequest): string {
  return request.messages.filter((m) => m.role === "system")
    .map((m) => messageText(m.content)).join("\n");
}

/** The Runs other than `runId`, oldest first. */
function otherRuns(core: Harness["core"], runId: string): string[] {
  const rows = core.store.read((db) =>
    db.connection.prepare("SELECT id FROM runs WHERE id != ? ORDER BY rowid").all(runId)
  ) as { id: string }[];
  return rows.map((row) => row.id);
}

Deno.test("thread_send runs the target thread's own profile, under the sender's ceiling", async () => {
  // The sender's turn names the target; the target's Run (its message says where it
  // came from) answers; the sender then finishes.
  const script: Script = (request) => {
    const user = lastUser(request);
    if (user.startsWith("[Cross-session message")) return { text: ["target answer"] };
    if (request.messages.at(-1)?.role === "tool") return { text: ["sender done"] };
    const target = /send to (thread_[0-9a-f]{32})/.exec(user)?.[1];
    return {
      toolCalls: [{
        name: "thread_send",
        arguments: { threadId: target, content: "hello", wait: true },
      }],
    };
  };
  await withRuntime(script, async ({ call, run, core, provider }) => {
    const sender = (await call("thread.create", { title: "sender" })).thread;
    const planned = (await call("thread.create", { title: "plan", agentId: "plan" })).thread;
    const first = await run(sender.id, `send to ${planned.id}`);
    const [planRun] = otherRuns(core, first);
    assert.ok(planRun, "the message started no Run in the target thread");
    const planConfig = core.store.read((db) => readRunConfig(db, planRun));
    assert.equal(planConfig.agent?.profile.id, "plan", "the target ran the sender's profile");
    assert.equal(planConfig.executionPolicy, "read_only", "Plan's preset was not applied");
    const planRequest = provider.requests.find((r) => lastUser(r).startsWith("[Cross-session"))!;
    const planTools = planRequest.tools.map((tool) => tool.name);
    assert.ok(planTools.includes("read"), `plan was offered ${planTools}`);
    assert.ok(!planTools.includes("write"), `the plan thread was offered write: ${planTools}`);

    // A sender limited to reading cannot widen itself through a Build thread.
    await call("agent.save", {
      profile: {
        id: "messenger",
        name: "Messenger",
        permission: "full_access",
        tools: ["read", "thread_send"],
        skills: ["alpha"],
        memory,
      },
    });
    await call("thread.set_agent", { threadId: sender.id, agentId: "messenger" });
    const built = (await call("thread.create", { title: "build", agentId: "build" })).thread;
    const before = provider.requests.length;
    const second = await run(sender.id, `send to ${built.id}`);
    const buildRun = otherRuns(core, second).find((id) => id !== first && id !== planRun)!;
    const buildConfig = core.store.read((db) => readRunConfig(db, buildRun));
    assert.equal(buildConfig.agent?.profile.id, "build");
    assert.deepEqual(buildConfig.allowedTools, ["read", "thread_send"], "not the sender's ceiling");
    assert.deepEqual(buildConfig.skills.map((skill) => skill.name), ["alpha"]);
    const buildRequest = provider.requests.slice(before).find((r) =>
      lastUser(r).startsWith("[Cross-session")
    )!;
    assert.deepEqual(buildRequest.tools.map((tool) => tool.name).sort(), ["read", "thread_send"]);
  });
});

Deno.test("a sub-agent's skills are its profile's selection within its caller's", async () => {
  // [caller's skills, child's skills, what the child gets]; absent = all, [] = none.
  const cases: [string[] | undefined, string[] | undefined, string[]][] = [
    [undefined, ["beta"], ["beta"]],
    [["alpha"], undefined, ["alpha"]],
    [["alpha"], ["alpha", "beta"], ["alpha"]],
    [["alpha"], ["beta"], []],
    [[], undefined, []],
  ];
  const script: Script = (request) => {
    const user = lastUser(request);
    if (user === "child task") return { text: ["child answer"] };
    if (request.messages.at(-1)?.role === "tool") return { text: ["parent done"] };
    return {
      toolCalls: [{ name: "subagent", arguments: { task: "child task", agent: "child" } }],
    };
  };
  await withRuntime(script, async ({ call, run, core, provider }) => {
    for (const [caller, child, expected] of cases) {
      const name = `caller ${JSON.stringify(caller)}, child ${JSON.stringify(child)}`;
      const selection = (skills: string[] | undefined) => skills ? { skills } : {};
      await call("agent.save", {
        profile: {
          id: "lead",
          name: "Lead",
          permission: "full_access",
          tools: ["read", "subagent"],
          ...selection(caller),
          memory,
        },
      });
      await call("agent.save", {
        profile: {
          id: "child",
          name: "Child",
          permission: "full_access",
          ...selection(child),
          memory,
        },
      });
      const { thread } = await call("thread.create", { title: name, agentId: "lead" });
      const before = provider.requests.length;
      const parentRun = await run(thread.id, "delegate");
      const childRun = otherRuns(core, parentRun).at(-1)!;
      const config = core.store.read((db) => readRunConfig(db, childRun));
      assert.equal(config.parentRunId, parentRun, `${name}: the newest Run is not the child`);
      assert.deepEqual(config.skills.map((skill) => skill.name), expected, name);
      assert.deepEqual(
        [...config.allowedTools ?? []].sort(),
        ["read", "subagent"],
        `${name}: the child's tools are not within the caller's`,
      );
      const childRequest = provider.requests.slice(before).find((r) =>
        lastUser(r) === "child task"
      )!;
      for (const skill of ["alpha", "beta"]) {
        assert.equal(
          systemOf(childRequest).includes(`<name>${skill}</name>`),
          expected.includes(skill),
          `${name}: skill ${skill} in the child's prompt`,
        );
      }
    }
  });
});
