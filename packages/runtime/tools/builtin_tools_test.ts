/**
 * The built-in tools through the loop: files written and recorded, the sandbox of
 * narrowed permission modes, and managed processes with their RPC.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled, waitUntil } from "../_test_wait.ts";

type Call = { name: string; arguments: Record<string, unknown> };

/** Runs one turn whose model makes `calls` in one step, then answers. */
async function turnWithCalls(
  calls: Call[],
  policy?: "read_only" | "workspace_write" | "full_access",
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-tools-" });
  let step = 0;
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [createScriptedProvider({
      script: (): ScriptedResponse => (step++ === 0 ? { toolCalls: calls } : { text: ["done"] }),
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const { thread } = await call("thread.create", { title: "tools" });
  const { runId } = await call("turn.start", {
    threadId: thread.id,
    content: "go",
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: policy ?? "full_access",
  });
  await runSettled(events, runId);
  const items = (await call("turn.list", { threadId: thread.id })).turns[0].runs[0].items;
  const results = items.filter((i: { kind: string }) => i.kind === "tool_result");
  return {
    core,
    call,
    events,
    results,
    thread,
    root: thread.workspace.rootUri as string,
    async close() {
      await core.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("write then read through the loop; the change is recorded and served", async () => {
  const t = await turnWithCalls([
    { name: "write", arguments: { path: "notes.md", content: "# Notes\nship it\n" } },
  ]);
  try {
    assert.equal(await Deno.readTextFile(`${t.root}/notes.md`), "# Notes\nship it\n");
    const recorded = t.events.find((e) => e.type === "file.change_recorded")!;
    assert.deepEqual(
      [recorded.payload.path, recorded.payload.operation, recorded.payload.additions],
      ["notes.md", "write", 2],
    );
    const change = await t.call("file.change.get", {
      threadId: t.thread.id,
      toolCallItemId: (recorded.payload as { toolCallItemId: string }).toolCallItemId,
    });
    assert.equal(change.status, "recorded");
    assert.match(change.diff, /\+# Notes/);
  } finally {
    await t.close();
  }
});

Deno.test("read_only refuses writes, edits, commands, outside reads and session changes; the run goes on", async () => {
  const outside = await Deno.makeTempFile();
  const t = await turnWithCalls([
    { name: "write", arguments: { path: "a.txt", content: "x" } },
    { name: "edit", arguments: { path: "a.txt", oldString: "x", newString: "y" } },
    { name: "process_start", arguments: { command: "echo hi" } },
    { name: "read", arguments: { path: outside } },
    { name: "thread_create", arguments: { title: "elsewhere" } },
    { name: "list", arguments: { path: "." } },
  ], "read_only");
  try {
    const codes = t.results.map((r: { data: { errorCode?: string } }) => r.data.errorCode ?? "ok");
    assert.deepEqual(codes, [
      "permission_denied",
      "permission_denied",
      "permission_denied",
      "permission_denied",
      "permission_denied",
      "ok",
    ]);
    assert.equal(t.events.find((e) => e.type === "run.settled")?.payload.status, "completed");
    await assert.rejects(() => Deno.stat(`${t.root}/a.txt`), Deno.errors.NotFound);
  } finally {
    await t.close();
    await Deno.remove(outside);
  }
});

Deno.test("workspace_write writes inside the workspace only", async () => {
  const outsideDir = await Deno.makeTempDir();
  const t = await turnWithCalls([
    { name: "write", arguments: { path: "in.txt", content: "ok" } },
    { name: "write", arguments: { path: `${outsideDir}/out.txt`, content: "no" } },
  ], "workspace_write");
  try {
    const codes = t.results.map((r: { data: { errorCode?: string } }) => r.data.errorCode ?? "ok");
    assert.deepEqual(codes, ["ok", "permission_denied"]);
    await assert.rejects(() => Deno.stat(`${outsideDir}/out.txt`), Deno.errors.NotFound);
  } finally {
    await t.close();
    await Deno.remove(outsideDir, { recursive: true });
  }
});

Deno.test("a background command outlives its run and is read and stopped over RPC", async () => {
  const t = await turnWithCalls([
    { name: "process_start", arguments: { command: "echo started; sleep 30", background: true } },
  ]);
  try {
    const processId = t.results[0].data.processId as string;
    assert.match(processId, /^process_/);
    assert.ok(t.events.some((e) => e.type === "process.recorded"));
    const page = await waitUntil('the process to print "started"', async () => {
      const read = await t.call("process.read", { threadId: t.thread.id, processId });
      return read.output.includes("started") && read;
    });
    assert.equal(page.state, "running");
    assert.match(page.output, /started/);
    const stopped = await t.call("process.stop", { threadId: t.thread.id, processId });
    assert.equal(stopped.state, "terminated");
  } finally {
    await t.close();
  }
});

Deno.test("a narrowed run cannot read, wait on, write to, resize or stop a full_access run's process", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-proc-mode-" });
  let processId = "";
  const scripts: Array<() => ScriptedResponse> = [
    () => ({
      toolCalls: [{ name: "process_start", arguments: { command: "sleep 30", background: true } }],
    }),
    () => ({ text: ["started"] }),
    () => ({
      toolCalls: [
        { name: "process_read", arguments: { processId } },
        { name: "process_wait", arguments: { processId, timeoutMs: 10 } },
        { name: "process_write", arguments: { processId, data: "x" } },
        { name: "process_resize", arguments: { processId, cols: 80, rows: 24 } },
        { name: "process_stop", arguments: { processId } },
      ],
    }),
    () => ({ text: ["done"] }),
  ];
  let step = 0;
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [createScriptedProvider({ script: () => scripts[step++]!() })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const settle = (runId: string) => runSettled(events, runId);
  try {
    const { thread } = await call("thread.create", { title: "procs" });
    const first = await call("turn.start", {
      threadId: thread.id,
      content: "start",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    });
    await settle(first.runId);
    const started = events.find((e) => e.type === "process.recorded")!;
    processId = (started.payload as { process: { processId: string } }).process.processId;
    for (const policy of ["read_only", "workspace_write"] as const) {
      step = 2;
      const { runId } = await call("turn.start", {
        threadId: thread.id,
        content: "poke it",
        providerId: "scripted",
        modelId: "scripted-model",
        executionPolicy: policy,
      });
      await settle(runId);
      const items = (await call("turn.list", { threadId: thread.id })).turns.at(-1).runs[0].items;
      const codes = items.filter((i: { kind: string }) => i.kind === "tool_result")
        .map((r: { data: { errorCode?: string } }) => r.data.errorCode ?? "ok");
      assert.deepEqual(codes, Array(5).fill("permission_denied"), policy);
    }
    const page = await call("process.read", { threadId: thread.id, processId });
    assert.equal(page.state, "running", "the process is untouched");
    await call("process.stop", { threadId: thread.id, processId });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a command that prints a configured key reaches the model and the journal without it", async () => {
  const KEY = "sk-canary-5f4e3d2c1b0a9988";
  const home = await Deno.makeTempDir({ prefix: "daedalus-proc-key-" });
  let processId = "";
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [createScriptedProvider({
      script: (request): ScriptedResponse => {
        const last = request.messages.at(-1);
        const said = last?.role === "tool" ? JSON.stringify(last.content) : "";
        processId = said.match(/process_[0-9a-f]{32}/)?.[0] ?? processId;
        if (last?.role === "user") {
          // The key is read from config.yaml by the command, never sent by the model.
          const command = `sed -n 's/^ *api_key: *//p' '${home}/config.yaml'`;
          return { toolCalls: [{ name: "process_start", arguments: { command } }] };
        }
        if (said.includes("Started")) {
          return {
            toolCalls: [{ name: "process_wait", arguments: { processId, timeoutMs: 20_000 } }],
          };
        }
        return { text: ["done"] };
      },
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  try {
    await call("provider.configure", { kind: "deepseek", apiKey: KEY });
    assert.ok((await Deno.readTextFile(`${home}/config.yaml`)).includes(KEY), "key configured");
    const { thread } = await call("thread.create", { title: "key" });
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content: "print it",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    });
    await runSettled(events, runId);
    const items = (await call("turn.list", { threadId: thread.id })).turns[0].runs[0].items;
    const results = items.filter((i: { kind: string }) => i.kind === "tool_result");
    assert.deepEqual(
      results.map((r: { data: { toolId: string } }) => r.data.toolId),
      ["process_start", "process_wait"],
    );
    const waited = results[1];
    // The manager masks the output as it is captured; the wrapper would withhold a result
    // that still carried the key (protected_value), as it does a file tool's.
    assert.equal(waited.data.isError, false, waited.content);
    assert.match(waited.content, /^\[exited exit 0\] \[redacted\]/);
    assert.equal(typeof waited.data.durationMs, "number", "process tools are timed");
    assert.ok(!JSON.stringify(events).includes(KEY), "no event carries the key");
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
