import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { gateBatches } from "./tool_calls.ts";
import { openRuntimeCore, type RuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";

Deno.test("the gate batches consecutive read-only calls and isolates mutating ones", () => {
  const r = { tool: { mutating: false } };
  const w = { tool: { mutating: true } };
  const unknown = {};
  const batches = gateBatches([r, r, w, r, unknown, r, r]);
  assert.deepEqual(batches.map((b) => b.length), [2, 1, 1, 1, 2]);
});

Deno.test("read-only tools overlap, a mutating tool runs alone, facts commit with results", async () => {
  const log: string[] = [];
  const tool = (name: string, mutating: boolean) =>
    defineTool({
      id: name,
      description: name,
      params: z.object({}),
      mutating,
      risk: mutating ? "write" : "read",
      run: async (_params, context) => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 20));
        log.push(`end ${name}`);
        if (!mutating) return { content: `read by ${name}` };
        context.facts.fileChanges.push({
          toolCallItemId: context.itemId,
          path: "/w/a",
          operation: "write",
          additions: 1,
          deletions: 0,
        });
        return { content: "wrote" };
      },
    });
  const home = await Deno.makeTempDir({ prefix: "daedalus-gate-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    tools: [tool("r1", false), tool("r2", false), tool("w", true)],
    providers: [createScriptedProvider({
      script: [
        {
          toolCalls: [{ name: "r1", arguments: {} }, { name: "r2", arguments: {} }, {
            name: "w",
            arguments: {},
          }],
        },
        { text: ["done"] },
      ],
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  try {
    const runId = await startTurn(core, "g");
    await runSettled(events, runId);
    assert.deepEqual(log.slice(0, 2).sort(), ["start r1", "start r2"], "the two reads overlapped");
    assert.deepEqual(log.slice(4), ["start w", "end w"], "the write ran alone, after both reads");
    const change = events.findIndex((e) => e.type === "file.change_recorded");
    assert.ok(change > 0);
    assert.equal(
      events[change + 1]?.type,
      "item.completed",
      "the result follows its fact in one transaction",
    );
    assert.equal(events[change + 1]!.seq, events[change]!.seq + 1);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a tool whose sandbox is unusable fails its call and then the run, with the reason", async () => {
  let later = 0;
  const home = await Deno.makeTempDir({ prefix: "daedalus-sandbox-fail-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    // A read_only Run's file tools run in the sandbox Worker; this one dies as it loads.
    sandboxWorkerUrl: new URL("../tools/testdata/broken_worker.js", import.meta.url),
    providers: [createScriptedProvider({
      script: () => {
        later++;
        return later === 1
          ? { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }
          : { text: ["all good (never said)"] };
      },
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  try {
    const runId = await startTurn(core, "s", "read_only");
    await runSettled(events, runId);
    const settled = events.find((e) => e.type === "run.settled")!;
    assert.deepEqual(
      [settled.payload.status, settled.payload.reasonCode],
      ["failed", "tool_sandbox_unavailable"],
    );
    assert.equal(later, 1, "the model is not called again after the sandbox failed");
    const result = events.find((e) =>
      e.type === "item.completed" &&
      (e.payload as { item: { kind: string } }).item.kind === "tool_result"
    );
    assert.match(JSON.stringify(result?.payload), /sandbox_unavailable/);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a step's tool calls are recorded together: when one cannot be, none of them is", async () => {
  let ran = 0;
  const read = defineTool({
    id: "r",
    description: "a read",
    params: z.object({ n: z.int() }),
    mutating: false,
    risk: "read",
    run: () => {
      ran++;
      return Promise.resolve({ content: "read" });
    },
  });
  const home = await Deno.makeTempDir({ prefix: "daedalus-calls-tx-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    tools: [read],
    providers: [createScriptedProvider({
      script: [{
        toolCalls: [
          { name: "r", arguments: { n: 1 } },
          { name: "r", arguments: { n: 2 } },
          { name: "r", arguments: { n: 3 } },
        ],
      }],
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  // The third call's item cannot be stored.
  core.store.db.connection.exec(
    `CREATE TEMP TRIGGER test_fail_third_call BEFORE INSERT ON main.items
     WHEN NEW.kind = 'tool_call' AND json_extract(NEW.data_json, '$.arguments.n') = 3
     BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
  );
  try {
    const runId = await startTurn(core, "t");
    await runSettled(events, runId);
    const calls = core.store.db.connection.prepare(
      "SELECT count(*) AS n FROM items WHERE run_id = ? AND kind = 'tool_call'",
    ).get(runId);
    assert.equal(Number(calls?.n), 0, "no call of the step was recorded");
    assert.equal(ran, 0, "no call ran");
    assert.equal(
      events.filter((e) => e.type === "item.started" && e.payload.item.kind === "tool_call").length,
      0,
      "no call was published",
    );
    assert.equal(events.find((e) => e.type === "run.settled")?.payload.status, "failed");
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

/** Starts a turn "go" in a new thread on the scripted model; returns its Run. */
async function startTurn(
  core: RuntimeCore,
  title: string,
  executionPolicy?: "read_only",
): Promise<string> {
  const dispatch = dispatchOn(core);
  const { thread } = await dispatch("thread.create", { title });
  const { runId } = await dispatch("turn.start", {
    threadId: thread.id,
    content: "go",
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: executionPolicy ?? "full_access",
  });
  return runId;
}

Deno.test("a Run's tool context is built once: every call of it shares its capabilities", async () => {
  const seen: Array<{ runId: string; sessions: unknown; policy: string; root: string }> = [];
  const probe = defineTool({
    id: "probe",
    description: "records its context",
    params: z.object({}),
    mutating: false,
    risk: "read",
    run: (_params, context) => {
      seen.push({
        runId: context.runId,
        sessions: context.sessions,
        policy: context.executionPolicy,
        root: context.workspaceRoot,
      });
      return Promise.resolve({ content: "seen" });
    },
  });
  let step = 0;
  const home = await Deno.makeTempDir({ prefix: "daedalus-run-context-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    tools: [probe],
    providers: [createScriptedProvider({
      // Two steps with calls, then the answer; for each of two Runs.
      script: () =>
        step++ % 3 === 2
          ? { text: ["done"] }
          : { toolCalls: [{ name: "probe", arguments: {} }, { name: "probe", arguments: {} }] },
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  try {
    const first = await startTurn(core, "one");
    await runSettled(events, first);
    const second = await startTurn(core, "two", "read_only");
    await runSettled(events, second);
    const of = (runId: string) => seen.filter((s) => s.runId === runId);
    assert.equal(of(first).length, 4, "four calls in the first Run");
    assert.equal(new Set(of(first).map((s) => s.sessions)).size, 1, "one context for the Run");
    assert.equal(of(second).length, 4);
    assert.notEqual(of(second)[0]!.sessions, of(first)[0]!.sessions, "a new one per Run");
    assert.deepEqual(of(second).map((s) => s.policy), Array(4).fill("read_only"));
    assert.match(of(first)[0]!.root, /\/ws\//, "the thread's workspace");
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
