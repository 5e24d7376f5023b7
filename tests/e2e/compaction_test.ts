/**
 * Compaction control as a user gets it, with the shipped flags (the scripted fixture
 * runtime): config.yaml's setting over settings.read/update, a thread's own switch frozen
 * into its Runs, and `thread.compact` — the next Run's model input has the summary and
 * none of the compacted turns.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

Deno.test("spawned: compaction settings persist, and thread.compact replaces the turns it covers", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;

  const read = await client.call("settings.read", {});
  assert.deepEqual(read.settings.compaction, { threshold: 0.9, enabled: true }, "the default");
  const updated = await client.call("settings.update", { compaction: { threshold: 0.75 } });
  assert.deepEqual(updated.settings.compaction, { threshold: 0.75, enabled: true });
  assert.match(await Deno.readTextFile(`${home.home}/config.yaml`), /threshold: 0.75/);
  await assert.rejects(
    () => client.call("settings.update", { compaction: { threshold: 0.1 } }),
    /compaction\.threshold/,
    "a threshold below 0.5 is refused naming the field",
  );

  const { thread } = await client.call("thread.create", { title: "compact" });
  const turn = async (content: string) => {
    const started = await client.call("turn.start", turnParams(thread.id, content));
    const settled = await recording.waitForEvent(
      `"${content}" to settle`,
      (event) => event.type === "run.settled" && event.runId === started.runId,
    );
    assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
    const turns = (await client.call("turn.list", { threadId: thread.id })).turns;
    const mine = turns.find((t) => t.id === started.turnId)!;
    const answer = mine.runs.at(-1)!.items.find((item) =>
      item.kind === "message" && item.role === "assistant"
    );
    return { ...started, answer: answer?.content ?? "" };
  };
  await turn("alpha question");
  await turn("beta question");
  const probe = await turn("context?");
  assert.equal(probe.answer, "Seen: alpha question | beta question; summary: no");

  const compacted = await client.call("thread.compact", {
    threadId: thread.id,
    clientRequestId: "e2e-compact-1",
  });
  assert.equal(compacted.compacted, true);
  assert.equal(compacted.compaction?.throughTurnId, probe.turnId, "it covers the newest turn");
  assert.match(compacted.compaction?.summary ?? "", /FIXTURE SUMMARY of \d+ records/);
  assert.equal(compacted.event?.type, "thread.compacted");

  const after = await turn("context?");
  assert.equal(after.answer, "Seen: ; summary: yes", "no compacted turn reached the model");
  assert.equal(
    (await turn("context?")).answer,
    "Seen: context?; summary: yes",
    "a turn after the cut is kept verbatim",
  );

  const again = await client.call("thread.compact", {
    threadId: thread.id,
    clientRequestId: "e2e-compact-1",
  });
  assert.deepEqual(again.compaction, compacted.compaction, "idempotent by clientRequestId");

  const off = await client.call("thread.update_settings", {
    threadId: thread.id,
    compaction: { enabled: false },
  });
  assert.deepEqual(off.settings.compaction, { enabled: false });
  const frozen = await turn("frozen?");
  const created = recording.events.find((event: JournalEvent) =>
    event.type === "run.state_changed" && event.runId === frozen.runId &&
    event.payload.runConfig !== undefined
  );
  assert.deepEqual(
    (created?.payload as { runConfig?: { compaction?: unknown } }).runConfig?.compaction,
    { threshold: 0.75, enabled: false, source: "thread" },
    "the Run froze config.yaml's threshold with the thread's switch",
  );
});
