/**
 * The gateway's Dify-compatible API on the shipped runtime (scripted fixture model, the
 * shipped flags): an app key made over RPC drives `POST /dify/v1/chat-messages` (a tool
 * call and answer in Dify's SSE shape, then a blocking continuation), while the owner's
 * token, a wrong key and a revoked key are refused with 401 in Dify's form. Driven by the
 * real `dify-client` (2.3.2, npm): it parses no SSE, so the stream is read as Dify's web
 * app reads it (`data: ` lines).
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient } from "./_clients.ts";
import { ChatClient } from "dify-client";

/** The body of a dify-client response stream (a Node Readable), as text. */
async function readStream(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text;
}

/** The HTTP status of a dify-client (axios) rejection. */
async function refusedStatus(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    return (error as { response?: { status?: number } }).response?.status;
  }
  return undefined;
}

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
  const base = new URL("dify/v1", server.url).href;
  const dify = new ChatClient(created.key, base);

  const streamed = await dify.createChatMessage({}, "tool please", "e2e-user", true);
  assert.equal(streamed.status, 200);
  const text = await readStream(streamed.data);
  assert.ok(text.startsWith("event: ping\n\n"), text.slice(0, 80));
  // Dify's web app: split on newlines, parse the lines that start with "data: ".
  const data = text.split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice(6))
  );
  const events = data.map((d) => d.event);
  assert.ok(events.includes("agent_thought"), events.join(","));
  assert.ok(events.includes("agent_message"), events.join(","));
  assert.equal(events.at(-1), "message_end");
  const thoughts = data.filter((d) => d.event === "agent_thought");
  assert.equal(thoughts[0].tool, "echo");
  assert.equal(new Set(thoughts.map((t) => t.id)).size, 1, "one call, one thought id");
  assert.ok(thoughts.at(-1).observation !== "", "the thought never got its observation");
  assert.equal(typeof data.at(-1).metadata.usage.total_tokens, "number");
  const conversation = data[0].conversation_id;

  const blocking = await dify.createChatMessage({}, "history?", "e2e-user", false, conversation);
  assert.equal(blocking.status, 200);
  assert.equal(blocking.data.conversation_id, conversation);
  assert.match(
    blocking.data.answer,
    /tool please \| history\?/,
    "the continuation lost its history",
  );

  // The conversation and its two messages, as dify-client lists them.
  const parameters = await dify.getApplicationParameters("e2e-user");
  assert.equal(parameters.status, 200);
  assert.deepEqual(parameters.data.user_input_form, []);
  const conversations = (await dify.getConversations("e2e-user")).data;
  assert.deepEqual(conversations.data.map((c: { id: string }) => c.id), [conversation]);
  assert.equal(conversations.has_more, false);
  assert.deepEqual((await dify.getConversations("another-user")).data.data, []);
  const messages = (await dify.getConversationMessages("e2e-user", conversation)).data;
  assert.deepEqual(messages.data.map((m: { query: string }) => m.query), [
    "tool please",
    "history?",
  ]);
  assert.equal(messages.data[0].agent_thoughts[0].tool, "echo");
  assert.ok(messages.data[0].agent_thoughts[0].observation !== "");
  assert.equal(messages.data[1].answer, blocking.data.answer);
  assert.equal(messages.data[1].id, blocking.data.message_id, "message ids disagree");
  assert.equal(
    await refusedStatus(dify.getConversationMessages("another-user", conversation)),
    404,
  );
  const removed = await dify.deleteConversation(conversation, "e2e-user");
  assert.deepEqual(removed.data, { result: "success" });
  assert.deepEqual((await dify.getConversations("e2e-user")).data.data, [], "still listed");

  // A provider failure after the stream started: HTTP 200 and an `error` frame last.
  const failing = await dify.createChatMessage(
    {},
    "fail: invalid_request no way",
    "e2e-user",
    true,
  );
  assert.equal(failing.status, 200);
  const failed = (await readStream(failing.data)).split("\n")
    .filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)));
  assert.equal(failed.at(-1).event, "error");
  assert.equal(failed.at(-1).code, "provider_invalid_request");
  assert.equal(failed.at(-1).message, "no way");

  for (
    const [what, bearer] of [["the owner token", ownerToken], [
      "a wrong key",
      `app-${"1".repeat(40)}`,
    ]]
  ) {
    const other = new ChatClient(bearer, base);
    assert.equal(await refusedStatus(other.createChatMessage({}, "x", "e2e-user")), 401, what);
  }
  await client.call("gateway.key.revoke", { keyId: created.keyId });
  assert.equal(await refusedStatus(dify.createChatMessage({}, "x", "e2e-user")), 401, "revoked");
  const keysFile = await Deno.readTextFile(`${home.home}/gateway_keys.json`);
  assert.ok(!keysFile.includes(created.key), "the key is stored in the clear");
});

Deno.test("spawned: dify-client stops a streaming task mid-stream; the stream ends with message_end", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const created = await recording.client.call("gateway.key.create", {
    name: "stop",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "full_access" },
  });
  const dify = new ChatClient(created.key, new URL("dify/v1", server.url).href);
  const response = await dify.createChatMessage({}, "slow answer please", "u", true);
  const decoder = new TextDecoder();
  let text = "";
  let taskId: string | null = null;
  const chunks = (response.data as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  while (taskId === null) {
    const next = await chunks.next();
    if (next.done) throw new Error(`the stream ended before any data: ${text}`);
    text += decoder.decode(next.value, { stream: true });
    taskId = /"task_id":"([^"]+)"/.exec(text)?.[1] ?? null;
  }
  const wrongUser = await refusedStatus(
    dify.sendRequest("POST", `/chat-messages/${taskId}/stop`, { user: "other" }),
  );
  assert.equal(wrongUser, 404, "another user stopped the task");
  const stopped = await dify.sendRequest("POST", `/chat-messages/${taskId}/stop`, { user: "u" });
  assert.deepEqual(stopped.data, { result: "success" });
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    text += decoder.decode(next.value, { stream: true });
  }
  const data = text.split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice(6))
  );
  assert.equal(data.at(-1).event, "message_end", text.slice(-300));
  const answer = data.filter((d) => d.event === "agent_message").map((d) => d.answer).join("");
  assert.ok(answer.length > 0, "nothing streamed before the stop");
  const run = (await recording.client.call("turn.list", {
    threadId: `thread_${data[0].conversation_id.replaceAll("-", "")}`,
  })).turns[0].runs[0];
  assert.equal(run.status, "cancelled");
});

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (ch) => ch.charCodeAt(0),
);

Deno.test("spawned: a custom prefix; inputs reach the model; an uploaded image reaches it as an image part; messages page", async () => {
  await using home = await makeTempHome();
  await Deno.writeTextFile(
    `${home.home}/config.yaml`,
    "version: 1\ngateway:\n  dify_prefix: /apps/chat/v1\n",
  );
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const created = await recording.client.call("gateway.key.create", {
    name: "vision",
    profile: { providerId: "scripted", modelId: "scripted-vision", permission: "full_access" },
  });
  // The default prefix is no API any more: at most the PWA's page (its SPA fallback, when
  // app/dist is built), never Dify's parameters.
  const old = await fetch(new URL("dify/v1/parameters?user=u", server.url), {
    headers: { Authorization: `Bearer ${created.key}` },
  });
  const oldBody = await old.text();
  assert.ok(
    old.status === 404 || !oldBody.includes("user_input_form"),
    `the default prefix still answers: ${old.status} ${oldBody.slice(0, 80)}`,
  );
  const dify = new ChatClient(created.key, new URL("apps/chat/v1", server.url).href);
  const parameters = await dify.getApplicationParameters("u");
  assert.equal(parameters.status, 200);
  assert.deepEqual(parameters.data.file_upload.image.transfer_methods, ["local_file"]);

  const withInputs = await dify.createChatMessage({ city: "Paris", days: 3 }, "plan", "u", false);
  assert.equal(withInputs.data.answer, 'Answer to: Inputs: {"city":"Paris","days":3}\n\nplan');
  const [listed] = (await dify.getConversationMessages("u", withInputs.data.conversation_id))
    .data.data;
  assert.deepEqual(listed.inputs, { city: "Paris", days: 3 }, "the inputs were not given back");
  assert.equal(listed.query, "plan");
  assert.equal(
    await refusedStatus(dify.createChatMessage({ city: { nested: 1 } }, "plan", "u", false)),
    400,
    "an object input was accepted",
  );

  // dify-client's own upload call: multipart with `file` and `user`.
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), "dot.png");
  form.append("user", "u");
  const uploaded = await dify.fileUpload(form);
  assert.equal(uploaded.status, 201);
  assert.equal(uploaded.data.mime_type, "image/png");
  assert.equal(uploaded.data.size, PNG.byteLength);
  // dify-client's d.ts types `files` as DOM Files; it sends them as given (Dify's JSON shape).
  const file = {
    type: "image",
    transfer_method: "local_file",
    upload_file_id: uploaded.data.id,
  } as unknown as File;
  const seen = await dify.createChatMessage({}, "attachments?", "u", false, null, [file]);
  assert.equal(seen.data.answer, "images: 1", "the image did not reach the model as a part");
  assert.equal(
    await refusedStatus(dify.createChatMessage({}, "attachments?", "other", false, null, [file])),
    400,
    "another user's upload was used",
  );
  const remote = {
    type: "image",
    transfer_method: "remote_url",
    url: `${server.url}x.png`,
  } as unknown as File;
  assert.equal(
    await refusedStatus(dify.createChatMessage({}, "attachments?", "u", false, null, [remote])),
    400,
    "a remote_url file was fetched",
  );
  // Messages page back through one conversation as dify-client asks for them (another
  // key: each key has its own rate limit burst).
  const paging = await recording.client.call("gateway.key.create", {
    name: "pages",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "full_access" },
  });
  const pager = new ChatClient(paging.key, new URL("apps/chat/v1", server.url).href);
  const first = await pager.createChatMessage({}, "one", "u", false);
  const conversation = first.data.conversation_id;
  await pager.createChatMessage({}, "two", "u", false, conversation);
  await pager.createChatMessage({}, "three", "u", false, conversation);
  const newest = (await pager.getConversationMessages("u", conversation, null, 2)).data;
  assert.deepEqual(newest.data.map((m: { query: string }) => m.query), ["two", "three"]);
  assert.equal(newest.has_more, true);
  assert.equal(newest.limit, 2);
  const older = (await pager.getConversationMessages("u", conversation, newest.data[0].id, 2)).data;
  assert.deepEqual(older.data.map((m: { query: string }) => m.query), ["one"]);
  assert.equal(older.has_more, false);
  assert.equal(
    await refusedStatus(pager.getConversationMessages("u", conversation, crypto.randomUUID(), 2)),
    404,
    "an unknown first_id was answered",
  );
});

Deno.test("spawned: per-key CORS on the shipped runtime: preflight and grant only for the key's origin", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const page = "http://127.0.0.1:5999";
  const created = await recording.client.call("gateway.key.create", {
    name: "web",
    profile: {
      providerId: "scripted",
      modelId: "scripted-model",
      permission: "full_access",
      allowedOrigins: [page],
    },
  });
  const url = new URL("dify/v1/parameters?user=u", server.url);
  for (const [origin, granted] of [[page, true], ["http://127.0.0.1:6001", false]] as const) {
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.headers.get("access-control-allow-origin"), granted ? origin : null);
    const real = await fetch(url, {
      headers: { Origin: origin, Authorization: `Bearer ${created.key}` },
    });
    assert.equal(real.status, 200, origin);
    await real.body?.cancel();
    assert.equal(real.headers.get("access-control-allow-origin"), granted ? origin : null);
  }
  const agUi = await fetch(new URL("ag-ui", server.url), {
    method: "OPTIONS",
    headers: { Origin: page, "Access-Control-Request-Method": "POST" },
  });
  await agUi.body?.cancel();
  assert.equal(agUi.headers.get("access-control-allow-origin"), page, "AG-UI has no preflight");
});

Deno.test("spawned: a task waiting for approval can be stopped after a restart", async () => {
  await using home = await makeTempHome();
  let server = await startFixture(home);
  let recording = await openClient(server.url, await server.token());
  const created = await recording.client.call("gateway.key.create", {
    name: "ask",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "ask" },
  });
  let dify = new ChatClient(created.key, new URL("dify/v1", server.url).href);
  // `ask` asks the owner before a command: the run waits for the approval.
  const waiting = await dify.createChatMessage(
    {},
    `call: process_start ${JSON.stringify({ command: "touch approved.txt" })}`,
    "u",
    false,
  );
  assert.equal(waiting.status, 200);
  assert.equal(waiting.data.event, "message", "a blocking answer that waits is a message");
  assert.equal(waiting.data.metadata.waiting?.reason, "approval_required", "the wait is unnamed");
  assert.match(waiting.data.metadata.waiting?.interrupt_id ?? "", /^appr/);
  const taskId = waiting.data.task_id as string;
  const threadId = `thread_${waiting.data.conversation_id.replaceAll("-", "")}`;
  const port = server.port;
  await recording[Symbol.asyncDispose]();
  await server[Symbol.asyncDispose]();
  server = await startFixture(home, {}, port);
  try {
    recording = await openClient(server.url, await server.token());
    dify = new ChatClient(created.key, new URL("dify/v1", server.url).href);
    const before = (await recording.client.call("turn.list", { threadId })).turns[0].runs[0];
    assert.equal(before.status, "waiting", "the run did not wait across the restart");
    assert.equal(
      await refusedStatus(
        dify.sendRequest("POST", `/chat-messages/${taskId}/stop`, { user: "other" }),
      ),
      404,
    );
    const stopped = await dify.sendRequest("POST", `/chat-messages/${taskId}/stop`, { user: "u" });
    assert.deepEqual(stopped.data, { result: "success" });
    let status = "";
    for (let i = 0; i < 50 && status !== "cancelled"; i++) {
      status = (await recording.client.call("turn.list", { threadId })).turns[0].runs[0].status;
      if (status !== "cancelled") await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, "cancelled");
  } finally {
    await recording[Symbol.asyncDispose]();
    await server[Symbol.asyncDispose]();
  }
});

Deno.test("spawned: a key limited to some tools cannot reach another one by its name", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const created = await recording.client.call("gateway.key.create", {
    name: "read only tools",
    profile: {
      providerId: "scripted",
      modelId: "scripted-model",
      permission: "full_access",
      tools: ["read"],
    },
  });
  const dify = new ChatClient(created.key, new URL("dify/v1", server.url).href);
  // The scripted model calls `echo` whatever it is offered.
  const streamed = await dify.createChatMessage({}, "tool please", "e2e-user", true);
  const data = (await readStream(streamed.data)).split("\n")
    .filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)));
  const thought = data.filter((d) => d.event === "agent_thought").at(-1);
  assert.equal(thought?.tool, "echo");
  assert.match(thought.observation, /Unknown tool "echo"/, "the key's tool limit was not kept");
  assert.equal(data.at(-1).event, "message_end");
});
