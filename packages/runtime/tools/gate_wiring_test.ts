/**
 * The policy gate through the loop: a model that repeats itself is stopped, config.yaml's
 * rules are read for each Run, and the tools' breakers are the runtime's, shared by Runs.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { JournalEvent } from "@daedalus/protocol";
import { writePermissions } from "@daedalus/storage";
import { createCircuitBreakers, defineTool, type ToolDefinition, ToolError } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { readRunPermissions } from "./run_tool_context.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled, waitUntil } from "../_test_wait.ts";

type Script = (request: unknown) => ScriptedResponse;

/** A runtime with `tools` and a scripted model; `turn` runs one full_access turn. */
async function world(
  script: Script,
  tools: ToolDefinition<unknown>[] = [],
  options: { toolBreakers?: ReturnType<typeof createCircuitBreakers> } = {},
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-gate-wiring-" });
  let modelCalls = 0;
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    tools,
    ...options,
    providers: [createScriptedProvider({
      script: (request) => {
        modelCalls++;
        return script(request);
      },
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const { thread } = await call("thread.create", { title: "gate" });
  const submit = async (executionPolicy = "full_access") =>
    (await call("turn.start", {
      threadId: thread.id,
      content: "go",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy,
    })).runId as string;
  /** The approval a Run asks for (it waits); the caller answers or cancels it. */
  const approval = (runId: string) =>
    waitUntil(
      `an approval of ${runId}`,
      () => events.find((e) => e.type === "approval.requested" && e.runId === runId),
    );
  const turn = async (executionPolicy = "full_access") => {
    const runId = await submit(executionPolicy);
    await runSettled(events, runId);
    const settled = events.find((e) => e.type === "run.settled" && e.runId === runId)!;
    const turns = (await call("turn.list", { threadId: thread.id })).turns;
    const items = turns.at(-1).runs[0].items as Array<
      { kind: string; content: string; data: { errorCode?: string } }
    >;
    const results = items.filter((i) => i.kind === "tool_result");
    return {
      status: settled.payload.status,
      reasonCode: settled.payload.reasonCode,
      codes: results.map((r) => r.data.errorCode ?? "ok"),
      contents: results.map((r) => r.content),
    };
  };
  return {
    home,
    turn,
    submit,
    approval,
    call,
    events,
    modelCalls: () => modelCalls,
    async [Symbol.asyncDispose]() {
      await core.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

function probe(run: (n: number) => Promise<{ content: string }>) {
  let runs = 0;
  const tool = defineTool({
    id: "probe",
    description: "a probe",
    params: z.object({ n: z.number().optional() }),
    mutating: false,
    risk: "read",
    run: () => run(++runs),
  });
  return { tool: tool as ToolDefinition<unknown>, runs: () => runs };
}

Deno.test("a model that asks for the same call forever is stopped: the Run waits for the user (loop_detected)", async () => {
  const { tool, runs } = probe(() => Promise.resolve({ content: "the same answer" }));
  await using w = await world(() => ({ toolCalls: [{ name: "probe", arguments: { n: 1 } }] }), [
    tool,
  ]);
  const runId = await w.submit();
  const asked = await w.approval(runId);
  assert.equal((asked.payload as { reasonCode: string }).reasonCode, "loop_detected");
  assert.equal(runs(), 3, "refused calls did not run");
  assert.equal(w.modelCalls(), 5, "the Run stopped at the pause, without another model call");
  await w.call("run.cancel", { runId });
  const settled = await runSettled(w.events, runId);
  assert.equal(settled.payload.status, "cancelled");
  const turns = (await w.call("turn.list", { threadId: asked.threadId })).turns;
  const items = turns.at(-1).runs[0].items as Array<
    { kind: string; content: string; data: { errorCode?: string } }
  >;
  const results = items.filter((i) => i.kind === "tool_result");
  assert.deepEqual(results.map((r) => r.data.errorCode ?? "ok"), [
    "ok",
    "ok",
    "ok",
    "repeated_call",
  ], "the waiting call was cancelled with its Run, without a result");
  assert.match(results[3]?.content ?? "", /probe/, "the refusal says what was repeated");
});

Deno.test("config.yaml's permissions are read when a Run starts: a deny rule names itself", async () => {
  let step = 0;
  await using w = await world(() =>
    step++ % 2 === 0 ? { toolCalls: [{ name: "thread_list", arguments: {} }] } : { text: ["ok"] }
  );
  const before = await w.turn();
  assert.deepEqual(before.codes, ["ok"], "no rules yet");
  await writePermissions(`${w.home}/config.yaml`, {
    rules: [{ tool: "thread_list", decision: "deny" }],
  });
  const after = await w.turn();
  assert.deepEqual(after.codes, ["permission_denied"], after.contents.join("\n"));
  assert.match(after.contents[0] ?? "", /permission rule config\[0\]/);
  assert.equal(after.status, "completed", "a refusal does not fail the Run");
  await writePermissions(`${w.home}/config.yaml`, {
    rules: [{ tool: "thread_list", decision: "ask" }],
  });
  const runId = await w.submit();
  const asked = await w.approval(runId);
  const payload = asked.payload as { reasonCode: string; summary: string };
  assert.equal(payload.reasonCode, "permission_ask", JSON.stringify(payload));
  await w.call("run.cancel", { runId });
  await runSettled(w.events, runId);
});

Deno.test("a narrowed mode's file call meets the config rules before its sandbox Worker", async () => {
  let step = 0;
  await using w = await world(() =>
    step++ % 2 === 0
      ? { toolCalls: [{ name: "read", arguments: { path: "notes/a.txt" } }] }
      : { text: ["ok"] }
  );
  await writePermissions(`${w.home}/config.yaml`, {
    rules: [{ tool: "read", pattern: "notes/**", decision: "deny" }],
  });
  for (const policy of ["read_only", "workspace_write"]) {
    const outcome = await w.turn(policy);
    assert.deepEqual(outcome.codes, ["permission_denied"], `${policy}: ${outcome.contents}`);
    assert.match(outcome.contents[0] ?? "", /permission rule config\[0\]/, policy);
  }
});

Deno.test("the tools' breakers are the runtime's: a tool broken in one Run fails fast in the next", async () => {
  const { tool, runs } = probe(() => {
    throw new ToolError("tool_failed", "probe is down");
  });
  let step = 0;
  await using w = await world(
    () => {
      const n = step++;
      // Run 1: four calls (distinct, so no loop), then an answer; Run 2: one call.
      if (n < 4 || n === 5) return { toolCalls: [{ name: "probe", arguments: { n } }] };
      return { text: ["done"] };
    },
    [tool],
    { toolBreakers: createCircuitBreakers({ now: () => 0 }) },
  );
  const first = await w.turn();
  assert.deepEqual(first.codes, ["tool_failed", "tool_failed", "tool_failed", "tool_failed"]);
  const second = await w.turn();
  assert.deepEqual(second.codes, ["circuit_open"], second.contents.join("\n"));
  assert.match(second.contents[0] ?? "", /probe/, "the refusal names the tool");
  assert.equal(runs(), 4, "the open breaker ran nothing");
});

Deno.test("a broken config.yaml refuses every call only when it has a permissions section", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-run-permissions-" });
  const path = `${dir}/config.yaml`;
  try {
    assert.deepEqual(await readRunPermissions(path), { settings: {} }, "no file: no rules");
    await writePermissions(path, { rules: [{ tool: "memory", decision: "deny" }] });
    assert.deepEqual(await readRunPermissions(path), {
      settings: { rules: [{ tool: "memory", decision: "deny" }] },
    });
    await Deno.writeTextFile(path, "{}\n");
    assert.deepEqual(await readRunPermissions(path), { settings: {} }, "no section to lose");
    await Deno.writeTextFile(path, "permissions:\n  rules: [{tool: memory, decision: deny}]\n");
    const broken = await readRunPermissions(path);
    assert.ok("problem" in broken, "a broken file with rules refuses");
    assert.match(broken.problem, /config\.yaml cannot be used \(config_\w+\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
