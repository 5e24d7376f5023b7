/**
 * Agent profiles' selection and freezing with the shipped flags (issue 21), the scripted
 * fixture spawned as a user runs it:
 *
 * - seed 003's selection rule for tools and skills — absent = everything the user may use,
 *   `[]` = none, a list = those — as the model's request shows it;
 * - a profile edited while its thread's Run waits on an `ask_user` question: the resumed
 *   Run is still offered the tools frozen into its config, and only a new Run gets the
 *   edited profile.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, type RecordingClient, turnParams } from "./_clients.ts";

const MEMORY = { recall: false, memoryFile: false };

/** Runs one turn and returns the answer the model gave (the Run's last message). */
async function answerOf(
  recording: RecordingClient,
  threadId: string,
  content: string,
): Promise<string> {
  const { runId } = await recording.client.call("turn.start", turnParams(threadId, content));
  const settled = await recording.waitForEvent(
    `the Run of "${content}" to settle`,
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  return lastMessage(recording.events, runId);
}

function lastMessage(events: readonly JournalEvent[], runId: string): string {
  const messages = events.filter((event) =>
    event.type === "item.completed" && event.runId === runId &&
    (event.payload as { item: { kind: string; role: string } }).item.kind === "message" &&
    (event.payload as { item: { role: string } }).item.role === "assistant"
  ).map((event) => (event.payload as { item: { content: string } }).item.content);
  assert.ok(messages.length > 0, `Run ${runId} has no answer`);
  return messages.at(-1)!;
}

function toolsIn(answer: string): string[] {
  const match = /^tools: (.*)$/.exec(answer);
  assert.ok(match, `not a tools answer: ${answer}`);
  return match[1] === "" ? [] : match[1]!.split(",");
}

Deno.test("spawned: tools and skills absent = all, [] = none, a list = those, in the model's request", async () => {
  await using home = await makeTempHome();
  for (const name of ["alpha", "beta"]) {
    await Deno.mkdir(join(home.home, "skills", name), { recursive: true });
    await Deno.writeTextFile(
      join(home.home, "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: The ${name} skill\n---\nBody of ${name}\n`,
    );
  }
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const cases: [string, Record<string, unknown>, string[] | null, string[]][] = [
    ["absent", {}, null, ["alpha", "beta"]],
    ["empty", { tools: [], skills: [] }, [], []],
    ["list", { tools: ["glob", "read"], skills: ["beta"] }, ["glob", "read"], ["beta"]],
  ];
  for (const [name, selection, tools, skills] of cases) {
    const id = `sel-${name}`;
    await client.call("agent.save", {
      profile: { id, name, permission: "full_access", memory: MEMORY, ...selection },
    });
    const { thread } = await client.call("thread.create", { title: name, agentId: id });
    assert.equal(thread.agentId, id, `${name}: the thread is not bound`);
    const offered = toolsIn(await answerOf(recording, thread.id, "tools?"));
    if (tools === null) {
      for (const tool of ["read", "write", "edit", "process_start", "subagent", "ask_user"]) {
        assert.ok(offered.includes(tool), `${name}: ${tool} was not offered (${offered})`);
      }
    } else assert.deepEqual(offered, tools, `${name}: the model was offered the wrong tools`);
    for (const skill of ["alpha", "beta"]) {
      const answer = await answerOf(recording, thread.id, `system? <name>${skill}</name>`);
      assert.equal(
        answer,
        `system has <name>${skill}</name>: ${skills.includes(skill) ? "yes" : "no"}`,
        `${name}: skill ${skill}`,
      );
    }
  }
});

Deno.test("spawned: a profile edited while its Run waits leaves the Run's frozen tools", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const profile = {
    id: "careful",
    name: "Careful",
    permission: "full_access" as const,
    memory: MEMORY,
    tools: ["ask_user", "glob", "read"],
  };
  await client.call("agent.save", { profile });
  const { thread } = await client.call("thread.create", { title: "wait", agentId: "careful" });
  const question = JSON.stringify({ question: "Go on?", choices: ["yes", "no"] });
  const { runId } = await client.call(
    "turn.start",
    turnParams(thread.id, `tools? after ask_user ${question}`),
  );
  const asked = await recording.waitForEvent(
    "the question",
    (event) => event.type === "approval.requested" && event.runId === runId,
  );
  await recording.waitForEvent(
    "the Run to wait",
    (event) =>
      event.type === "run.state_changed" && event.runId === runId &&
      event.payload.status === "waiting",
  );
  // Edited while the Run waits: one tool left.
  await client.call("agent.save", { profile: { ...profile, tools: ["read"] } });
  const saved = await client.call("agent.get", { agentId: "careful" });
  assert.deepEqual(saved.agent.profile.tools, ["read"], "the edit was saved");
  await client.call("approval.respond", {
    approvalId: (asked.payload as { approvalId: string }).approvalId,
    decision: "allow_once",
    answer: "yes",
  });
  const settled = await recording.waitForEvent(
    "the answered Run to settle",
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  assert.deepEqual(
    toolsIn(lastMessage(recording.events, runId)),
    ["ask_user", "glob", "read"],
    "the resumed Run was offered its frozen tools",
  );
  // A new Run of the same thread takes the profile as it is now.
  assert.deepEqual(toolsIn(await answerOf(recording, thread.id, "tools?")), ["read"]);
});
