/**
 * The user's MEMORY.md with the shipped flags (issue 21): the scripted fixture runs as a
 * user runs it. A thread bound to Build (memory.memoryFile on) gets the workspace's
 * MEMORY.md in the model's system message; a copy of Build saved with memoryFile off does
 * not, and its `memory` `file_read` is refused. Build's `file_append` changes the file
 * like any write: the change is journaled with its diff, and `turn.revert` undoes it.
 * Plan (read_only) sees the file but its append is refused by the gate.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, type RecordingClient, turnParams } from "./_clients.ts";

const NOTES = "# Notes\n\n- MARKER-5c1e: deploys go through staging first\n";

/** Runs one turn to its settlement; returns its ids and the assistant's answer. */
async function runTurn(recording: RecordingClient, threadId: string, content: string) {
  const started = await recording.client.call("turn.start", turnParams(threadId, content));
  const settled = await recording.waitForEvent(
    `the Run of "${content}" to settle`,
    (event: JournalEvent) => event.type === "run.settled" && event.runId === started.runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  const items = recording.events.filter((event) =>
    event.type === "item.completed" && event.runId === started.runId
  ).map((event) =>
    (event.payload as { item: { kind: string; role: string; content: string } }).item
  );
  const answer = items.findLast((item) => item.kind === "message" && item.role === "assistant");
  const toolResult = items.find((item) => item.kind === "tool_result");
  return { ...started, answer: answer?.content ?? "", toolResult: toolResult?.content ?? "" };
}

Deno.test("spawned: MEMORY.md reaches the model only when the thread's profile enables it", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  await client.call("agent.save", {
    profile: {
      id: "build-no-notes",
      name: "Build without MEMORY.md",
      permission: "full_access",
      memory: { recall: true, memoryFile: false },
    },
  });
  const threads: Record<string, string> = {};
  for (const agentId of ["build", "build-no-notes", "plan"]) {
    const workspace = `${home.workspacesRoot}/${agentId}`;
    await Deno.mkdir(workspace);
    await Deno.writeTextFile(`${workspace}/MEMORY.md`, NOTES);
    const { thread } = await client.call("thread.create", {
      title: agentId,
      agentId,
      workspace: { rootUri: workspace },
    });
    threads[agentId] = thread.id;
  }

  const shown = await runTurn(recording, threads.build!, "system? MARKER-5c1e");
  assert.equal(shown.answer, "system has MARKER-5c1e: yes", "Build's request lacks MEMORY.md");
  const framed = await runTurn(recording, threads.build!, "system? <memory_file path=");
  assert.match(framed.answer, /: yes$/, "the notes are not in their reference block");
  const hidden = await runTurn(recording, threads["build-no-notes"]!, "system? MARKER-5c1e");
  assert.equal(hidden.answer, "system has MARKER-5c1e: no", "a disabled profile got MEMORY.md");
  const refused = await runTurn(
    recording,
    threads["build-no-notes"]!,
    'call: memory {"action":"file_read"}',
  );
  assert.match(refused.toolResult, /memory\.memoryFile is off/);

  const workspace = `${home.workspacesRoot}/build`;
  const appended = await runTurn(
    recording,
    threads.build!,
    'call: memory {"action":"file_append","content":"- Added by the agent"}',
  );
  assert.match(appended.toolResult, /^Appended to MEMORY\.md/, appended.toolResult);
  assert.equal(
    await Deno.readTextFile(`${workspace}/MEMORY.md`),
    `${NOTES}\n- Added by the agent\n`,
  );
  const change = recording.events.find((event) =>
    event.type === "file.change_recorded" && event.turnId === appended.turnId
  );
  assert.ok(change, "the append was not journaled as a file change");
  assert.equal(change.payload.path, "MEMORY.md");
  assert.equal(change.payload.additions, 2);
  const reverted = await client.call("turn.revert", {
    turnId: appended.turnId,
    clientRequestId: "e2e-memory-file-revert",
  });
  assert.deepEqual(reverted.files.map((f) => [f.path, f.outcome]), [["MEMORY.md", "reverted"]]);
  assert.equal(await Deno.readTextFile(`${workspace}/MEMORY.md`), NOTES, "the append is undone");

  const plan = await runTurn(recording, threads.plan!, "system? MARKER-5c1e");
  assert.equal(plan.answer, "system has MARKER-5c1e: yes", "Plan enables MEMORY.md too");
  const planAppend = await runTurn(
    recording,
    threads.plan!,
    'call: memory {"action":"file_append","content":"- From Plan"}',
  );
  assert.match(
    planAppend.toolResult,
    /permission_denied: memory writes, and this run is read_only/,
  );
  assert.equal(await Deno.readTextFile(`${home.workspacesRoot}/plan/MEMORY.md`), NOTES);
});
