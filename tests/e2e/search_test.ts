/**
 * Message search as a user gets it, with the shipped flags: two threads, turns answered
 * by the scripted model (one with a tool call), and `thread.search` finds the right item
 * with a marked snippet, never the tool's output; archived threads stay searchable; bad
 * params and a foreign cursor are -32602 with stable reason codes.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JournalEvent, ResultOf } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, type RecordingClient, turnParams } from "./_clients.ts";

type Hit = ResultOf<"thread.search">["results"][number];

/** Starts a turn and waits until its Run settles; returns the turn id. */
async function settledTurn(
  recording: RecordingClient,
  threadId: string,
  content: string,
): Promise<string> {
  const started = await recording.client.call("turn.start", turnParams(threadId, content));
  const settled = await recording.waitForEvent(
    `the Run of "${content}" to settle`,
    (event: JournalEvent) => event.type === "run.settled" && event.runId === started.runId,
  );
  assert.equal(settled.payload.status, "completed", JSON.stringify(settled.payload));
  return started.turnId;
}

/** The snippet with its highlights in [brackets]. */
function marked(hit: Hit): string {
  let text = hit.snippet;
  for (const { start, end } of [...hit.highlights].reverse()) {
    text = `${text.slice(0, start)}[${text.slice(start, end)}]${text.slice(end)}`;
  }
  return text;
}

Deno.test("spawned: thread.search finds what was said in an older turn of another thread", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const { thread: garden } = await client.call("thread.create", { title: "Garden" });
  const { thread: kitchen } = await client.call("thread.create", { title: "Kitchen" });
  const sunflowerTurn = await settledTurn(recording, garden.id, "how deep do sunflower seeds go");
  await settledTurn(recording, garden.id, "and the watering schedule");
  await settledTurn(recording, kitchen.id, "tool kumquat marmalade");
  await settledTurn(recording, kitchen.id, "向日葵的种子怎么种");

  const { results, nextCursor } = await client.call("thread.search", { query: "SUNFLOWER" });
  assert.equal(nextCursor, null);
  assert.deepEqual(
    results.map((hit) => [hit.role, marked(hit)]).sort(),
    [
      ["assistant", "Answer to: how deep do [sunflower] seeds go"],
      ["user", "how deep do [sunflower] seeds go"],
    ],
  );
  for (const hit of results) {
    assert.equal(hit.threadId, garden.id);
    assert.equal(hit.threadTitle, "Garden");
    assert.equal(hit.turnId, sunflowerTurn);
    assert.equal(hit.branchId, garden.defaultBranchId);
    assert.equal(hit.archived, false);
  }
  const turns = (await client.call("turn.list", { threadId: garden.id })).turns;
  const items = turns.find((t) => t.id === sunflowerTurn)!.runs[0]!.items;
  assert.deepEqual(
    new Set(results.map((hit) => hit.itemId)),
    new Set(items.filter((i) => i.kind === "message").map((i) => i.id)),
    "the hits are the turn's two messages",
  );

  // The echo tool's result says "echo: tool kumquat marmalade": it must not be found.
  const kumquat = await client.call("thread.search", { query: "kumquat", limit: 50 });
  assert.ok(kumquat.results.length >= 1);
  assert.ok(kumquat.results.every((hit) => hit.threadId === kitchen.id));
  assert.ok(
    kumquat.results.every((hit) => !hit.snippet.startsWith("echo:")),
    `tool output was indexed: ${kumquat.results.map((h) => h.snippet).join(" | ")}`,
  );
  const chinese = await client.call("thread.search", { query: "种子" });
  assert.ok(chinese.results.some((hit) => marked(hit) === "向日葵的[种子]怎么种"));

  await client.call("thread.archive", { threadId: garden.id });
  const archived = await client.call("thread.search", { query: "sunflower" });
  assert.equal(archived.results.length, 2);
  assert.ok(archived.results.every((hit) => hit.archived), "archived threads stay searchable");

  const paged = await client.call("thread.search", { query: "Answer to", limit: 1 });
  assert.equal(paged.results.length, 1);
  assert.ok(paged.nextCursor !== null);
  const foreign = await client.call("thread.search", {
    query: "something else",
    cursor: paged.nextCursor,
  }).then(() => null, (e) => e);
  assert.equal(foreign?.code, -32602, String(foreign));
  assert.equal(foreign?.data?.reasonCode, "invalid_cursor", String(foreign));
  for (
    const [params, field] of [[{ query: "   " }, "query"], [{ query: "a", limit: 51 }, "limit"]]
  ) {
    const error = await client.call("thread.search", params as { query: string })
      .then(() => null, (e) => e);
    assert.equal(error?.code, -32602, String(error));
    assert.equal(error?.data?.reasonCode, "invalid_params", String(error));
    assert.equal(error?.data?.field, field, String(error));
  }
});
