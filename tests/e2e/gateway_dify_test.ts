/**
 * The gateway's Dify-compatible API on the shipped runtime (scripted fixture model, the
 * shipped flags): an app key made over RPC drives `POST /dify/v1/chat-messages` (a tool
 * call and answer in Dify's SSE shape, then a blocking continuation), while the owner's
 * token, a wrong key and a revoked key are refused with 401 in Dify's form. Plain fetch
 * with dify-client's exact body (WIRE.md §1); the real dify-client is not a dependency yet.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient } from "./_clients.ts";

Deno.test("spawned: a gateway key drives the Dify API; the owner token and revoked keys get 401", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const ownerToken = await server.token();
  await using recording = await openClient(server.url, ownerToken);
  const { client } = recording;
  const created = await client.call("gateway.key.create", {
    name: "e2e",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "full_access" },
  });
  const base = new URL("dify/v1/", server.url).href;
  const chat = (body: unknown, bearer: string) =>
    fetch(`${base}chat-messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const body = (query: string, mode: string, conversation?: string) => ({
    inputs: {},
    query,
    user: "e2e-user",
    response_mode: mode,
    files: null,
    ...(conversation ? { conversation_id: conversation } : {}),
  });

  const streamed = await chat(body("tool please", "streaming"), created.key);
  assert.equal(streamed.status, 200);
  const text = await streamed.text();
  assert.ok(text.startsWith("event: ping\n\n"), text.slice(0, 80));
  const data = text.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) =>
    JSON.parse(f.slice(6))
  );
  const events = data.map((d) => d.event);
  assert.ok(events.includes("agent_thought"), events.join(","));
  assert.ok(events.includes("agent_message"), events.join(","));
  assert.equal(events.at(-1), "message_end");
  const thoughts = data.filter((d) => d.event === "agent_thought");
  assert.equal(thoughts[0].tool, "echo");
  assert.ok(thoughts.at(-1).observation !== "", "the thought never got its observation");
  const conversation = data[0].conversation_id;

  const blocking = await chat(body("history?", "blocking", conversation), created.key);
  assert.equal(blocking.status, 200);
  const answer = await blocking.json();
  assert.equal(answer.conversation_id, conversation);
  assert.match(answer.answer, /tool please \| history\?/, "the continuation lost its history");

  for (
    const [what, bearer] of [["the owner token", ownerToken], [
      "a wrong key",
      `app-${"1".repeat(40)}`,
    ]]
  ) {
    const refused = await chat(body("x", "blocking"), bearer);
    assert.equal(refused.status, 401, what);
    assert.equal((await refused.json()).code, "unauthorized", what);
  }
  await client.call("gateway.key.revoke", { keyId: created.keyId });
  const revoked = await chat(body("x", "blocking"), created.key);
  assert.equal(revoked.status, 401);
  await revoked.body?.cancel();
  const keysFile = await Deno.readTextFile(`${home.home}/gateway_keys.json`);
  assert.ok(!keysFile.includes(created.key), "the key is stored in the clear");
});
