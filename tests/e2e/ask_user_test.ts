/**
 * `ask_user` as a user gets it, with the shipped flags: the scripted model asks a question,
 * the Run waits exactly as for an approval (one `user_question` approval carrying the
 * question), a SIGKILL of the runtime leaves it waiting, and the answer given after the
 * restart becomes the call's result: the model reads it and the Run completes. Answers the
 * question does not accept, and a second answer, get their own reason codes.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

const QUESTION = { question: "Which port?", choices: ["8080", "9090"] };

Deno.test("spawned: ask_user pauses the Run, survives SIGKILL, and continues with the answer", async () => {
  await using home = await makeTempHome();
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  let runId: string;
  let threadId: string;
  let approvalId: string;
  {
    await using server = await startFixture(home);
    await using recording = await openClient(server.url, await server.token());
    const { thread } = await recording.client.call("thread.create", {
      title: "question",
      workspace: { rootUri: workspace },
    });
    threadId = thread.id;
    // read_only: a question touches nothing, so even the narrowest mode may ask it.
    runId = (await recording.client.call(
      "turn.start",
      turnParams(threadId, `call: ask_user ${JSON.stringify(QUESTION)}`, {
        executionPolicy: "read_only",
      }),
    )).runId;
    const asked = (await recording.waitForEvent(
      "the question",
      (event) => event.type === "approval.requested" && event.runId === runId,
    )).payload as {
      approvalId: string;
      reasonCode: string;
      decisions: string[];
      tool: string;
      summary: string;
      question?: unknown;
    };
    assert.deepEqual(
      [asked.reasonCode, asked.tool, asked.summary, asked.decisions],
      ["user_question", "ask_user", "Which port?", ["allow_once", "deny"]],
    );
    assert.deepEqual(asked.question, { text: "Which port?", choices: ["8080", "9090"] });
    approvalId = asked.approvalId;
    await recording.waitForEvent(
      "the Run to wait",
      (event) =>
        event.type === "run.state_changed" && event.runId === runId &&
        event.payload.status === "waiting",
    );
    server.child.kill("SIGKILL");
    const status = await server.child.exit();
    assert.equal(status.signal, "SIGKILL", server.child.describe());
  }
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const client = recording.client;
  const turns = await client.call("turn.list", { threadId });
  const run = turns.turns.flatMap((t) => t.runs).find((r) => r.id === runId);
  assert.equal(run?.status, "waiting", "a Run waiting for an answer is not interrupted");
  const pending = await client.call("approval.list", { threadId, status: "pending" });
  assert.deepEqual(pending.approvals.map((a) => [a.approvalId, a.question]), [
    [approvalId, { text: "Which port?", choices: ["8080", "9090"] }],
  ]);
  const refusal = async (params: Record<string, unknown>) => {
    try {
      await client.call("approval.respond", { approvalId, ...params } as never);
    } catch (error) {
      return (error as { data?: { reasonCode?: string } }).data?.reasonCode ??
        (error as Error).message;
    }
    return "answered";
  };
  assert.equal(
    await refusal({ decision: "allow_once", answer: "7070" }),
    "question_answer_invalid",
    "an answer that is not one of the choices",
  );
  assert.equal(
    await refusal({ decision: "allow_once" }),
    "question_answer_invalid",
    "allow_once without an answer",
  );
  assert.equal(
    await refusal({
      approvalId: `approval_${"0".repeat(32)}`,
      decision: "allow_once",
      answer: "8080",
    }),
    "question_not_found",
  );
  const answered = await client.call("approval.respond", {
    approvalId,
    decision: "allow_once",
    answer: "9090",
  });
  assert.deepEqual([answered.approval.status, answered.approval.answer], ["allowed", "9090"]);
  const settled = await recording.waitForEvent(
    "the answered Run to settle",
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  const items = recording.events.filter((e: JournalEvent) =>
    e.type === "item.completed" && e.runId === runId
  ).map((e) => (e.payload as { item: { kind: string; content?: string } }).item);
  assert.deepEqual(
    items.filter((item) => item.kind === "tool_result").map((item) => item.content),
    ["The user answered: 9090"],
  );
  assert.ok(
    items.some((item) =>
      item.kind === "message" && item.content === "Result: The user answered: 9090"
    ),
    `the model read the answer: ${JSON.stringify(items)}`,
  );
  assert.equal(
    await refusal({ decision: "allow_once", answer: "8080" }),
    "question_already_answered",
  );
});
