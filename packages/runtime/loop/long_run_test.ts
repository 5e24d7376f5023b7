/**
 * Long-run behaviour of the loop, in process: compaction when a Run outgrows its
 * window, the completion check, and the budget failure.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore, type RuntimeCoreOptions } from "../runtime_core.ts";
import { createScriptedProvider, type Script } from "../providers/scripted.ts";
import { messageText } from "../providers/provider.ts";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";

/** Room for the built-in tools' schemas (~9,100 tokens for 21 tools) in the windows below. */
const BUILT_IN_TOOLS_ALLOWANCE_TOKENS = 10_000;

const bigTool = defineTool({
  id: "dump",
  description: "Returns a lot of text",
  params: z.object({}),
  mutating: false,
  risk: "read",
  run: (_params, context) =>
    Promise.resolve({ content: `output of ${context.itemId}: ` + "lorem ipsum ".repeat(60) }),
});

async function runOnce(script: Script, options: Partial<RuntimeCoreOptions>, content = "go") {
  const home = await Deno.makeTempDir({ prefix: "daedalus-long-" });
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [provider],
    tools: [bigTool],
    threadTitles: false,
    memoryRefinement: false,
    ...options,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  try {
    const call = dispatchOn(core);
    const { thread } = await call("thread.create", { title: "long" });
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content,
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    });
    await runSettled(events, runId);
    const turns = (await call("turn.list", { threadId: thread.id })).turns;
    return { events, provider, turns, runId };
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("a run that outgrows 90 % of its window compacts, records a revision and continues", async () => {
  let dumps = 0;
  const { events, provider, turns } = await runOnce((request) => {
    const isSummary = request.tools.length === 0;
    if (isSummary) return { text: ["Dumped several outputs; nothing else learned."] };
    if (dumps++ < 12) {
      return { text: [`step ${dumps}`], toolCalls: [{ name: "dump", arguments: {} }] };
    }
    return { text: ["all done"] };
  }, { contextWindow: () => BUILT_IN_TOOLS_ALLOWANCE_TOKENS + 6_000 });
  const settled = events.find((e) => e.type === "run.settled");
  assert.equal(
    settled?.payload.status,
    "completed",
    `the run ${settled?.payload.reasonCode}: did the tool schemas outgrow the allowance?`,
  );
  const compactions = events.filter((e) => e.type === "context.compacted");
  assert.ok(compactions.length >= 1, "no compaction happened");
  const purposes = events.filter((e) => e.type === "model.input_prepared").map((e) =>
    (e.payload as { purpose: string }).purpose
  );
  assert.ok(purposes.includes("compression"));
  const afterSummary = provider.requests.filter((r) => r.tools.length > 0).at(-1)!;
  assert.match(
    messageText(afterSummary.messages[0]!.content),
    /Prior context summary \(untrusted; verify\):/,
  );
  // every model input, tool schemas included, stayed within 95 % of the window
  for (const event of events.filter((e) => e.type === "model.input_prepared")) {
    const input = (event.payload as {
      stepInput: { estimatedInputTokens?: number; budgetTokens?: number; toolTokens?: number };
    }).stepInput;
    if (input.estimatedInputTokens === undefined) continue;
    assert.ok(input.toolTokens! > 0, "the tools were not counted");
    assert.ok(input.estimatedInputTokens <= input.budgetTokens!);
  }
  // raw items are never rewritten: all 12 tool results are still there
  const items = turns[0].runs[0].items;
  assert.equal(items.filter((i: { kind: string }) => i.kind === "tool_result").length, 12);
  // the first use of the new revision carries it in full
  const revisions = events.filter((e) => e.type === "model.input_prepared")
    .map((e) => (e.payload as { contextRevision: { revision: number } | null }).contextRevision)
    .filter((r) => r !== null);
  assert.deepEqual(revisions.map((r) => r!.revision), [1, ...compactions.map((_, i) => i + 2)]);
});

Deno.test("a final answer with unsettled work gets one completion check, never looped", async () => {
  const { events, provider, turns } = await runOnce((request) => {
    if (request.tools.length === 0) {
      return { text: ["The build is still running; check it later."] };
    }
    return { text: ["Finished."] };
  }, { unsettledWork: () => ["command `make` (process_1) is still running"] });
  const purposes = events.filter((e) => e.type === "model.input_prepared").map((e) =>
    (e.payload as { purpose: string }).purpose
  );
  assert.deepEqual(purposes, ["execution", "completion_check"]);
  assert.match(messageText(provider.requests[1]!.messages.at(-1)!.content), /process_1/);
  const last = turns[0].runs[0].items.at(-1);
  assert.equal(last.content, "The build is still running; check it later.");
  assert.equal(last.data.completionCheck, true);
  assert.equal(events.find((e) => e.type === "run.settled")?.payload.status, "completed");
});

Deno.test("a turn that cannot fit even alone fails with context_budget_exceeded", async () => {
  const { events } = await runOnce(
    () => ({ text: ["never"] }),
    { contextWindow: () => 2_000 },
    "x".repeat(3_000),
  );
  const settled = events.find((e) => e.type === "run.settled");
  assert.deepEqual(
    [settled?.payload.status, settled?.payload.reasonCode],
    ["failed", "context_budget_exceeded"],
  );
});

Deno.test("a window that holds the turn but not the tool schemas fails with context_budget_exceeded before any model call", async () => {
  const { events, provider } = await runOnce(
    () => ({ text: ["never"] }),
    { contextWindow: () => 8_192 }, // a small local model's window; the schemas alone are larger
    "hello",
  );
  const settled = events.find((e) => e.type === "run.settled");
  assert.deepEqual(
    [settled?.payload.status, settled?.payload.reasonCode],
    ["failed", "context_budget_exceeded"],
  );
  assert.equal(provider.requests.length, 0, "a request that cannot fit was sent");
});
