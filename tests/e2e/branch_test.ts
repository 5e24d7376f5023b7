/**
 * Branches as a user gets them, with the shipped flags: four turns, a branch from turn 2,
 * and a turn on it whose model input holds turns 1–2 and not 3–4 (the fixture's
 * "history?" answers with every user message the model received); the original branch
 * still lists its four turns, and switching back continues there.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, type RecordingClient, turnParams } from "./_clients.ts";

/** Starts a turn (on the active branch unless one is named) and waits until it settles. */
async function settledTurn(
  recording: RecordingClient,
  threadId: string,
  content: string,
  branchId?: string,
): Promise<{ turnId: string; branchId: string; answer: string }> {
  const started = await recording.client.call(
    "turn.start",
    turnParams(threadId, content, branchId ? { branchId } : {}),
  );
  const settled = await recording.waitForEvent(
    `the Run of "${content}" to settle`,
    (event: JournalEvent) => event.type === "run.settled" && event.runId === started.runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  const turns = (await recording.client.call("turn.list", {
    threadId,
    branchId: started.branchId,
    direction: "backward",
  })).turns;
  const turn = turns.find((t) => t.id === started.turnId);
  const answer = turn?.runs[0]?.items.find((i) => i.kind === "message" && i.role === "assistant");
  return { turnId: started.turnId, branchId: started.branchId, answer: answer?.content ?? "" };
}

Deno.test("spawned: a branch from turn 2 of 4 continues with turns 1–2 as history; the original is intact", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const { thread } = await client.call("thread.create", { title: "branches" });
  const original: string[] = [];
  for (const text of ["one", "two", "three", "four"]) {
    original.push((await settledTurn(recording, thread.id, text)).turnId);
  }

  const { branch, event } = await client.call("branch.create", {
    threadId: thread.id,
    fromTurnId: original[1]!,
    clientRequestId: "fork-at-two",
  });
  assert.equal(event.type, "branch.created");
  assert.equal(branch.forkTurnId, original[1]);
  const again = await client.call("branch.create", {
    threadId: thread.id,
    fromTurnId: original[1]!,
    clientRequestId: "fork-at-two",
  });
  assert.equal(again.branch.id, branch.id, "a retry returns the same branch");

  const forked = await settledTurn(recording, thread.id, "history?");
  assert.equal(forked.branchId, branch.id, "turn.start continues the new active branch");
  assert.equal(forked.answer, "history: one | two | history?", "the model saw turns 1–2 only");

  const onFork = (await client.call("turn.list", { threadId: thread.id })).turns;
  assert.deepEqual(onFork.map((t) => t.id), [original[0], original[1], forked.turnId]);
  assert.deepEqual(onFork[2]!.siblings, {
    index: 1,
    count: 2,
    turnIds: [original[2], forked.turnId],
    branchIds: [thread.defaultBranchId, branch.id],
  });

  const kept = (await client.call("turn.list", {
    threadId: thread.id,
    branchId: thread.defaultBranchId,
  })).turns;
  assert.deepEqual(kept.map((t) => t.id), original, "the original branch lists turns 1–4");
  assert.deepEqual(
    kept.map((t) => t.runs[0]!.items[0]!.content),
    ["one", "two", "three", "four"],
  );
  assert.ok(kept.every((t) => t.status === "completed"));

  const switched = await client.call("thread.set_active_branch", {
    threadId: thread.id,
    branchId: thread.defaultBranchId,
  });
  assert.equal(switched.changed, true);
  assert.equal(switched.event?.type, "thread.branch_switched");
  const got = await client.call("thread.get", { threadId: thread.id });
  assert.equal(got.thread.activeBranchId, thread.defaultBranchId);
  assert.equal(got.branch?.id, thread.defaultBranchId);
  const back = await settledTurn(recording, thread.id, "history?");
  assert.equal(back.branchId, thread.defaultBranchId);
  assert.equal(back.answer, "history: one | two | three | four | history?");

  const listed = await client.call("branch.list", { threadId: thread.id });
  assert.deepEqual(listed.branches.map((b) => b.id), [thread.defaultBranchId, branch.id]);
  assert.equal(listed.activeBranchId, thread.defaultBranchId);
});

Deno.test("spawned: branch.create refuses an unknown turn and a turn of another thread", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const { thread } = await client.call("thread.create", { title: "a" });
  const { thread: other } = await client.call("thread.create", { title: "b" });
  const foreign = await settledTurn(recording, other.id, "elsewhere");
  const cases: [string | null, string][] = [
    ["turn_0123456789abcdef0123456789abcdef", "turn_not_found"],
    [foreign.turnId, "turn_not_in_thread"],
  ];
  for (const [fromTurnId, reason] of cases) {
    const error = await client.call("branch.create", {
      threadId: thread.id,
      fromTurnId,
      clientRequestId: `bad-${reason}`,
    }).then(() => null, (e) => e);
    assert.equal(error?.data?.reasonCode, reason, String(error));
  }
  const listed = await client.call("branch.list", { threadId: thread.id });
  assert.equal(listed.branches.length, 1, "nothing was written");
});
