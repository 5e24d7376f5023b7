/**
 * Custody of managed processes across a runtime crash: a background command keeps
 * running when the runtime is SIGKILLed; after a restart on the same home it is
 * re-adopted (running, runtime_recovered), its later output is readable, and
 * process.stop still stops it.
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams, waitUntil } from "./_clients.ts";

Deno.test("a background command survives a runtime SIGKILL and is re-adopted after restart", async () => {
  await using home = await makeTempHome();
  let processId = "";
  let threadId = "";
  {
    await using server = await startFixture(home);
    await using recorder = await openClient(server.url, await server.token());
    const { thread } = await recorder.client.call("thread.create", { title: "custody" });
    threadId = thread.id;
    const { runId } = await recorder.client.call("turn.start", {
      ...turnParams(thread.id, "bg: for i in $(seq 1 100); do echo tick $i; sleep 0.1; done"),
    });
    await recorder.waitForEvent(
      "run settled",
      (e) => e.type === "run.settled" && e.runId === runId,
    );
    const recorded = await recorder.waitForEvent(
      "process recorded",
      (e) => e.type === "process.recorded",
    );
    processId = (recorded.payload as { process: { processId: string } }).process.processId;
    await waitUntil("first ticks", async () => {
      const page = await recorder.client.call("process.read", { threadId, processId });
      return page.output.includes("tick 3") ? page : undefined;
    });
    server.child.kill("SIGKILL");
    await server.child.status;
  }
  await using restarted = await startFixture(home);
  await using client = await openClient(restarted.url, await restarted.token());
  const first = await client.client.call("process.read", { threadId, processId });
  assert.equal(first.state, "running");
  assert.equal(first.errorCode, "runtime_recovered");
  const later = await waitUntil("ticks written after the restart", async () => {
    const page = await client.client.call("process.read", { threadId, processId, cursor: 0 });
    const ticks = [...page.output.matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
    return ticks.length > 0 && Math.max(...ticks) >= 20 ? page : undefined;
  });
  assert.match(later.output, /tick 1\n/);
  const stopped = await client.client.call("process.stop", { threadId, processId });
  assert.equal(stopped.state, "terminated");
});
