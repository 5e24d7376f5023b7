/**
 * The policy gate as a user gets it: the scripted fixture runs with the shipped flags.
 * A model stuck asking for the same call (issue 14's "495 model calls in 20 s") is stopped
 * within a handful of calls and its Run fails `loop_detected` — in-process (full_access)
 * and through the narrowed modes' sandbox Worker — and a high-risk command is refused
 * under full_access before anything is spawned.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

async function gateWorld() {
  const home = await makeTempHome();
  const server = await startFixture(home);
  const recording = await openClient(server.url, await server.token());
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/inside.txt`, "inside text\n");
  const { thread } = await recording.client.call("thread.create", {
    title: "gate",
    workspace: { rootUri: workspace },
  });
  /** Runs one turn; returns how it settled and its tool results' codes and texts. */
  const turn = async (content: string, executionPolicy: string) => {
    const { runId } = await recording.client.call(
      "turn.start",
      turnParams(thread.id, content, { executionPolicy: executionPolicy as "full_access" }),
    );
    const settled = await recording.waitForEvent(
      `the run of "${content}" to settle`,
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
    turn,
    workspace,
    async [Symbol.asyncDispose]() {
      await recording[Symbol.asyncDispose]();
      await server[Symbol.asyncDispose]();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("spawned: a model repeating one call is stopped and its Run fails loop_detected", async () => {
  await using world = await gateWorld();
  const cases: Array<[string, string]> = [
    ['loop: echo {"text":"again"}', "full_access"],
    ['loop: read {"path":"inside.txt"}', "workspace_write"],
  ];
  for (const [content, policy] of cases) {
    const outcome = await world.turn(content, policy);
    const what = `${content} (${policy})`;
    assert.equal(outcome.status, "failed", what);
    assert.equal(outcome.reasonCode, "loop_detected", what);
    assert.deepEqual(
      outcome.codes,
      ["ok", "ok", "ok", "repeated_call", "loop_detected"],
      `${what}: ${outcome.contents.join("\n")}`,
    );
  }
});

Deno.test("spawned: a high-risk command is refused under full_access and never runs", async () => {
  await using world = await gateWorld();
  const command = "git push --force origin main; touch ran.txt";
  const outcome = await world.turn(
    `call: process_start ${JSON.stringify({ command })}`,
    "full_access",
  );
  assert.deepEqual(outcome.codes, ["high_risk_command"], outcome.contents.join("\n"));
  assert.match(outcome.contents[0] ?? "", /git_force_push/);
  assert.equal(outcome.status, "completed", "the model read the refusal; the Run went on");
  await assert.rejects(() => Deno.stat(`${world.workspace}/ran.txt`), Deno.errors.NotFound);
  const safe = await world.turn(
    `call: process_start ${JSON.stringify({ command: "touch ran.txt" })}`,
    "full_access",
  );
  assert.deepEqual(safe.codes, ["ok"], safe.contents.join("\n"));
});
