import assert from "node:assert/strict";
import { ConversationOwners } from "./conversation_owners.ts";
import { DIFY_UPLOAD_KEEP_MS, GATEWAY_RUN_KEEP_MS } from "./limits.ts";

const MAX = 20;

const A = { keyId: "key_a", user: "u1" };
const B = { keyId: "key_b", user: "u1" };
const IMAGE = { kind: "image" as const, path: "/tmp/x.png", mimeType: "image/png" };

async function temp() {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-owners-" });
  return `${dir}/gateway_conversations.json`;
}

Deno.test("owners: threads, runs and uploads survive a reopen, each for its owner only", async () => {
  const path = await temp();
  let clock = 1_000;
  const owners = await ConversationOwners.open(path, { now: () => clock });
  await owners.addThread("thr_1", A);
  await owners.addRun("run_1", "thr_1", A);
  await owners.addUpload("up_1", { ...A, attachment: IMAGE, name: "x.png", size: 3 });
  const reopened = await ConversationOwners.open(path, { now: () => clock });
  assert.equal(reopened.owns("thr_1", A), true);
  assert.equal(reopened.owns("thr_1", B), false, "another key owns the thread");
  assert.deepEqual(reopened.threadsOf(A), ["thr_1"]);
  assert.deepEqual(reopened.run("run_1"), { ...A, threadId: "thr_1", at: 1_000 });
  assert.equal(reopened.run("run_2"), undefined);
  assert.deepEqual(reopened.upload("up_1", A)?.attachment, IMAGE);
  assert.equal(reopened.upload("up_1", B), undefined, "another key reads the upload");
  assert.equal(reopened.upload("up_1", { ...A, user: "u2" }), undefined, "another user reads it");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  clock += GATEWAY_RUN_KEEP_MS + 1;
  assert.equal(reopened.run("run_1"), undefined, "a day-old task is still stoppable");
  clock = 1_000 + DIFY_UPLOAD_KEEP_MS + 1;
  assert.equal(reopened.upload("up_1", A), undefined, "a day-old upload is still usable");
});

Deno.test("owners: a file from before tasks were kept opens; a bad one is refused", async () => {
  const path = await temp();
  await Deno.writeTextFile(path, JSON.stringify({ version: 1, threads: { thr_1: A } }));
  const owners = await ConversationOwners.open(path);
  assert.equal(owners.owns("thr_1", A), true);
  for (const text of ["{", JSON.stringify({ version: 2, threads: {} }), "[]"]) {
    await Deno.writeTextFile(path, text);
    await assert.rejects(ConversationOwners.open(path), /not a gateway conversations file/, text);
  }
});

Deno.test("owners: runs are pruned by age on write and bounded in count, newest kept", async () => {
  const path = await temp();
  let clock = 0;
  const owners = await ConversationOwners.open(path, { now: () => clock, maxRuns: MAX });
  await owners.addRun("old", "thr_1", A);
  clock = GATEWAY_RUN_KEEP_MS + 1;
  for (let i = 0; i < MAX + 5; i++) {
    clock += 1;
    await owners.addRun(`run_${i}`, "thr_1", A);
  }
  const file = JSON.parse(await Deno.readTextFile(path));
  const ids = Object.keys(file.runs);
  assert.equal(ids.length, MAX, "the runs were not bounded");
  assert.ok(!ids.includes("old"), "an old run was kept");
  assert.ok(!ids.includes("run_0") && ids.includes(`run_${MAX + 4}`));
});
