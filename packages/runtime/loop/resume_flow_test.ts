/**
 * `run.resume` through the loop, in-process: the new Run continues in the same Turn from the
 * journal — the earlier Run's completed tool calls are context, not run again; a call that
 * never got its result is reported as interrupted; only a failed or cancelled Run of the
 * latest turn can be resumed, once per clientRequestId.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { JournalEvent } from "@daedalus/protocol";
import { defineTool, type ToolDefinition } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import type { ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled, summarizeEvents, waitUntil } from "../_test_wait.ts";

async function world(
  script: (request: ProviderRequest, index: number) => ScriptedResponse,
  tools: ToolDefinition<unknown>[],
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-resume-" });
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [provider],
    tools,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const { thread } = await call("thread.create", { title: "resume" });
  const start = async () =>
    (await call("turn.start", {
      threadId: thread.id,
      content: "do the work",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    })).runId as string;
  return {
    call,
    events,
    provider,
    thread,
    start,
    async [Symbol.asyncDispose]() {
      await core.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

function counter(wait?: Promise<void>) {
  const tool = defineTool({
    id: "probe",
    description: "counts its runs",
    params: z.object({}),
    mutating: false,
    risk: "read",
    run: async (_args, context) => {
      tool.runs++;
      if (wait) {
        await new Promise<void>((resolve, reject) => {
          wait.then(resolve);
          context.signal.addEventListener("abort", () => reject(new Error("aborted")));
        });
      }
      return { content: "probe result 42" };
    },
  }) as ToolDefinition<unknown> & { runs: number };
  tool.runs = 0;
  return tool;
}

Deno.test("run.resume continues a failed Run in its Turn without running its tools again", async () => {
  const probe = counter();
  let failed = false;
  await using w = await world((request) => {
    const last = request.messages.at(-1);
    if (last?.role !== "tool") return { toolCalls: [{ name: "probe", arguments: {} }] };
    if (!failed) {
      failed = true;
      return { error: { category: "invalid_request", message: "try later" } };
    }
    return { text: ["Finished after the resume."] };
  }, [probe]);
  const first = await w.start();
  const settled = await runSettled(w.events, first);
  assert.equal(settled.payload.status, "failed", summarizeEvents(w.events));
  assert.equal(probe.runs, 1);
  const resumed = await w.call("run.resume", { runId: first, clientRequestId: "resume-1" });
  assert.equal(resumed.resumedFromRunId, first);
  assert.notEqual(resumed.runId, first);
  const done = await runSettled(w.events, resumed.runId);
  assert.equal(done.payload.status, "completed", summarizeEvents(w.events));
  assert.equal(probe.runs, 1, "the completed tool call was not run again");
  const input = JSON.stringify(w.provider.requests.at(-1)?.messages);
  assert.match(input, /do the work/, "the Turn's user message is context");
  assert.match(input, /probe result 42/, "the earlier tool result is context");
  const again = await w.call("run.resume", { runId: first, clientRequestId: "resume-1" });
  assert.equal(again.runId, resumed.runId, "idempotent on clientRequestId");
  const turns = (await w.call("turn.list", { threadId: w.thread.id })).turns;
  assert.equal(turns.length, 1, "the same Turn");
  assert.deepEqual(turns[0].runs.map((r: { id: string }) => r.id), [first, resumed.runId]);
  await assert.rejects(
    () => w.call("run.resume", { runId: resumed.runId }),
    (error: { data?: { reasonCode?: string } }) => error.data?.reasonCode === "run_not_resumable",
    "a completed Run is not resumable",
  );
  await assert.rejects(
    () => w.call("run.resume", { runId: first }),
    (error: { data?: { reasonCode?: string } }) => error.data?.reasonCode === "run_not_resumable",
    "a Run resumed already is not resumable again",
  );
});

Deno.test("a call cancelled before its result is reported to the resumed Run as interrupted", async () => {
  let release!: () => void;
  const probe = counter(new Promise<void>((resolve) => release = resolve));
  await using w = await world((request) => {
    const last = request.messages.at(-1);
    return last?.role === "tool"
      ? { text: ["Checked."] }
      : { toolCalls: [{ name: "probe", arguments: {} }] };
  }, [probe]);
  const first = await w.start();
  await waitUntil("the probe to run", () => probe.runs === 1);
  await w.call("run.cancel", { runId: first });
  assert.equal((await runSettled(w.events, first)).payload.status, "cancelled");
  release();
  const { runId } = await w.call("run.resume", { runId: first });
  assert.equal((await runSettled(w.events, runId)).payload.status, "completed");
  const messages = w.provider.requests.at(-1)?.messages ?? [];
  const tool = messages.find((m) => m.role === "tool");
  assert.match(JSON.stringify(tool), /interrupted before its result was recorded/);
  assert.equal(probe.runs, 1, "the interrupted call was not silently run again");
});
