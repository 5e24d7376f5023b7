/**
 * A gateway thread's source on the shipped runtime (scripted fixture model, the shipped
 * flags): threads made through the Dify-compatible API and AG-UI list and read with their
 * app key's id and name, keep the name once the key is revoked, and an owner's client
 * cannot make a thread that claims a key.
 *
 * @module
 */
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { assertRefused, openClient } from "./_clients.ts";

const PROFILE = {
  providerId: "scripted",
  modelId: "scripted-model",
  permission: "full_access",
} as const;

Deno.test("spawned: Dify- and AG-UI-made threads list and read with their key's name, after revoke too", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const dify = await client.call("gateway.key.create", { name: "Support desk", profile: PROFILE });
  const agUi = await client.call("gateway.key.create", { name: "Copilot panel", profile: PROFILE });

  const answered = await fetch(new URL("dify/v1/chat-messages", server.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${dify.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query: "hello", user: "e2e", inputs: {}, response_mode: "blocking" }),
  });
  assert.equal(answered.status, 200, await answered.clone().text());
  const conversation = (await answered.json()).conversation_id as string;
  const difyThreadId = `thread_${conversation.replaceAll("-", "")}`;

  const agent = new HttpAgent({
    url: new URL("ag-ui", server.url).href,
    headers: { Authorization: `Bearer ${agUi.key}` },
    threadId: "panel-thread",
  });
  agent.addMessage({ id: "u1", role: "user", content: "hi" });
  await agent.runAgent({ runId: "run-1" });

  const own = (await client.call("thread.create", { title: "mine" })).thread;
  await assertRefused(
    client.call("thread.create", {
      source: { kind: "gateway", keyId: dify.keyId, keyName: "Forged" },
    }),
    "thread_source_reserved",
  );

  const expectDify = { kind: "gateway", keyId: dify.keyId, keyName: "Support desk" };
  const expectAgUi = { kind: "gateway", keyId: agUi.keyId, keyName: "Copilot panel" };
  const sources = async () => {
    const { threads } = await client.call("thread.list", {});
    return new Map(threads.map((t) => [t.id, t.source ?? null]));
  };
  const listed = await sources();
  assert.equal(listed.size, 3, `a forged create made a thread: ${[...listed.keys()]}`);
  assert.deepEqual(listed.get(difyThreadId), expectDify, "the Dify thread's source");
  assert.deepEqual(listed.get(own.id), null, "the owner's thread has no source");
  const agUiThreadId = [...listed.keys()].find((id) => id !== difyThreadId && id !== own.id);
  assert.ok(agUiThreadId, "the AG-UI thread is not listed");
  assert.deepEqual(listed.get(agUiThreadId), expectAgUi, "the AG-UI thread's source");
  const read = await client.call("thread.get", { threadId: difyThreadId });
  assert.deepEqual(read.thread.source, expectDify, "thread.get lost the source");

  await client.call("gateway.key.revoke", { keyId: dify.keyId });
  assert.deepEqual((await sources()).get(difyThreadId), expectDify, "revoking lost the name");
  const reread = await client.call("thread.get", { threadId: difyThreadId });
  assert.deepEqual(reread.thread.source, expectDify);
});
