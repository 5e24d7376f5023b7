/**
 * Agent profiles end to end inside one runtime (issue 21): the selection rule for tools
 * and skills as the model's request shows it, a Plan thread refused writes and commands by
 * the gate, a profile edited after a Run was submitted leaving that Run's frozen config
 * alone, `agent.save`'s refusals and `agent.remove` moving bound threads to the default.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RpcError } from "@daedalus/protocol";
import { readRunConfig, readRunItems } from "@daedalus/storage";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedProvider } from "../providers/scripted.ts";
import type { RpcSession } from "../server/dispatcher.ts";
import { runSettled } from "../_test_wait.ts";

const session: RpcSession = { id: "test", transport: "http" };
const MODEL = { providerId: "scripted", modelId: "scripted-model" };

/** A read tool that only answers. */
function quietTool(id: string) {
  return defineTool({
    id,
    description: `The ${id} tool`,
    params: z.object({}),
    mutating: false,
    risk: "read",
    run: () => Promise.resolve({ content: `${id} ran` }),
  });
}

interface Harness {
  // deno-lint-ignore no-explicit-any
  call: (method: string, params: unknown) => Promise<any>;
  /** Starts a turn and waits for its Run to settle; returns the runId. */
  run: (params: Record<string, unknown>) => Promise<string>;
  provider: ScriptedProvider;
  core: Awaited<ReturnType<typeof openRuntimeCore>>;
  home: string;
}

async function withRuntime(
  options: {
    customTools?: boolean;
    script?: Parameters<typeof createScriptedProvider>[0]["script"];
  },
  body: (harness: Harness) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-agents-" });
  for (const name of ["alpha", "beta"]) {
    await Deno.mkdir(join(home, "skills", name), { recursive: true });
    await Deno.writeTextFile(
      join(home, "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: The ${name} skill\n---\nBody\n`,
    );
  }
  const provider = createScriptedProvider({
    script: options.script ?? (() => ({ text: ["done"] })),
  });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider],
    ...(options.customTools ? { tools: [quietTool("open"), quietTool("other")] } : {}),
    threadTitles: false,
    memoryRefinement: false,
  });
  const events: Parameters<Parameters<typeof core.hub.subscribe>[0]>[0][] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = async (method: string, params: unknown) => {
    const outcome = await core.dispatcher.dispatch(method, params, session);
    outcome.afterResponse?.();
    // deno-lint-ignore no-explicit-any
    return outcome.result as any;
  };
  const run = async (params: Record<string, unknown>) => {
    const started = await call("turn.start", { content: "go", ...MODEL, ...params });
    await runSettled(events, started.runId);
    return started.runId as string;
  };
  try {
    await body({ call, run, provider, core, home });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

const memory = { recall: false, memoryFile: false };

function refusedWith(code: string, field: string) {
  return (error: unknown) =>
    error instanceof RpcError && error.data.reasonCode === code &&
    (error.data as { field?: string }).field === field;
}

Deno.test("selection rule: tools and skills absent = all, [] = none, a list = those, in the model's request", async () => {
  await withRuntime({ customTools: true }, async ({ call, run, provider }) => {
    // null: every tool of the runtime (its own and the two added here).
    const cases: [string, Record<string, unknown>, string[] | null, string[]][] = [
      ["absent", {}, null, ["alpha", "beta"]],
      ["empty", { tools: [], skills: [] }, [], []],
      ["a list", { tools: ["other"], skills: ["beta"] }, ["other"], ["beta"]],
    ];
    for (const [name, selection, tools, skills] of cases) {
      const id = `sel-${name === "a list" ? "list" : name}`;
      await call("agent.save", {
        profile: { id, name, permission: "full_access", memory, ...selection },
      });
      const { thread } = await call("thread.create", { title: name, agentId: id });
      assert.equal(thread.agentId, id, `${name}: the thread is not bound`);
      const before = provider.requests.length;
      await run({ threadId: thread.id });
      const request = provider.requests[before];
      const offered = request.tools.map((tool) => tool.name);
      if (tools === null) {
        for (const tool of ["open", "other", "read", "write", "process_start", "subagent"]) {
          assert.ok(offered.includes(tool), `${name}: ${tool} was not offered`);
        }
      } else assert.deepEqual(offered, tools, `${name}: the model was offered the wrong tools`);
      const system = request.messages.filter((m) => m.role === "system")
        .map((m) => String(m.content)).join("\n");
      for (const skill of ["alpha", "beta"]) {
        assert.equal(
          system.includes(`<name>${skill}</name>`),
          skills.includes(skill),
          `${name}: skill ${skill} ${
            skills.includes(skill) ? "missing from" : "offered in"
          } the prompt`,
        );
      }
    }
  });
});

Deno.test("a Plan thread cannot write or run a command: the gate refuses, whatever the turn asks", async () => {
  // Each Run's first call asks for a write and a command; after the results it answers.
  const script = (request: { messages: { role: string }[] }) =>
    request.messages.at(-1)?.role === "user"
      ? {
        toolCalls: [
          { name: "write", arguments: { path: "made.txt", content: "x" } },
          { name: "process_start", arguments: { command: "touch ran.txt" } },
        ],
      }
      : { text: ["planned"] };
  await withRuntime({ script }, async ({ call, run, core, provider }) => {
    const { thread } = await call("thread.create", { title: "plan", agentId: "plan" });
    const runId = await run({ threadId: thread.id, executionPolicy: "full_access" });
    const config = core.store.read((db) => readRunConfig(db, runId));
    assert.equal(config.executionPolicy, "read_only", "full_access was not lowered to Plan's");
    assert.equal(config.agent?.profile.id, "plan");
    const offered = provider.requests[0].tools.map((tool) => tool.name);
    assert.ok(
      !offered.includes("write") && !offered.includes("process_start"),
      `offered ${offered}`,
    );
    const system = provider.requests[0].messages.find((m) => m.role === "system");
    assert.match(String(system?.content), /Plan mode/, "Plan's instructions are not in the prompt");
    const results = core.store.read((db) => readRunItems(db, runId))
      .filter((item) => item.kind === "tool_result");
    assert.equal(results.length, 2, "each refused call must get a result");
    const root = thread.workspace.rootUri as string;
    for (const file of ["made.txt", "ran.txt"]) {
      await assert.rejects(Deno.stat(join(root, file)), Deno.errors.NotFound, `${file} exists`);
    }

    // A copy of Plan offered every tool still cannot write: its read_only preset refuses.
    await call("agent.save", {
      profile: { id: "plan-all", name: "Plan all", permission: "read_only", memory },
    });
    await call("thread.set_agent", { threadId: thread.id, agentId: "plan-all" });
    const wide = await run({ threadId: thread.id, executionPolicy: "full_access" });
    assert.ok(provider.requests.at(-2)!.tools.some((tool) => tool.name === "write"));
    const refused = core.store.read((db) => readRunItems(db, wide))
      .filter((item) => item.kind === "tool_result");
    assert.ok(
      refused.every((item) => /permission_denied|read_only|denied/i.test(item.content)),
      `the gate let a call through: ${refused.map((item) => item.content).join(" | ")}`,
    );
    for (const file of ["made.txt", "ran.txt"]) {
      await assert.rejects(Deno.stat(join(root, file)), Deno.errors.NotFound, `${file} exists`);
    }
  });
});

Deno.test("editing a profile after a Run was submitted leaves its frozen config unchanged", async () => {
  await withRuntime({ customTools: true }, async ({ call, core, provider }) => {
    await call("agent.save", {
      profile: { id: "mine", name: "Mine", permission: "ask", tools: ["open"], memory },
    });
    const { thread } = await call("thread.create", { title: "t", agentId: "mine" });
    // Submitted, not yet scheduled: the edit lands while the Run is queued.
    const outcome = await core.dispatcher.dispatch(
      "turn.start",
      { threadId: thread.id, content: "go", ...MODEL },
      session,
    );
    const { runId } = outcome.result as { runId: string };
    await call("agent.save", {
      profile: { id: "mine", name: "Edited", permission: "ask", tools: ["other"], memory },
    });
    const events: { type: string; runId?: string | null }[] = [];
    core.hub.subscribe((event) => events.push(event));
    outcome.afterResponse?.();
    // deno-lint-ignore no-explicit-any
    await runSettled(events as any, runId);
    const config = core.store.read((db) => readRunConfig(db, runId));
    assert.equal(config.agent?.profile.name, "Mine", "the frozen profile changed");
    assert.deepEqual(config.allowedTools, ["open"], "the frozen tools changed");
    assert.deepEqual(provider.requests[0].tools.map((tool) => tool.name), ["open"]);
    assert.equal((await call("agent.get", { agentId: "mine" })).agent.profile.name, "Edited");
  });
});

Deno.test("agent.save refuses naming the field; agent.remove moves bound threads to the default", async () => {
  await withRuntime({}, async ({ call, home }) => {
    const profile = { id: "mine", name: "Mine", permission: "ask", memory };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ tools: ["read", "nope"] }, "tool_not_found", "profile.tools[1]"],
      [{ skills: ["gamma"] }, "skill_not_found", "profile.skills[0]"],
      [{ mcpServers: ["none"] }, "mcp_server_not_found", "profile.mcpServers[0]"],
      [{ subagents: ["ghost"] }, "agent_not_found", "profile.subagents[0]"],
      [{ model: { providerId: "scripted", modelId: "nope" } }, "model_not_found", "profile.model"],
    ];
    for (const [change, code, field] of cases) {
      await assert.rejects(
        call("agent.save", { profile: { ...profile, ...change } }),
        refusedWith(code, field),
        `${code}: not refused naming ${field}`,
      );
    }
    const config = join(home, "config.yaml");
    const text = await Deno.readTextFile(config).catch(() => "version: 1\n");
    await Deno.writeTextFile(config, `${text.trimEnd()}\nagents:\n  max_permission: ask\n`);
    await assert.rejects(
      call("agent.save", { profile: { ...profile, permission: "workspace_write" } }),
      refusedWith("agent_permission_too_wide", "profile.permission"),
    );
    await assert.rejects(
      call("thread.create", { agentId: "ghost" }),
      refusedWith("agent_not_found", "agentId"),
    );

    const listed = await call("agent.list", {});
    assert.deepEqual(listed.agents.map((a: { profile: { id: string } }) => a.profile.id), [
      "build",
      "plan",
      "explore",
    ]);
    await call("agent.save", { profile, makeDefault: true });
    const { thread: unnamed } = await call("thread.create", {});
    assert.equal(unnamed.agentId, "mine", "a new thread is not bound to the default");
    await call("agent.save", { profile: { ...profile, id: "other", name: "Other" } });
    const { thread } = await call("thread.create", { agentId: "other" });
    const { thread: planThread } = await call("thread.create", { agentId: "plan" });
    await assert.rejects(
      call("agent.remove", { agentId: "plan" }),
      refusedWith("agent_builtin", "agentId"),
    );
    const removed = await call("agent.remove", { agentId: "other" });
    assert.deepEqual(
      { movedTo: removed.movedTo, movedThreads: removed.movedThreads },
      { movedTo: "mine", movedThreads: 1 },
    );
    assert.equal((await call("thread.get", { threadId: thread.id })).thread.agentId, "mine");
    assert.equal((await call("thread.get", { threadId: planThread.id })).thread.agentId, "plan");
    // The default removed: its threads go to build.
    const again = await call("agent.remove", { agentId: "mine" });
    assert.deepEqual({ movedTo: again.movedTo, movedThreads: again.movedThreads }, {
      movedTo: "build",
      movedThreads: 2,
    });
    await assert.rejects(
      call("thread.set_agent", { threadId: thread.id, agentId: "ghost" }),
      refusedWith("agent_not_found", "agentId"),
    );
    const set = await call("thread.set_agent", { threadId: thread.id, agentId: "explore" });
    assert.equal(set.thread.agentId, "explore");
    assert.equal(set.changed, true);
  });
});

Deno.test("a sub-agent runs its own profile (explore by default), never wider than its caller", async () => {
  // The caller delegates once; the child (its prompt says Explore or Plan) answers.
  const script = (request: { messages: { role: string; content?: unknown }[] }) => {
    const system = String(request.messages.find((m) => m.role === "system")?.content ?? "");
    const last = request.messages.at(-1);
    if (/Explore agent|Plan mode/.test(system)) return { text: ["child answer"] };
    if (last?.role !== "user") return { text: ["parent done"] };
    const agent = /use plan/.test(String(last.content)) ? { agent: "plan" } : {};
    return { toolCalls: [{ name: "subagent", arguments: { task: "look around", ...agent } }] };
  };
  await withRuntime({ script }, async ({ call, run, core, provider }) => {
    const { thread } = await call("thread.create", { title: "parent" });
    const parentRun = await run({ threadId: thread.id, executionPolicy: "full_access" });
    const runs = core.store.read((db) =>
      db.connection.prepare("SELECT id FROM runs WHERE id != ? ORDER BY rowid").all(parentRun)
    ) as { id: string }[];
    assert.equal(runs.length, 1, "one sub-agent Run");
    const child = core.store.read((db) => readRunConfig(db, runs[0].id));
    assert.equal(child.agent?.profile.id, "explore", "the sub-agent is not Explore");
    assert.equal(child.executionPolicy, "read_only");
    assert.equal(child.parentRunId, parentRun);
    assert.equal(child.subagentDepth, 1);
    const childRequest = provider.requests.find((r) =>
      /Explore agent/.test(String(r.messages.find((m) => m.role === "system")?.content))
    )!;
    const offered = childRequest.tools.map((tool) => tool.name);
    assert.ok(offered.includes("read"), `offered ${offered}`);
    assert.ok(!offered.includes("write") && !offered.includes("subagent"), `offered ${offered}`);

    // A caller limited to explore cannot delegate to plan: the tool call is refused.
    await call("agent.save", {
      profile: {
        id: "lead",
        name: "Lead",
        permission: "full_access",
        subagents: ["explore"],
        memory,
      },
    });
    await call("thread.set_agent", { threadId: thread.id, agentId: "lead" });
    const limited = await run({
      threadId: thread.id,
      content: "use plan",
      executionPolicy: "full_access",
    });
    const result = core.store.read((db) => readRunItems(db, limited))
      .find((item) => item.kind === "tool_result");
    assert.match(result?.content ?? "", /subagent_agent_not_allowed/);
  });
});
