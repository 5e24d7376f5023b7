/**
 * Fallback models through the loop, in process (real store, real dispatcher): config.yaml
 * names `primary/p1`'s fallback `backup/b1`; both are served by scripted providers.
 * A Run moves only for a retryable failure before anything streamed, continues from the
 * same input, and fails with the fallback's reason when the fallback fails too.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { writeConfig } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";

async function fallbackWorld(primary: ScriptedResponse[], backup: ScriptedResponse[]) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-fallback-flow-" });
  await writeConfig(`${home}/config.yaml`, {
    version: 1,
    providers: {
      primary: {
        type: "openai_compatible",
        base_url: "http://127.0.0.1:9/v1",
        models: { p1: { fallback: { provider_id: "backup", model_id: "b1" } } },
      },
      backup: { type: "openai_compatible", base_url: "http://127.0.0.1:9/v1", models: { b1: {} } },
    },
  });
  const primaryProvider = createScriptedProvider({
    id: "primary",
    models: ["p1"],
    script: primary,
  });
  const backupProvider = createScriptedProvider({ id: "backup", models: ["b1"], script: backup });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [primaryProvider, backupProvider],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  try {
    const call = dispatchOn(core);
    const { thread } = await call("thread.create", { title: "fallback" });
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content: "go",
      providerId: "primary",
      modelId: "p1",
      executionPolicy: "full_access",
    });
    await runSettled(events, runId);
    const settled = events.find((e) => e.type === "run.settled" && e.runId === runId)!;
    const run = (await call("turn.list", { threadId: thread.id })).turns.at(-1).runs[0];
    return {
      settled: settled.payload as { status: string; reasonCode: string | null },
      fallbacks: events.filter((e) => e.type === "run.model_fallback"),
      run,
      primary: primaryProvider.requests,
      backup: backupProvider.requests,
    };
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("a fallback that fails too settles the Run with the fallback's reason; no second fallback", async () => {
  const w = await fallbackWorld(
    [{ error: { category: "server" } }],
    [{ error: { category: "rate_limit" } }],
  );
  assert.deepEqual([w.settled.status, w.settled.reasonCode], ["failed", "provider_rate_limit"]);
  assert.equal(w.fallbacks.length, 1, "one level only");
  assert.deepEqual([w.primary.length, w.backup.length], [1, 1]);
  assert.deepEqual(w.run.fallbackModel, { providerId: "backup", modelId: "b1" });
});

Deno.test("text streamed before the failure keeps the Run on its model: no duplicated answer", async () => {
  const w = await fallbackWorld(
    [{ text: ["Half an ans"], error: { category: "server" } }],
    [{ text: ["never sent"] }],
  );
  assert.deepEqual([w.settled.status, w.settled.reasonCode], ["failed", "provider_server"]);
  assert.deepEqual([w.fallbacks.length, w.backup.length], [0, 0], "the fallback is not asked");
  assert.equal(w.run.fallbackModel, undefined);
});

Deno.test("a failure that is not retryable keeps the Run on its model", async () => {
  const w = await fallbackWorld([{ error: { category: "authentication" } }], [{ text: ["no"] }]);
  assert.deepEqual([w.settled.status, w.settled.reasonCode], ["failed", "provider_authentication"]);
  assert.deepEqual([w.fallbacks.length, w.backup.length], [0, 0]);
});

Deno.test("a failure after a tool step moves the rest of the Run to the fallback, with the same input", async () => {
  const w = await fallbackWorld(
    [
      { toolCalls: [{ name: "list", arguments: { path: "." } }] },
      { error: { category: "timeout" } },
    ],
    [{ text: ["Listed."] }],
  );
  assert.deepEqual([w.settled.status, w.settled.reasonCode], ["completed", null]);
  assert.deepEqual(
    { ...w.fallbacks[0]?.payload, turnId: undefined, runId: undefined },
    {
      fromProviderId: "primary",
      fromModelId: "p1",
      toProviderId: "backup",
      toModelId: "b1",
      reasonCode: "provider_timeout",
      callOrdinal: 2,
      turnId: undefined,
      runId: undefined,
    },
  );
  assert.deepEqual(w.backup[0]?.messages, w.primary[1]?.messages, "the failed step's input");
  assert.equal(w.backup[0]?.modelId, "b1");
  const answers = w.run.items.filter((i: { kind: string; role: string }) =>
    i.kind === "message" && i.role === "assistant"
  );
  assert.deepEqual(answers.map((i: { content: string }) => i.content).filter(Boolean), ["Listed."]);
});
