/**
 * `run.resume` as a user gets it, with the shipped flags: the runtime is SIGKILLed while a
 * Run's second tool call runs; after the restart that Run is `runtime_interrupted`, and
 * resuming it continues in the same Turn — the first call's result is context (the fixture's
 * `count` tool proves it ran once), the killed call is reported as interrupted, not re-run.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams, waitUntil } from "./_clients.ts";

Deno.test("spawned: a Run killed mid-tool-call resumes after the restart without re-running its tools", async () => {
  await using home = await makeTempHome();
  const counter = `${home.home}/count.log`;
  const env = { FIXTURE_COUNTER_FILE: counter };
  const runs = async () =>
    (await Deno.readTextFile(counter).catch(() => "")).split("\n").filter(Boolean).length;
  let threadId: string;
  let runId: string;
  {
    await using server = await startFixture(home, env);
    await using recording = await openClient(server.url, await server.token());
    const { thread } = await recording.client.call("thread.create", { title: "resume" });
    threadId = thread.id;
    runId = (await recording.client.call(
      "turn.start",
      turnParams(thread.id, 'steps: count {} | count {"wait":true}'),
    )).runId;
    await waitUntil("the second count to be running", async () => await runs() === 2);
    server.child.kill("SIGKILL");
    assert.equal((await server.child.exit()).signal, "SIGKILL", server.child.describe());
  }
  await using server = await startFixture(home, env);
  await using recording = await openClient(server.url, await server.token());
  const client = recording.client;
  const before = (await client.call("turn.list", { threadId })).turns[0].runs[0];
  assert.deepEqual([before.status, before.reasonCode], ["failed", "runtime_interrupted"]);
  const resumed = await client.call("run.resume", { runId, clientRequestId: "resume-after-kill" });
  assert.equal(resumed.resumedFromRunId, runId);
  const settled = await recording.waitForEvent(
    "the resumed Run to settle",
    (event) => event.type === "run.settled" && event.runId === resumed.runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  const turns = (await client.call("turn.list", { threadId })).turns;
  assert.equal(turns.length, 1, "the same Turn");
  const answer = turns[0].runs[1].items.find((item) =>
    item.kind === "message" && item.role === "assistant"
  );
  assert.equal(answer?.content, "Done after 2 steps", "the model saw both calls answered");
  assert.equal(await runs(), 2, "neither call ran again");
});
