/**
 * Crash recovery of the real `daedalus serve` process: SIGKILL during a streaming run
 * with a second turn queued behind it, then restarts on the same home.
 */
import assert from "node:assert/strict";
import { createHttpClient, type JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture, type TempHome } from "./_harness.ts";
import { openClient, replayAll, settlementsOf, turnParams, waitUntil } from "./_clients.ts";

interface BeforeTheCrash {
  threadId: string;
  interruptedRunId: string;
  queuedRunId: string;
  /** Every event the client saw before the kill. */
  seen: JournalEvent[];
  /** The text the client saw streamed before the kill. */
  streamed: string;
}

/** Starts a slow run and queues a second turn, then kills the server mid-stream. */
async function crashMidRun(home: TempHome): Promise<BeforeTheCrash> {
  await using server = await startFixture(home);
  await using recorder = await openClient(server.url, await server.token());
  const ws = recorder.client;
  const { thread } = await ws.call("thread.create", { title: "crash" });
  const first = await ws.call("turn.start", turnParams(thread.id, "slow essay"));
  const second = await ws.call("turn.start", turnParams(thread.id, "after the crash"));
  const deltas = () =>
    recorder.events.filter((e) => e.type === "item.delta" && e.runId === first.runId);
  await waitUntil("two deltas of the slow run", () => deltas().length >= 2);

  server.child.kill("SIGKILL");
  const status = await server.child.exit();
  assert.equal(status.signal, "SIGKILL", `the server was not killed\n${server.child.describe()}`);
  assert.ok(
    !recorder.events.some((e) => e.runId === second.runId && e.payload.status === "running"),
    "the second turn was still queued at the kill",
  );
  return {
    threadId: thread.id,
    interruptedRunId: first.runId,
    queuedRunId: second.runId,
    seen: [...recorder.events],
    streamed: deltas().map((e) => String(e.payload.delta)).join(""),
  };
}

Deno.test("after SIGKILL mid-run: the run fails runtime_interrupted once, the queued run completes, a later restart changes nothing", async () => {
  await using home = await makeTempHome();
  const crash = await crashMidRun(home);
  const { interruptedRunId, queuedRunId, threadId } = crash;

  let journalAfterRecovery: JournalEvent[];
  {
    await using server = await startFixture(home);
    await using recorder = await openClient(server.url, await server.token());
    const ws = recorder.client;
    const done = await recorder.waitForEvent(
      "the queued run to run after the restart",
      (e) => e.type === "run.settled" && e.runId === queuedRunId,
    );
    assert.equal(done.payload.status, "completed");

    const journal = await replayAll(ws);
    assert.deepEqual(
      journal.slice(0, crash.seen.length),
      crash.seen,
      "every event a client saw before the crash is in the journal, unchanged",
    );
    const settled = settlementsOf(journal, interruptedRunId);
    assert.equal(settled.length, 1, "one run.settled for the interrupted run");
    assert.deepEqual(
      [settled[0].payload.status, settled[0].payload.reasonCode],
      ["failed", "runtime_interrupted"],
    );
    assert.equal(settlementsOf(journal, queuedRunId).length, 1);
    assert.ok(
      settled[0].seq <
        (journal.find((e) => e.runId === queuedRunId && e.payload.status === "running")?.seq ?? 0),
      "the interrupted run settled before the queued one started",
    );

    const [one, two] = (await ws.call("turn.list", { threadId })).turns;
    const interrupted = one.runs[0];
    assert.deepEqual([interrupted.status, interrupted.reasonCode], [
      "failed",
      "runtime_interrupted",
    ]);
    const partial = interrupted.items.find((i) => i.role === "assistant");
    assert.ok(partial, "the partial answer is kept");
    assert.ok(
      partial.content.startsWith(crash.streamed),
      `kept text ${JSON.stringify(partial.content)} starts with what was streamed`,
    );
    assert.ok(!partial.content.includes("chunk19"), "the run never finished");
    const queued = two.runs[0];
    assert.equal(queued.status, "completed");
    const answer = queued.items.find((i) => i.role === "assistant");
    assert.equal(answer?.content, "Answer to: after the crash");

    journalAfterRecovery = await replayAll(ws);
    assert.deepEqual(await ws.call("runtime.shutdown", {}), { accepted: true });
    assert.equal((await server.child.exit()).code, 0, server.child.describe());
  }

  await using third = await startFixture(home);
  const rpc = createHttpClient({ url: third.url, token: await third.token() });
  const journal = await replayAll(rpc);
  assert.deepEqual(journal, journalAfterRecovery, "a third start re-runs and settles nothing");
  const runs = (await rpc.call("turn.list", { threadId })).turns.map((t) => t.runs[0].status);
  assert.deepEqual(runs, ["failed", "completed"]);
});
