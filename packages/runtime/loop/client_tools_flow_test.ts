/**
 * Client-side tools through the loop: offered next to the runtime's, a call to one makes
 * the Run wait (the runtime's calls of the step run first), `run.submit_tool_result`
 * hands the result in, the Run goes on with it and completes; a wrong item is refused
 * with `tool_call_not_pending`; a name of the runtime's is refused at `turn.start`; a
 * waiting Run can be cancelled.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type JournalEvent, RpcError } from "@daedalus/protocol";
import { readRunConfig, readRunItems, readRunScope } from "@daedalus/storage";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import type { RpcSession } from "../server/dispatcher.ts";
import { eventSeen, runSettled } from "../_test_wait.ts";

const session: RpcSession = { id: "test", transport: "http" };

const WEATHER = {
  name: "get_weather",
  description: "The weather in a city (the app looks it up)",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};

async function withCore(
  fn: (
    call: (method: string, params: unknown) => Promise<Record<string, unknown>>,
    events: JournalEvent[],
    core: Awaited<ReturnType<typeof openRuntimeCore>>,
    provider: ReturnType<typeof createScriptedProvider>,
    ran: string[],
  ) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-client-tools-" });
  const ran: string[] = [];
  const provider = createScriptedProvider({
    script: (request, index) => {
      const last = JSON.stringify(request.messages.at(-1));
      if (last.includes("cancel me") || index % 2 === 0 && !last.includes("tempC")) {
        return {
          toolCalls: [
            { name: "get_weather", arguments: { city: "Paris" } },
            { name: "clock", arguments: {} },
          ],
        };
      }
      return { text: [`answer after ${last.includes("tempC") ? "the weather" : "nothing"}`] };
    },
  });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider],
    tools: [defineTool({
      id: "clock",
      description: "The time",
      params: z.object({}),
      mutating: false,
      risk: "read",
      run: () => {
        ran.push("clock");
        return Promise.resolve({ content: "12:00" });
      },
    })],
    threadTitles: false,
    memoryRefinement: false,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = async (method: string, params: unknown) => {
    const outcome = await core.dispatcher.dispatch(method, params, session);
    outcome.afterResponse?.();
    return outcome.result as Record<string, unknown>;
  };
  try {
    await fn(call, events, core, provider, ran);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

function turnParams(threadId: string, content: string) {
  return {
    threadId,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
    clientTools: [WEATHER],
  };
}

Deno.test("a client-side call makes the Run wait; its result resumes it and the answer uses it", async () => {
  await withCore(async (call, events, core, provider, ran) => {
    const { thread } = await call("thread.create", {}) as { thread: { id: string } };
    const started = await call("turn.start", turnParams(thread.id, "weather?"));
    const runId = started.runId as string;
    await eventSeen(
      events,
      "the Run to wait for the client",
      (e) => e.type === "run.state_changed" && e.runId === runId && e.payload.status === "waiting",
    );
    const offered = provider.requests[0].tools.map((t) => t.name);
    assert.equal(offered[0], "clock");
    assert.equal(offered.at(-1), "get_weather", "the client's tool is offered after the runtime's");
    assert.deepEqual(ran, ["clock"], "the runtime's call of the step ran before the wait");
    const config = core.store.read((db) => readRunConfig(db, runId));
    assert.deepEqual(config.clientTools, [WEATHER]);
    const items = core.store.read((db) => readRunItems(db, runId));
    const weather = items.find((i) => i.kind === "tool_call" && i.data.toolId === "get_weather")!;
    assert.equal(weather.status, "running");
    assert.equal(weather.data.clientTool, true);
    const clock = items.find((i) => i.kind === "tool_call" && i.data.toolId === "clock")!;
    assert.equal(clock.status, "completed");

    await assert.rejects(
      call("run.submit_tool_result", { runId, toolCallItemId: clock.id, content: "x" }),
      (error: unknown) =>
        error instanceof RpcError && error.data.reasonCode === "tool_call_not_pending",
      "a runtime call's item is not a pending client call",
    );
    const submitted = await call("run.submit_tool_result", {
      runId,
      toolCallItemId: weather.id,
      content: '{"tempC":21}',
    });
    assert.deepEqual(submitted, {
      runId,
      toolCallItemId: weather.id,
      resumed: true,
      pendingToolCallItemIds: [],
    });
    const settled = await runSettled(events, runId);
    assert.equal((settled.payload as { status: string }).status, "completed");
    const answer = core.store.read((db) => readRunItems(db, runId))
      .filter((i) => i.kind === "message" && i.role === "assistant").at(-1);
    assert.equal(answer?.content, "answer after the weather", "the result did not reach the model");
    const result = core.store.read((db) => readRunItems(db, runId))
      .find((i) => i.kind === "tool_result" && i.data.toolCallItemId === weather.id);
    assert.equal(result?.content, '{"tempC":21}');
    await assert.rejects(
      call("run.submit_tool_result", { runId, toolCallItemId: weather.id, content: "again" }),
      (error: unknown) => error instanceof RpcError && error.data.reasonCode === "run_not_active",
      "a second result for a settled Run",
    );
  });
});

Deno.test("client tools: a runtime tool's name or a twice-offered name is refused; a waiting Run cancels", async () => {
  await withCore(async (call, events, core) => {
    const { thread } = await call("thread.create", {}) as { thread: { id: string } };
    for (
      const clientTools of [[{ ...WEATHER, name: "clock" }], [WEATHER, WEATHER]]
    ) {
      await assert.rejects(
        call("turn.start", { ...turnParams(thread.id, "x"), clientTools }),
        (error: unknown) =>
          error instanceof RpcError && error.data.reasonCode === "client_tool_conflict",
        JSON.stringify(clientTools.map((t) => t.name)),
      );
    }
    const started = await call("turn.start", turnParams(thread.id, "cancel me"));
    const runId = started.runId as string;
    await eventSeen(
      events,
      "the Run to wait for the client",
      (e) => e.type === "run.state_changed" && e.runId === runId && e.payload.status === "waiting",
    );
    await call("run.cancel", { runId });
    await runSettled(events, runId);
    assert.equal(core.store.read((db) => readRunScope(db, runId)).status, "cancelled");
    const weather = core.store.read((db) => readRunItems(db, runId))
      .find((i) => i.kind === "tool_call" && i.data.toolId === "get_weather");
    assert.notEqual(weather?.status, "running", "the waiting call outlived its Run");
  });
});
