import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { activateRun, startTurn } from "@daedalus/storage";
import { openRuntimeCore, type RuntimeCoreOptions } from "../runtime_core.ts";
import { createScriptedProvider, type Script } from "../providers/scripted.ts";
import { messageText, type ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { eventSeen, runSettled } from "../_test_wait.ts";
import { testRunConfig } from "../_test_run_config.ts";

// Sub-agents and cross-thread sends are session changes: `ask` (the default) would wait for
// the user, so these Runs are full_access.
const MODEL = {
  providerId: "scripted",
  modelId: "scripted-model",
  executionPolicy: "full_access" as const,
};

function lastUser(request: ProviderRequest): string {
  const user = [...request.messages].reverse().find((m) => m.role === "user");
  return user ? messageText(user.content) : "";
}
function lastTool(request: ProviderRequest): string | null {
  const last = request.messages.at(-1);
  return last?.role === "tool" ? messageText(last.content) : null;
}

async function withCore(
  script: Script,
  options: Partial<RuntimeCoreOptions>,
  fn: (h: Harness) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-session-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [createScriptedProvider({ script })],
    threadTitles: false,
    memoryRefinement: false,
    ...options,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const settled = (runId: string) => runSettled(events, runId);
  const toolResult = async (threadId: string, toolId: string) => {
    const page = await call("turn.list", { threadId });
    const items = page.turns.flatMap((t: { runs: { items: unknown[] }[] }) =>
      t.runs.flatMap((r) => r.items)
    );
    return items.find((i: { kind: string; data: { toolId?: string } }) =>
      i.kind === "tool_result" && i.data.toolId === toolId
    );
  };
  try {
    await fn({ core, call, settled, events, toolResult });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

interface Harness {
  core: Awaited<ReturnType<typeof openRuntimeCore>>;
  // deno-lint-ignore no-explicit-any
  call: (method: string, params: unknown) => Promise<any>;
  settled: (runId: string) => Promise<JournalEvent>;
  events: JournalEvent[];
  // deno-lint-ignore no-explicit-any
  toolResult: (threadId: string, toolId: string) => Promise<any>;
}

/** The parent asks a sub-agent; the child answers; the parent repeats what it heard. */
const delegating: Script = (request) => {
  const user = lastUser(request);
  const tool = lastTool(request);
  if (tool !== null) return { text: [`heard: ${tool}`] };
  if (user.startsWith("delegate")) {
    return { toolCalls: [{ name: "subagent", arguments: { task: "child: count to three" } }] };
  }
  if (user.startsWith("child: nest")) {
    return { toolCalls: [{ name: "subagent", arguments: { task: "child: deeper" } }] };
  }
  if (user.startsWith("nest")) {
    // A Build child: it has the subagent tool (Explore, the default, does not).
    return {
      toolCalls: [{ name: "subagent", arguments: { task: "child: nest again", agent: "build" } }],
    };
  }
  return { text: ["one two three"] };
};

Deno.test("a waiting sub-agent runs inline, even when the only worker is the parent's", async () => {
  await withCore(delegating, { workers: 1 }, async ({ call, settled, toolResult }) => {
    const { thread } = await call("thread.create", { title: "parent" });
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content: "delegate",
      ...MODEL,
    });
    const done = await settled(runId);
    assert.equal(done.payload.status, "completed");
    const result = await toolResult(thread.id, "subagent");
    assert.equal(result.content, "one two three");
    assert.equal(result.data.status, "completed");
    const threads = (await call("thread.list", {})).threads;
    const child = threads.find((t: { title: string }) => t.title.startsWith("Sub-agent"));
    assert.equal(
      child.workspace.rootUri,
      thread.workspace.rootUri,
      "the child works in the parent's workspace",
    );
  });
});

Deno.test("sub-agents nest at most DAEDALUS_SUBAGENT_MAX_DEPTH deep", async () => {
  await withCore(delegating, { subagentMaxDepth: 1 }, async ({ call, settled, toolResult }) => {
    const { thread } = await call("thread.create", { title: "parent" });
    const { runId } = await call("turn.start", { threadId: thread.id, content: "nest", ...MODEL });
    await settled(runId);
    const first = await toolResult(thread.id, "subagent");
    assert.match(
      first.content,
      /subagent_depth_limit/,
      "the child's own subagent call was refused",
    );
  });
});

Deno.test("cancelling a parent cancels its non-blocking children", async () => {
  await withCore(
    (request) => {
      const user = lastUser(request);
      if (user.startsWith("fan out") && lastTool(request) === null) {
        return {
          toolCalls: [{ name: "subagent", arguments: { task: "slow child", wait: false } }],
        };
      }
      if (user.startsWith("slow child")) {
        return {
          text: Array.from({ length: 50 }, () => "."),
          delayMs: 50,
        };
      }
      return { text: ["waiting"], delayMs: 2000 };
    },
    {},
    async ({ call, settled, events }) => {
      const { thread } = await call("thread.create", { title: "parent" });
      const { runId } = await call("turn.start", {
        threadId: thread.id,
        content: "fan out",
        ...MODEL,
      });
      const childStarted = await eventSeen(
        events,
        "the sub-agent's run to start",
        (e) => e.type === "run.state_changed" && e.threadId !== thread.id && e.runId !== null,
      );
      const childRunId = childStarted.runId!;
      await call("run.cancel", { runId });
      assert.equal((await settled(runId)).payload.status, "cancelled");
      assert.equal((await settled(childRunId)).payload.status, "cancelled");
    },
  );
});

Deno.test("thread_send refuses busy and archived targets and chains past 3 hops", async () => {
  await withCore(
    (request) => {
      const user = lastUser(request);
      if (lastTool(request) !== null) return { text: ["ok"] };
      const target = /send to (thread_[0-9a-f]{32})/.exec(user)?.[1];
      if (target) {
        return {
          toolCalls: [{ name: "thread_send", arguments: { threadId: target, content: "hello" } }],
        };
      }
      return { text: ["slow"], delayMs: 300 };
    },
    {},
    async ({ call, settled, toolResult, core }) => {
      const a = (await call("thread.create", { title: "a" })).thread;
      const busy = (await call("thread.create", { title: "busy" })).thread;
      const archived = (await call("thread.create", { title: "archived" })).thread;
      await call("thread.archive", { threadId: archived.id });
      const slow = await call("turn.start", { threadId: busy.id, content: "work", ...MODEL });
      const toBusy = await call("turn.start", {
        threadId: a.id,
        content: `send to ${busy.id}`,
        ...MODEL,
      });
      await settled(toBusy.runId);
      assert.match((await toolResult(a.id, "thread_send")).content, /thread_busy/);
      await settled(slow.runId);
      const toArchived = await call("turn.start", {
        threadId: a.id,
        content: `send to ${archived.id}`,
        ...MODEL,
      });
      await settled(toArchived.runId);
      const results = (await call("turn.list", { threadId: a.id })).turns[1].runs[0].items;
      assert.match(
        results.find((i: { kind: string }) => i.kind === "tool_result").content,
        /thread_archived/,
      );
      // a message that already travelled 3 hops cannot be forwarded again
      const hop = (await call("thread.create", { title: "hop" })).thread;
      const far = startTurn(core.store, {
        threadId: hop.id,
        content: `[Cross-session message from thread ${a.id}]\nsend to ${busy.id}`,
        ...MODEL,
        runConfig: testRunConfig(MODEL),
        itemData: { threadSend: { fromThreadId: a.id, hops: 3 } },
      }).result;
      core.hub.publish([]);
      core.scheduler.enqueue(far.runId, hop.id);
      await settled(far.runId);
      assert.match((await toolResult(hop.id, "thread_send")).content, /thread_hop_limit/);
      void activateRun;
    },
  );
});

Deno.test("a sub-agent's answer over 64 KiB reaches the parent as a preview and an artifact", async () => {
  const long = Array.from({ length: 2_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
  await withCore(
    (request) => {
      const user = lastUser(request);
      if (user.startsWith("long child")) return { text: [long] };
      if (lastTool(request) !== null) return { text: ["got it"] };
      return { toolCalls: [{ name: "subagent", arguments: { task: "long child" } }] };
    },
    {},
    async ({ call, settled, toolResult }) => {
      const { thread } = await call("thread.create", { title: "parent" });
      const { runId } = await call("turn.start", { threadId: thread.id, content: "go", ...MODEL });
      assert.equal((await settled(runId)).payload.status, "completed");
      const result = await toolResult(thread.id, "subagent");
      assert.equal(result.data.status, "completed");
      assert.equal(result.data.truncated, true, "the answer was offloaded");
      assert.ok(new TextEncoder().encode(long).length > 64 * 1024);
      assert.equal(await Deno.readTextFile(result.data.artifactPath), long);
      assert.match(result.content, /^line 0 x+\n/);
      assert.match(result.content, /\[Output truncated: \d+ bytes, 2000 lines; /);
      assert.equal(typeof result.data.durationMs, "number", "session tools are timed");
    },
  );
});
