import assert from "node:assert/strict";
import { RpcError } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { createGatewayThread, gatewayCall } from "../gateway/gateway_calls.ts";
import { assertSourceAllowed } from "./thread_source_guard.ts";
import type { RpcSession } from "../server/dispatcher.ts";

const SOURCE = { kind: "gateway", keyId: `gwkey_${"1a".repeat(16)}`, keyName: "Forged" } as const;

const reasonOf = (error: unknown) => error instanceof RpcError ? error.data.reasonCode : error;

Deno.test("assertSourceAllowed: a source only from the gateway's session", () => {
  const cases: Array<[string, typeof SOURCE | undefined, RpcSession | undefined, boolean]> = [
    ["no source, a WebSocket client", undefined, { id: "ws_1", transport: "websocket" }, true],
    ["no source, no session", undefined, undefined, true],
    ["a source, the gateway", SOURCE, { id: "gateway", transport: "http" }, true],
    ["a source, a WebSocket client", SOURCE, { id: "ws_1", transport: "websocket" }, false],
    ["a source, an HTTP client", SOURCE, { id: "http_1", transport: "http" }, false],
    [
      "a source, a WebSocket id named gateway",
      SOURCE,
      { id: "ws_gateway", transport: "http" },
      false,
    ],
    ["a source, no session", SOURCE, undefined, false],
  ];
  for (const [name, source, session, allowed] of cases) {
    let refusal: unknown = null;
    try {
      assertSourceAllowed(source, session);
    } catch (error) {
      refusal = reasonOf(error);
    }
    assert.equal(refusal, allowed ? null : "thread_source_reserved", name);
  }
});

Deno.test("thread.create: a client's source is refused and stores nothing; the gateway's is kept after revoke", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-thread-source-" });
  const provider = createScriptedProvider({ script: [] });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider],
    threadTitles: false,
    memoryRefinement: false,
  });
  try {
    const call = dispatchOn(core);
    for (const transport of ["websocket", "http"] as const) {
      const refused = await core.dispatcher.dispatch(
        "thread.create",
        { source: SOURCE },
        { id: `${transport}_client`, transport },
      ).then(() => null, (error) => error);
      assert.equal(refused?.code, -32602, `a ${transport} client's source must be refused`);
      assert.equal(reasonOf(refused), "thread_source_reserved");
    }
    assert.deepEqual((await call("thread.list", {})).threads, [], "a refused create stored");

    const profile = { providerId: provider.id, modelId: provider.models[0], permission: "ask" };
    const { keyId } = await call("gateway.key.create", { name: "Dify app", profile });
    const key = (await call("gateway.key.list", {})).keys[0];
    const threadId = await createGatewayThread(gatewayCall(core.dispatcher), key);
    const expected = { kind: "gateway", keyId, keyName: "Dify app" };
    assert.deepEqual((await call("thread.get", { threadId })).thread.source, expected);

    const own = (await call("thread.create", {})).thread;
    assert.equal(own.source, null, "the owner's thread has a null source");

    await call("gateway.key.revoke", { keyId });
    const listed = (await call("thread.list", {})).threads;
    assert.deepEqual(
      listed.map((t: { id: string; source: unknown }) => [t.id, t.source]),
      [[own.id, null], [threadId, expected]],
      "a revoked key's thread must keep showing its name",
    );
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
