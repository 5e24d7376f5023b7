/**
 * The gateway's AG-UI endpoint on the shipped runtime (scripted fixture model, the shipped
 * flags), driven by the real `@ag-ui/client` HttpAgent: a text answer, a server-side tool
 * call with its result, an abort that cancels the run; the owner token is refused (401)
 * and a body that is no RunAgentInput is 422.
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
