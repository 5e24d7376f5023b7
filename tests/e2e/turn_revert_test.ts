/**
 * `turn.revert` as a user gets it, with the shipped flags: the scripted model writes files
 * through the real write tool, the user edits one of them by hand, and the revert reports
 * the conflict, refuses, honours force, restores byte for byte, and can itself be reverted.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

Deno.test("spawned: turn.revert restores a turn's writes, reports a conflict, honours force", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  const original = "\uFEFFfirst\r\nsecond\r\n";
  await Deno.writeTextFile(`${workspace}/kept.txt`, original);
  await Deno.writeTextFile(`${workspace}/hand.txt`, "hand 0\n");
  const { thread } = await recording.client.call("thread.create", {
    title: "revert",
    workspace: { rootUri: workspace },
  });
  const writeTurn = async (path: string, content: string) => {
    const args = JSON.stringify({ path, content });
    const started = await recording.client.call(
      "turn.start",
      turnParams(thread.id, `call: write ${args}`),
    );
    const settled = await recording.waitForEvent(
      `the write of ${path} to settle`,
      (event) => event.type === "run.settled" && event.runId === started.runId,
    );
    assert.equal(settled.payload.status, "completed", `the write of ${path} completed`);
    return started.turnId;
  };
  const first = await writeTurn("kept.txt", "overwritten\n");
  const second = await writeTurn("hand.txt", "hand 1\n");
  const created = await writeTurn("created.txt", "new file\n");
  assert.equal(await Deno.readTextFile(`${workspace}/kept.txt`), "overwritten\n");

  const undoFirst = await recording.client.call("turn.revert", {
    turnId: first,
    clientRequestId: "e2e-revert-1",
  });
  assert.deepEqual(undoFirst.files.map((f) => [f.path, f.outcome]), [["kept.txt", "reverted"]]);
  assert.deepEqual(
    await Deno.readFile(`${workspace}/kept.txt`),
    new TextEncoder().encode(original),
    "kept.txt is back byte for byte (BOM and CRLF included)",
  );

  await Deno.writeTextFile(`${workspace}/hand.txt`, "edited by the user\n");
  const dry = await recording.client.call("turn.revert", {
    turnId: second,
    clientRequestId: "e2e-revert-2",
    dryRun: true,
  });
  assert.deepEqual(dry.files.map((f) => [f.outcome, f.reason]), [["conflict", "changed_since"]]);
  const refused = await recording.client.call("turn.revert", {
    turnId: second,
    clientRequestId: "e2e-revert-3",
  });
  assert.equal(refused.applied, false, "a conflict is not overwritten without force");
  assert.equal(await Deno.readTextFile(`${workspace}/hand.txt`), "edited by the user\n");
  const forced = await recording.client.call("turn.revert", {
    turnId: second,
    clientRequestId: "e2e-revert-3f",
    force: true,
  });
  assert.deepEqual(forced.files.map((f) => [f.outcome, f.reason]), [["reverted", "changed_since"]]);
  assert.equal(
    await Deno.readTextFile(`${workspace}/hand.txt`),
    "hand 0\n",
    "forced over the edit",
  );

  const removed = await recording.client.call("turn.revert", {
    turnId: created,
    clientRequestId: "e2e-revert-4",
  });
  assert.equal(removed.applied, true);
  assert.equal(
    await Deno.lstat(`${workspace}/created.txt`).then(() => "present", () => "removed"),
    "removed",
    "the file the turn created is removed",
  );
  const redo = await recording.client.call("turn.revert", {
    turnId: created,
    clientRequestId: "e2e-revert-5",
  });
  assert.equal(redo.direction, "redo");
  assert.equal(await Deno.readTextFile(`${workspace}/created.txt`), "new file\n", "recreated");
  const journaled = await recording.waitForEvent(
    "the turn.reverted of the redo",
    (event) =>
      event.type === "turn.reverted" && event.turnId === created &&
      (event.payload as { direction: string }).direction === "redo",
  );
  assert.equal(journaled.seq, redo.eventSeq, "the result names the journaled event");
});
