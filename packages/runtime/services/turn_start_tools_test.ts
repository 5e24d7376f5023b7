/**
 * `turn.start`'s `tools`: a Run limited to some tools is offered only those, a call to any
 * other finds no tool (the model cannot reach a tool by naming it), the limit survives
 * `run.resume`, and an unknown id is refused before anything is stored.
 *
 * @module
 */
import assert from "node:assert/strict";
import { RpcError } from "@daedalus/protocol";
import { readRunConfig, readRunItems } from "@daedalus/storage";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import type { RpcSession } from "../server/dispatcher.ts";
import { runSettled } from "../_test_wait.ts";

const session: RpcSession = { id: "test", transport: "http" };

/** A tool that records that it ran. */
function recordingTool(id: string, ran: string[]) {
  return defineTool({
    id,
    description: `The ${id} tool`,
    params: z.object({}),
    mutating: false,
    risk: "read",
    run: () => {
      ran.push(id);
      return Promise.resolve({ content: `${id} ran` });
    },
  });
}

Deno.test("turn.start tools: only the allowed tools are offered and callable; unknown ids are refused", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-run-tools-" });
  const ran: string[] = [];
  // The model calls both tools whatever it is offered: the forbidden one must not run.
  const provider = createScriptedProvider({
    script: (request, index) =>
      index === 0
        ? {
          toolCalls: [{ name: "open", arguments: {} }, { name: "secret", arguments: {} }],
        }
        : request.messages.some((m) => JSON.stringify(m).includes("fail now")) && index === 2
        ? { error: { category: "invalid_request", message: "no" } }
        : { text: [`offered ${request.tools.map((t) => t.name).join(",")}`] },
  });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider],
    tools: [recordingTool("open", ran), recordingTool("secret", ran)],
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
  try {
    const listed = await call("tool.list", {});
    const open = listed.tools.find((t: { id: string }) => t.id === "open");
    assert.deepEqual(open, {
      id: "open",
      description: "The open tool",
      mutating: false,
      risk: "read",
      mcp: null,
    }, "tool.list names the runtime's tools");
    assert.ok(listed.tools.some((t: { id: string }) => t.id === "secret"));
    const { thread } = await call("thread.create", { title: "t" });
    const turn = {
      threadId: thread.id,
      content: "go",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    };
    await assert.rejects(
      call("turn.start", { ...turn, tools: ["open", "nope"] }),
      (error: unknown) =>
        error instanceof RpcError && error.data.reasonCode === "tool_not_found" &&
        error.message.includes('"nope"'),
      "an unknown tool id is refused with tool_not_found",
    );
    const started = await call("turn.start", { ...turn, tools: ["open"] });
    await runSettled(events, started.runId);
    const config = core.store.read((db) => readRunConfig(db, started.runId));
    assert.deepEqual(config.allowedTools, ["open"]);
    assert.deepEqual(config.tools.map((t) => t.name), ["open"]);
    assert.deepEqual(
      provider.requests[0].tools.map((t) => t.name),
      ["open"],
      "the model was offered a tool outside the Run's limit",
    );
    assert.deepEqual(ran, ["open"], "a tool outside the Run's limit ran");
    const results = core.store.read((db) => readRunItems(db, started.runId))
      .filter((item) => item.kind === "tool_result");
    const refused = results.find((item) => (item.data as { toolId?: string }).toolId === "secret");
    assert.ok(refused, "the forbidden call got no result");
    assert.match(refused.content, /Unknown tool "secret"/);

    const failing = await call("turn.start", { ...turn, content: "fail now", tools: ["open"] });
    await runSettled(events, failing.runId);
    const resumed = await call("run.resume", { runId: failing.runId });
    await runSettled(events, resumed.runId);
    assert.deepEqual(
      core.store.read((db) => readRunConfig(db, resumed.runId)).allowedTools,
      ["open"],
      "run.resume widened the Run's tools",
    );
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
