/**
 * Thread export as the PWA downloads it, with the shipped flags: after a turn, `GET
 * /api/threads/<id>/export` returns the Markdown transcript and the JSON lines segment,
 * which verifies with `verifyExportedSegment` and ends at the head the transcript names;
 * a bad format, an unknown thread and a missing credential are refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import { verifyExportedSegment } from "@daedalus/storage";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, turnParams } from "./_clients.ts";

Deno.test("spawned: a thread's export downloads as Markdown and as a JSON lines segment that verifies", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  await using recording = await openClient(server.url, token);
  const { thread } = await recording.client.call("thread.create", { title: "Export me" });
  const { runId } = await recording.client.call("turn.start", turnParams(thread.id, "hello"));
  await recording.waitForEvent(
    "the Run to settle",
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  const base = server.url.endsWith("/") ? server.url : `${server.url}/`;
  const exported = (format: string, threadId = thread.id) =>
    fetch(`${base}api/threads/${threadId}/export?format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  const markdown = await exported("markdown");
  assert.equal(markdown.status, 200);
  assert.equal(markdown.headers.get("content-type"), "text/markdown; charset=utf-8");
  const transcript = await markdown.text();
  assert.match(transcript, /### You · .*\n\nhello\n/);
  assert.match(transcript, /### Assistant · .*\n\nAnswer to: hello\n/);
  assert.doesNotMatch(transcript, /run\.state_changed/, "lifecycle events stay in the JSON");

  const jsonl = await exported("jsonl");
  assert.equal(jsonl.status, 200);
  const segment = await jsonl.text();
  const verified = verifyExportedSegment(segment);
  assert.equal(
    verified.ok,
    true,
    `the downloaded segment must verify: ${verified.failure?.message}`,
  );
  const types = segment.trimEnd().split("\n").map((line) => JSON.parse(line).type);
  assert.ok(types.includes("thread.created") && types.includes("run.settled"), String(types));
  // The head the Markdown names is the segment's last row.
  const last = JSON.parse(segment.trimEnd().split("\n").at(-1)!);
  assert.ok(transcript.endsWith(`Last event: seq ${last.seq}, hash \`${last.hash}\`.\n`));

  const refused = await exported("pdf");
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, "export_format_invalid");
  const unknown = await exported("jsonl", `thread_${"0".repeat(32)}`);
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.code, "thread_not_found");
  const anonymous = await fetch(`${base}api/threads/${thread.id}/export?format=jsonl`);
  await anonymous.body?.cancel();
  assert.equal(anonymous.status, 401, "the export needs the same credential as everything else");
});
