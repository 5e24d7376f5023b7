/**
 * Agent profiles with the shipped flags (issue 21): the scripted fixture is spawned as a
 * user runs it, so the narrowed modes' sandbox Worker is the real one. A thread bound to
 * Plan, or to a copy of Plan offered every tool, asks for a write and a command with a
 * turn that asks for full access: the preset is lowered to read_only, the gate refuses
 * both calls, and nothing is written or run. The binding and the frozen profile are in
 * the Run's config as the journal publishes it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

const CALLS = 'calls: write {"path":"made.txt","content":"x"} | ' +
  'process_start {"command":"touch ran.txt"}';

Deno.test("spawned: a Plan thread cannot write or run a command, whatever the turn asks", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  await client.call("agent.save", {
    profile: {
      id: "plan-all",
      name: "Plan, every tool",
      permission: "read_only",
      memory: { recall: false, memoryFile: false },
    },
  });
  for (const agentId of ["plan", "plan-all"]) {
    const workspace = `${home.workspacesRoot}/${agentId}`;
    await Deno.mkdir(workspace);
    const { thread } = await client.call("thread.create", {
      title: agentId,
      agentId,
      workspace: { rootUri: workspace },
    });
    assert.equal(thread.agentId, agentId);
    const { runId } = await client.call("turn.start", turnParams(thread.id, CALLS));
    const settled = await recording.waitForEvent(
      `the run of ${agentId} to settle`,
      (event) => event.type === "run.settled" && event.runId === runId,
    );
    assert.equal(settled.payload.status, "completed", `${agentId}: the Run did not complete`);
    // The Run's frozen config, as the journal published it when the Run was created.
    const created = recording.events.find((event: JournalEvent) =>
      event.runId === runId && (event.payload as { runConfig?: unknown }).runConfig !== undefined
    );
    const config = (created?.payload as { runConfig?: Record<string, unknown> } | undefined)
      ?.runConfig;
    assert.ok(config, `${agentId}: no event carried the Run's config`);
    assert.equal(config.executionPolicy, "read_only", `${agentId}: the preset was not lowered`);
    assert.equal((config.agent as { profile: { id: string } }).profile.id, agentId);
    const results = recording.events.filter((event) =>
      event.type === "item.completed" && event.runId === runId &&
      (event.payload as { item: { kind: string } }).item.kind === "tool_result"
    ).map((event) => (event.payload as { item: { content: string } }).item.content);
    assert.equal(results.length, 2, `${agentId}: each call needs its result`);
    for (const result of results) {
      assert.match(
        result,
        agentId === "plan" ? /Unknown tool/ : /permission_denied/,
        `${agentId}: a call was not refused by the gate: ${result}`,
      );
    }
    for (const file of ["made.txt", "ran.txt"]) {
      await assert.rejects(
        Deno.stat(`${workspace}/${file}`),
        Deno.errors.NotFound,
        `${agentId}: ${file} was made`,
      );
    }
  }
});
