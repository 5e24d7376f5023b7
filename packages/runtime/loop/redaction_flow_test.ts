/**
 * Every channel of a Run is redacted before it is journaled: text and reasoning split over
 * deltas, tool-call names and arguments, tool results and tool errors, completion-check
 * and compaction answers, and RPC refusals that quote the request.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type Script } from "../providers/scripted.ts";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import type { RpcSession } from "../server/dispatcher.ts";
import { REDACTED_MARKER } from "../security/protected_values.ts";
import { runSettled } from "../_test_wait.ts";

const KEY = "sk-canary-9f8e7d6c5b4a3210";
const session: RpcSession = { id: "test", transport: "http" };

/** Pieces of 3 characters: the key never arrives whole in one delta. */
const pieces = (text: string) => text.match(/.{1,3}/gs) ?? [];

const leakyTool = defineTool({
  id: "leaky",
  description: "Returns the key, or fails quoting it",
  params: z.object({ fail: z.boolean().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => {
    if (params.fail) throw new Error(`cannot use ${KEY}`);
    return Promise.resolve({ content: `found ${KEY}`, details: { [KEY]: [`x${KEY}`] } });
  },
});

async function withCore(script: Script, fn: (events: JournalEvent[], call: Call) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-redaction-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [createScriptedProvider({ script })],
    tools: [leakyTool],
    threadTitles: false,
    memoryRefinement: false,
    protectedSecrets: [KEY],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call: Call = async (method, params) => {
    const outcome = await core.dispatcher.dispatch(method, params, session);
    outcome.afterResponse?.();
    return outcome.result as Record<string, unknown>;
  };
  try {
    await fn(events, call);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

type Call = (method: string, params: unknown) => Promise<Record<string, unknown>>;

async function runTurn(events: JournalEvent[], call: Call): Promise<string> {
  const { thread } = await call("thread.create", { title: "t" }) as { thread: { id: string } };
  const { runId } = await call("turn.start", {
    threadId: thread.id,
    content: "go",
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
  }) as { runId: string };
  await runSettled(events, runId);
  return runId;
}

function assertNoKey(events: JournalEvent[]): void {
  const journal = JSON.stringify(events);
  for (let index = 0; index + 8 <= KEY.length; index++) {
    const piece = KEY.slice(index, index + 8);
    assert.ok(!journal.includes(piece), `the journal holds "${piece}"`);
  }
}

Deno.test("a key split over text and reasoning deltas is one marker in deltas and the item", async () => {
  await withCore([{
    reasoning: pieces(`thinking of ${KEY} now`),
    text: pieces(`the key is ${KEY}.`),
  }], async (events, call) => {
    await runTurn(events, call);
    assertNoKey(events);
    const completed = events.find((e) =>
      e.type === "item.completed" &&
      (e.payload as { item: { role: string } }).item.role === "assistant"
    );
    const item = (completed?.payload as { item: { content: string; reasoning?: string } }).item;
    assert.equal(item.content, `the key is ${REDACTED_MARKER}.`);
    const deltas = events.filter((e) => e.type === "item.delta")
      .map((e) => e.payload as { delta: string; field?: string });
    assert.equal(
      deltas.filter((d) => d.field === "reasoning").map((d) => d.delta).join(""),
      `thinking of ${REDACTED_MARKER} now`,
    );
  });
});

Deno.test("tool names, arguments, results, details and errors lose the key", async () => {
  await withCore([
    {
      toolCalls: [
        { name: "leaky", arguments: { note: `${KEY}` } },
        { name: "leaky", arguments: { fail: true } },
        { name: `leaky_${KEY}`, arguments: "{}" },
      ],
    },
    { text: ["done"] },
  ], async (events, call) => {
    await runTurn(events, call);
    assertNoKey(events);
    const items = events.filter((e) => e.type === "item.completed")
      .map((e) => (e.payload as { item: { kind: string; content: string; data: unknown } }).item);
    const calls = items.filter((item) => item.kind === "tool_call");
    const data = calls.map((item) => item.data as { toolId: string; arguments: unknown });
    assert.deepEqual(
      data.map((entry) => entry.toolId).sort(),
      ["leaky", "leaky", `leaky_${REDACTED_MARKER}`],
    );
    assert.ok(
      data.some((entry) => JSON.stringify(entry.arguments) === `{"note":"${REDACTED_MARKER}"}`),
      JSON.stringify(data),
    );
    const results = items.filter((item) => item.kind === "tool_result").map((item) => item.content);
    // A result or error carrying the key is withheld by the tool wrapper, like a file
    // tool's; what gets past it (the unknown tool's name) is redacted.
    const withheld = "The leaky result contained a configured credential and was withheld";
    assert.deepEqual(
      results.sort(),
      [withheld, withheld, `Unknown tool "leaky_${REDACTED_MARKER}"`].sort(),
    );
  });
});

Deno.test("an RPC refusal that quotes the request quotes no key", async () => {
  await withCore([], async (_events, call) => {
    await assert.rejects(call(KEY, {}), (error: Error) => {
      assert.equal(error.message, `Method ${REDACTED_MARKER} does not exist`);
      return true;
    });
  });
});

Deno.test("turn.start refuses a key in any field, naming the field", async () => {
  await withCore([], async (_events, call) => {
    const { thread } = await call("thread.create", { title: "t" }) as { thread: { id: string } };
    const base = { threadId: thread.id, providerId: "scripted", modelId: "scripted-model" };
    for (
      const [params, field] of [
        [{ ...base, content: `use ${KEY}` }, "content"],
        [{ ...base, content: "hi", clientRequestId: `r-${KEY}` }, "clientRequestId"],
      ] as const
    ) {
      await assert.rejects(call("turn.start", params), (error: Error & { data?: unknown }) => {
        assert.deepEqual(error.data, { field, reasonCode: "protected_value" });
        assert.ok(!error.message.includes(KEY));
        return true;
      });
    }
  });
});
