/**
 * The policy gate and approvals as a user gets them: the scripted fixture runs with the
 * shipped flags. A model stuck asking for the same call (issue 14's "495 model calls in
 * 20 s") pauses for the user within 5 calls (approval `loop_detected`) — in-process
 * (full_access) and through the narrowed modes' sandbox Worker; a high-risk command asks
 * under full_access and a denial keeps it from running; an approval survives SIGKILL:
 * after the restart the Run is still waiting, and answering it runs the call and completes;
 * and a budget pauses the Run before its next model call until the user allows more.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture, type TempHome } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

async function gateWorld(existing?: TempHome) {
  const home = existing ?? await makeTempHome();
  const server = await startFixture(home);
  const recording = await openClient(server.url, await server.token());
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/inside.txt`, "inside text\n");
  const { thread } = await recording.client.call("thread.create", {
    title: "gate",
    workspace: { rootUri: workspace },
  });
  const submit = async (content: string, executionPolicy: string) =>
    (await recording.client.call(
      "turn.start",
      turnParams(thread.id, content, { executionPolicy: executionPolicy as "full_access" }),
    )).runId;
  /** The approval a Run waits for. */
  const approval = async (runId: string) =>
    (await recording.waitForEvent(
      `an approval of ${runId}`,
      (event) => event.type === "approval.requested" && event.runId === runId,
    )).payload as { approvalId: string; reasonCode: string; decisions: string[]; tool: string };
  const settled = (runId: string) => outcome(runId);
  /** How a Run settled, and its tool results' codes and texts. */
  const outcome = async (runId: string) => {
    const settled = await recording.waitForEvent(
      `the run ${runId} to settle`,
      (event) => event.type === "run.settled" && event.runId === runId,
    );
    const results = recording.events.filter((e: JournalEvent) =>
      e.type === "item.completed" && e.runId === runId &&
      (e.payload as { item: { kind: string } }).item.kind === "tool_result"
    ).map((e) => (e.payload as { item: { content: string; data?: { errorCode?: string } } }).item);
    return {
      status: String(settled.payload.status),
      reasonCode: settled.payload.reasonCode as string | null,
      codes: results.map((r) => r.data?.errorCode ?? "ok"),
      contents: results.map((r) => r.content),
    };
  };
  return {
    submit,
    approval,
    settled,
    call: recording.client.call.bind(recording.client),
    events: recording.events,
    server,
    home,
    threadId: thread.id,
    workspace,
    async [Symbol.asyncDispose]() {
      await recording[Symbol.asyncDispose]();
      await server[Symbol.asyncDispose]();
      if (!existing) await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("spawned: a model repeating one call pauses for the user within 5 calls", async () => {
  await using world = await gateWorld();
  const cases: Array<[string, string]> = [
    ['loop: echo {"text":"again"}', "full_access"],
    ['loop: read {"path":"inside.txt"}', "workspace_write"],
  ];
  for (const [content, policy] of cases) {
    const what = `${content} (${policy})`;
    const runId = await world.submit(content, policy);
    const asked = await world.approval(runId);
    assert.equal(asked.reasonCode, "loop_detected", what);
    assert.deepEqual(asked.decisions, ["allow_once", "deny"], what);
    const modelCalls = world.events.filter((e: JournalEvent) =>
      e.type === "model.input_prepared" && e.runId === runId
    ).length;
    assert.equal(modelCalls, 5, `${what}: paused at the 5th model call`);
    await world.call("run.cancel", { runId });
    const outcome = await world.settled(runId);
    assert.equal(outcome.status, "cancelled", what);
    assert.deepEqual(
      outcome.codes,
      ["ok", "ok", "ok", "repeated_call"],
      `${what}: ${outcome.contents.join("\n")}`,
    );
  }
});

Deno.test("spawned: a high-risk command asks under full_access; denied, it never runs", async () => {
  await using world = await gateWorld();
  const command = "git push --force origin main; touch ran.txt";
  const runId = await world.submit(
    `call: process_start ${JSON.stringify({ command })}`,
    "full_access",
  );
  const asked = await world.approval(runId);
  assert.equal(asked.reasonCode, "high_risk_command");
  await world.call("approval.respond", {
    approvalId: asked.approvalId,
    decision: "deny",
    message: "never force-push main",
  });
  const outcome = await world.settled(runId);
  assert.deepEqual(outcome.codes, ["approval_denied"], outcome.contents.join("\n"));
  assert.match(outcome.contents[0] ?? "", /never force-push main/);
  assert.equal(outcome.status, "completed", "the model read the denial; the Run went on");
  await assert.rejects(() => Deno.stat(`${world.workspace}/ran.txt`), Deno.errors.NotFound);
  const safe = await world.settled(
    await world.submit(
      `call: process_start ${JSON.stringify({ command: "touch ran.txt" })}`,
      "full_access",
    ),
  );
  assert.deepEqual(safe.codes, ["ok"], safe.contents.join("\n"));
});

Deno.test("spawned: an approval survives SIGKILL; answered after the restart, the call runs and the Run completes", async () => {
  await using home = await makeTempHome();
  let runId: string;
  let approvalId: string;
  let threadId: string;
  {
    await using world = await gateWorld(home);
    threadId = world.threadId;
    runId = await world.submit(
      `call: process_start ${JSON.stringify({ command: "touch approved.txt" })}`,
      "ask",
    );
    const asked = await world.approval(runId);
    assert.equal(asked.reasonCode, "permission_ask");
    approvalId = asked.approvalId;
    world.server.child.kill("SIGKILL");
    const status = await world.server.child.exit();
    assert.equal(status.signal, "SIGKILL", world.server.child.describe());
  }
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const client = recording.client;
  const pending = await client.call("approval.list", { threadId, status: "pending" });
  assert.deepEqual(pending.approvals.map((a) => a.approvalId), [approvalId]);
  const { thread } = await client.call("thread.get", { threadId });
  const turns = await client.call("turn.list", { threadId: thread.id });
  const run = turns.turns.flatMap((t) => t.runs).find((r) => r.id === runId);
  assert.equal(run?.status, "waiting", "a Run only waiting for an answer is not interrupted");
  await client.call("approval.respond", { approvalId, decision: "allow_once" });
  const settled = await recording.waitForEvent(
    "the answered Run to settle",
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  const workspace = `${home.workspacesRoot}/project`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      await Deno.stat(`${workspace}/approved.txt`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  await Deno.stat(`${workspace}/approved.txt`);
});

Deno.test("spawned: a budget pauses the Run before its next model call; allowed, the Run completes", async () => {
  await using world = await gateWorld();
  const runId = (await world.call(
    "turn.start",
    turnParams(world.threadId, `call: echo ${JSON.stringify({ text: "once" })}`, {
      executionPolicy: "full_access",
      budget: { modelCalls: 1 },
    }),
  )).runId;
  const asked = await world.approval(runId);
  assert.equal(asked.reasonCode, "budget_reached");
  const modelCalls = () =>
    world.events.filter((e: JournalEvent) => e.type === "model.input_prepared" && e.runId === runId)
      .length;
  assert.equal(modelCalls(), 1, "no model call past the budget");
  await world.call("approval.respond", { approvalId: asked.approvalId, decision: "allow_once" });
  const outcome = await world.settled(runId);
  assert.equal(outcome.status, "completed", outcome.contents.join("\n"));
  assert.equal(modelCalls(), 2, "the extension allowed the answer's call");
});
