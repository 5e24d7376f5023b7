import assert from "node:assert/strict";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { GatewayKeyStore } from "./key_store.ts";

Deno.test("gateway.key.* over RPC: create, list, revoke; keys persist and become protected", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-gateway-" });
  const provider = createScriptedProvider({ script: [] });
  const open = () =>
    openRuntimeCore({
      home,
      workspacesRoot: `${home}/workspaces`,
      providers: [provider],
      threadTitles: false,
      memoryRefinement: false,
    });
  const core = await open();
  let key: string;
  let keyId: string;
  try {
    const call = dispatchOn(core);
    const profile = { providerId: provider.id, modelId: provider.models[0], permission: "ask" };
    const created = await call("gateway.key.create", { name: "Dify front end", profile });
    ({ key, keyId } = created);
    assert.match(key, /^app-[0-9a-f]{40}$/);
    assert.ok(core.gateway.keys.authenticate(key).ok, "the runtime's store does not know the key");
    assert.equal(core.protectedValues.redact(`key ${key}`).includes(key), false, "not protected");
    const wrong = await core.dispatcher.dispatch(
      "gateway.key.create",
      { name: "x", profile: { ...profile, providerId: "nope" } },
      { id: "t", transport: "http" },
    ).then(() => null, (error) => error);
    assert.equal(wrong?.data?.reasonCode, "model_not_configured");
    const { keys } = await call("gateway.key.list", {});
    assert.deepEqual(keys.map((k: { name: string }) => k.name), ["Dify front end"]);
    const revoked = await call("gateway.key.revoke", { keyId });
    assert.equal(revoked.changed, true);
  } finally {
    await core.close();
  }
  const file = await Deno.readTextFile(`${home}/gateway_keys.json`);
  assert.ok(!file.includes(key), "the key file holds the key");
  const reopened = await GatewayKeyStore.open(`${home}/gateway_keys.json`);
  assert.deepEqual(reopened.authenticate(key), { ok: false, reason: "revoked" });
  await Deno.remove(home, { recursive: true });
});
