import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import type { CanonicalEvent } from "@daedalus/protocol";
import { openRuntimeCore, type RuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type Script } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runCanonicalEvents } from "./run_canonical_stream.ts";

const echoTool = defineTool({
  id: "echo",
  description: "Echoes its text",
  params: z.object({ text: z.string().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: `echo: ${params.text}` }),
});

const USAGE = {
  inputTokens: 10,
  cachedInputTokens: null,
  outputTokens: 4,
  reasoningOutputTokens: null,
  totalTokens: 14,
};

async function withCore(script: Script, fn: (core: RuntimeCore) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-gateway-stream-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [createScriptedProvider({ script })],
    tools: [echoTool],
    threadTitles: false,
    memoryRefinement: false,
  });
  try {
    await fn(core);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function startTurn(core: RuntimeCore, content: string): Promise<string> {
  const call = dispatchOn(core);
  const { thread } = await call("thread.create", {});
  const started = await call("turn.start", {
    threadId: thread.id,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
  });
  return started.runId;
}

async function collect(stream: AsyncIterable<{ seq: number; event: CanonicalEvent }>) {
  const out: { seq: number; event: CanonicalEvent }[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** The events' types, deltas joined, so the expectation reads as the run's story. */
function story(events: CanonicalEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.type === "text_delta" && last?.startsWith("text:")) {
      out[out.length - 1] = last + event.delta;
    } else if (event.type === "text_delta") out.push(`text:${event.delta}`);
    else if (event.type === "tool_call_start") out.push(`call:${event.name}:${event.argsDelta}`);
    else if (event.type === "tool_call_end") out.push(`result:${event.result}`);
    else if (event.type === "node_lifecycle") out.push(`model:${event.phase}`);
    else if (event.type === "done") out.push(`done:${event.status}`);
    else out.push(event.type);
  }
  return out;
}

const TOOL_RUN: Script = [
  { toolCalls: [{ name: "echo", arguments: { text: "hi" } }], usage: USAGE },
  { text: ["The echo ", "said hi."], usage: USAGE },
];

// The journal's order: a step's calls are recorded once the model's response has ended.
const EXPECTED = [
  "model:start",
  "model:end",
  "usage",
  'call:echo:{"text":"hi"}',
  "result:echo: hi",
  "model:start",
  "text:The echo said hi.",
  "model:end",
  "usage",
  "done:completed",
];

Deno.test("a live Run streams as canonical events: tool call, result, answer, done", async () => {
  await withCore(TOOL_RUN, async (core) => {
    const runId = await startTurn(core, "echo hi");
    const events = await collect(runCanonicalEvents({ store: core.store, live: core.hub, runId }));
    assert.deepEqual(story(events.map((e) => e.event)), EXPECTED);
    const done = events.at(-1)!.event;
    assert.equal(done.type, "done");
    assert.deepEqual(done.type === "done" && done.usage?.totalTokens, 28, "usage not summed");
    const seqs = events.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "out of seq order");
  });
});

Deno.test("a settled Run replays the same events; a resume from a seq gets only the rest", async () => {
  await withCore(TOOL_RUN, async (core) => {
    const runId = await startTurn(core, "echo hi");
    const live = await collect(runCanonicalEvents({ store: core.store, live: core.hub, runId }));
    const replayed = await collect(
      runCanonicalEvents({ store: core.store, live: core.hub, runId }),
    );
    assert.deepEqual(replayed, live);
    const cut = live[4].seq;
    const resumed = await collect(
      runCanonicalEvents({ store: core.store, live: core.hub, runId, afterSeq: cut }),
    );
    assert.deepEqual(resumed, live.filter((e) => e.seq > cut));
  });
});

Deno.test("a failed Run ends with its error then done; an aborted stream ends early", async () => {
  await withCore(
    [{ text: ["partial"], error: { category: "invalid_request", message: "bad request" } }],
    async (core) => {
      const runId = await startTurn(core, "fail");
      const events = (await collect(
        runCanonicalEvents({ store: core.store, live: core.hub, runId }),
      )).map((e) => e.event);
      const tail = events.slice(-2);
      assert.equal(tail[0].type, "error");
      assert.equal(tail[0].type === "error" && tail[0].code, "provider_invalid_request");
      assert.deepEqual(tail[1], { type: "done", status: "failed", usage: null });
    },
  );
  await withCore([{ text: ["slow"], delayMs: 60_000 }], async (core) => {
    const runId = await startTurn(core, "wait");
    const controller = new AbortController();
    const stream = runCanonicalEvents({
      store: core.store,
      live: core.hub,
      runId,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const events = await collect(stream);
    assert.ok(!events.some((e) => e.event.type === "done"), "an aborted stream saw done");
    await dispatchOn(core)("run.cancel", { runId });
  });
});
