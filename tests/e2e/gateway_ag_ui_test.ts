/**
 * The gateway's AG-UI endpoint on the shipped runtime (scripted fixture model, the shipped
 * flags), driven by the real `@ag-ui/client` HttpAgent: a text answer, a server-side tool
 * call with its result, an abort that cancels the run, a client-side tool round trip, an
 * approval interrupt answered with a `resume` entry; the owner token is refused (401) and
 * a body that is no RunAgentInput is 422.
 *
 * @module
 */
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient } from "./_clients.ts";

Deno.test("spawned: HttpAgent runs text and a server-side tool call through /ag-ui; abort cancels", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const ownerToken = await server.token();
  await using recording = await openClient(server.url, ownerToken);
  const { key } = await recording.client.call("gateway.key.create", {
    name: "ag-ui",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "full_access" },
  });
  const url = new URL("ag-ui", server.url).href;
  const agent = () =>
    new HttpAgent({ url, headers: { Authorization: `Bearer ${key}` }, threadId: "client-thread" });

  const tool = agent();
  tool.addMessage({ id: "u1", role: "user", content: "tool please" });
  const types: string[] = [];
  const result = await tool.runAgent({ runId: "run-1" }, {
    onEvent: ({ event }) => {
      types.push(event.type);
    },
  });
  assert.equal(types[0], "RUN_STARTED");
  assert.equal(types.at(-1), "RUN_FINISHED");
  for (const type of ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"]) {
    assert.ok(types.includes(type), `${type} missing: ${types.join(",")}`);
  }
  const roles = result.newMessages.map((m) => m.role);
  assert.ok(roles.includes("tool"), roles.join(","));
  const withCall = result.newMessages.find((m) => m.role === "assistant" && m.toolCalls?.length);
  assert.equal(withCall?.role === "assistant" && withCall.toolCalls?.[0].function.name, "echo");

  // The same client thread continues the same Daedalus thread.
  tool.addMessage({ id: "u2", role: "user", content: "history?" });
  const again = await tool.runAgent({ runId: "run-2" });
  const answer = again.newMessages.filter((m) => m.role === "assistant").map((m) => m.content)
    .join("");
  assert.match(answer, /tool please \| history\?/, "the thread lost its history");

  // A provider failure is RUN_ERROR with the provider's words; HttpAgent resolves.
  const failing = agent();
  failing.addMessage({
    id: "u9",
    role: "user",
    content: "fail: invalid_request the model refused",
  });
  const errors: { message: string; code?: string }[] = [];
  await failing.runAgent({ runId: "run-9" }, {
    onRunErrorEvent: ({ event }) => {
      errors.push({ message: event.message, code: event.code });
    },
  });
  assert.deepEqual(errors, [{ message: "the model refused", code: "provider_invalid_request" }]);

  const slow = agent();
  slow.addMessage({ id: "u3", role: "user", content: "slow answer please" });
  let aborted = false;
  await slow.runAgent({ runId: "run-3" }, {
    onTextMessageContentEvent: () => {
      if (!aborted) {
        aborted = true;
        slow.abortRun();
      }
    },
  }).catch(() => {});
  assert.ok(aborted, "no text arrived before the abort");
  const threads = (await recording.client.call("thread.list", {})).threads;
  const settled = await recording.waitForEvent(
    "the aborted run to settle",
    (event) => event.type === "run.settled" && event.payload.status === "cancelled",
  );
  assert.ok(threads.some((t: { id: string }) => t.id === settled.threadId));

  const post = (body: unknown, bearer: string) =>
    fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const owner = await post({ threadId: "t", runId: "r", messages: [] }, ownerToken);
  assert.equal(owner.status, 401);
  await owner.body?.cancel();
  const bad = await post({ threadId: "t", messages: "nope" }, key);
  assert.equal(bad.status, 422);
  assert.ok(Array.isArray((await bad.json()).issues));
});

Deno.test("spawned: HttpAgent's client-side tool: the call ends the run pending, its result continues it", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { key } = await recording.client.call("gateway.key.create", {
    name: "front end",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "full_access" },
  });
  const agent = new HttpAgent({
    url: new URL("ag-ui", server.url).href,
    headers: { Authorization: `Bearer ${key}` },
    threadId: "client-tools",
  });
  const tools = [{
    name: "get_weather",
    description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  }];
  agent.addMessage({ id: "u1", role: "user", content: 'call: get_weather {"city":"Paris"}' });
  const types: string[] = [];
  let outcome: unknown;
  const first = await agent.runAgent({ runId: "run-1", tools }, {
    onEvent: ({ event }) => {
      types.push(event.type);
    },
    onRunFinishedEvent: ({ event }) => {
      outcome = (event as { outcome?: unknown }).outcome;
    },
  });
  assert.ok(!types.includes("TOOL_CALL_RESULT"), `the client's call got a result: ${types}`);
  assert.equal(types.at(-1), "RUN_FINISHED");
  const asked = first.newMessages.find((m) => m.role === "assistant" && m.toolCalls?.length);
  const toolCall = asked?.role === "assistant" ? asked.toolCalls?.[0] : undefined;
  assert.equal(toolCall?.function.name, "get_weather");
  assert.deepEqual(JSON.parse(toolCall!.function.arguments), { city: "Paris" });
  assert.deepEqual(outcome, { type: "success", pendingToolCallIds: [toolCall!.id] });

  // The app runs the tool and hands its result in: the same Run goes on with it.
  agent.addMessage({
    id: "t1",
    role: "tool",
    toolCallId: toolCall!.id,
    content: '{"tempC":21}',
  });
  const second = await agent.runAgent({ runId: "run-2", tools });
  const answer = second.newMessages.filter((m) => m.role === "assistant").map((m) => m.content)
    .join("");
  assert.match(answer, /Result: \{"tempC":21\}/, "the client's result did not reach the model");
  const { threads } = await recording.client.call("thread.list", {});
  assert.equal(threads.length, 1, "the continuation made another thread");
  const turns = (await recording.client.call("turn.list", { threadId: threads[0].id })).turns;
  assert.equal(turns.length, 1, "the result started another turn instead of continuing");
  assert.equal(turns[0].runs.length, 1);
  assert.equal(turns[0].runs[0].status, "completed");

  // Results for a call nobody waits for are refused, and nothing starts.
  agent.addMessage({ id: "t2", role: "tool", toolCallId: "item_" + "0".repeat(32), content: "x" });
  let refused = "";
  await agent.runAgent({ runId: "run-3", tools }).catch((error: Error) => {
    refused = error.message;
  });
  assert.match(refused, /409|No run of this thread waits/, refused);
});

Deno.test("spawned: an approval wait ends the AG-UI run as an interrupt; a resume entry answers it", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { key } = await recording.client.call("gateway.key.create", {
    name: "asks",
    profile: { providerId: "scripted", modelId: "scripted-model", permission: "ask" },
  });
  const agent = new HttpAgent({
    url: new URL("ag-ui", server.url).href,
    headers: { Authorization: `Bearer ${key}` },
    threadId: "approvals",
  });
  agent.addMessage({
    id: "u1",
    role: "user",
    content: `call: process_start ${JSON.stringify({ command: "echo approved" })}`,
  });
  let outcome: { type?: string; interrupts?: { id: string; reason: string }[] } = {};
  await agent.runAgent({ runId: "run-1" }, {
    onRunFinishedEvent: ({ event }) => {
      outcome = (event as { outcome?: typeof outcome }).outcome ?? {};
    },
  });
  assert.equal(outcome.type, "interrupt", JSON.stringify(outcome));
  const [interrupt] = outcome.interrupts ?? [];
  assert.equal(interrupt?.reason, "approval");
  assert.match(interrupt!.id, /^approval_/);

  const second = await agent.runAgent({
    runId: "run-2",
    resume: [{
      interruptId: interrupt!.id,
      status: "resolved",
      payload: { decision: "allow_once" },
    }],
  });
  const answer = second.newMessages.filter((m) => m.role === "assistant").map((m) => m.content)
    .join("");
  assert.match(answer, /Result: Started process_/, "the allowed Run did not go on");
  const { approvals } = await recording.client.call("approval.list", {});
  assert.equal(
    approvals.find((a: { approvalId: string }) => a.approvalId === interrupt!.id)?.decision,
    "allow_once",
  );
});

Deno.test("spawned: forwardedProps.model picks a model the key allows; another is refused (422)", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { key } = await recording.client.call("gateway.key.create", {
    name: "two models",
    profile: {
      providerId: "scripted",
      modelId: "scripted-model",
      permission: "read_only",
      models: [{ providerId: "scripted", modelId: "scripted-vision" }],
    },
  });
  const agent = () =>
    new HttpAgent({
      url: new URL("ag-ui", server.url).href,
      headers: { Authorization: `Bearer ${key}` },
      threadId: "models",
    });
  // The fixture's "fallback?" message fails on scripted-model and names any other model.
  const chosen = agent();
  chosen.addMessage({ id: "u1", role: "user", content: "fallback? invalid_request no" });
  const result = await chosen.runAgent({
    runId: "run-1",
    forwardedProps: { model: "scripted/scripted-vision" },
  });
  const answer = result.newMessages.filter((m) => m.role === "assistant").map((m) => m.content)
    .join("");
  assert.equal(answer, "Answered by scripted-vision");

  const refused = agent();
  refused.addMessage({ id: "u2", role: "user", content: "hello" });
  let said = "";
  await refused.runAgent({ runId: "run-2", forwardedProps: { model: "scripted/elsewhere" } })
    .catch((error: Error) => {
      said = error.message;
    });
  assert.match(said, /422.*does not allow/, said);
});

Deno.test("spawned: /ag-ui/:agent binds the client's thread to that agent profile; a key's agentId binds its Dify threads", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const { key } = await client.call("gateway.key.create", {
    name: "planner",
    profile: {
      providerId: "scripted",
      modelId: "scripted-model",
      permission: "read_only",
      agentId: "plan",
    },
  });
  const agentAt = (path: string) =>
    new HttpAgent({
      url: new URL(path, server.url).href,
      headers: { Authorization: `Bearer ${key}` },
      threadId: "shared-id",
    });
  const explore = agentAt("ag-ui/explore");
  explore.addMessage({ id: "u1", role: "user", content: "hello" });
  await explore.runAgent({ runId: "run-1" });
  const plain = agentAt("ag-ui");
  plain.addMessage({ id: "u2", role: "user", content: "hello" });
  await plain.runAgent({ runId: "run-2" });
  const { threads } = await client.call("thread.list", {});
  const agents = threads.map((t: { agentId?: string | null }) => t.agentId).sort();
  assert.deepEqual(
    agents,
    ["explore", "plan"],
    "the path's agent and the key's agent make two threads for one client thread id",
  );

  const unknown = await fetch(new URL("ag-ui/nobody", server.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      threadId: "t",
      runId: "r",
      messages: [{ id: "u", role: "user", content: "hi" }],
    }),
  });
  assert.equal(unknown.status, 400);
  assert.equal((await unknown.json()).code, "agent_not_found");
  await assert.rejects(
    client.call("gateway.key.create", {
      name: "nobody",
      profile: {
        providerId: "scripted",
        modelId: "scripted-model",
        permission: "read_only",
        agentId: "nobody",
      },
    }),
    /nobody/,
    "a key naming an unknown agent is refused",
  );
});
