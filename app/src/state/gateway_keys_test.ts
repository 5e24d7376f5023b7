import assert from "node:assert/strict";
import type { GatewayKey } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  createGatewayKey,
  dismissCreatedKey,
  emptyGatewayKeys,
  gatewayKeysView,
  loadGatewayKeys,
  revokeGatewayKey,
} from "./gateway_keys.ts";

const key = (n: number, revokedAt: string | null = null): GatewayKey => ({
  keyId: `gwkey_${String(n).repeat(32).slice(0, 32)}`,
  name: `key ${n}`,
  profile: { providerId: "p", modelId: "m", permission: "ask" },
  hint: `app-${n}${n}${n}${n}`,
  createdAt: "2026-12-01T10:00:00.000Z",
  lastUsedAt: null,
  revokedAt,
});

const params = {
  name: "key 2",
  profile: { providerId: "p", modelId: "m", permission: "ask" as const },
};

Deno.test("gateway keys: loads the list; a failure keeps its reason code", async () => {
  gatewayKeysView.value = emptyGatewayKeys();
  await loadGatewayKeys(fakeCall({ "gateway.key.list": () => ({ keys: [key(1)] }) }).call);
  assert.deepEqual(gatewayKeysView.value.keys.map((k) => k.name), ["key 1"]);
  assert.equal(gatewayKeysView.value.status, "ready");
  await loadGatewayKeys(
    fakeCall({
      "gateway.key.list": () => {
        throw rpcFailure("internal_error", "disk");
      },
    }).call,
  );
  assert.equal(gatewayKeysView.value.status, "failed");
  assert.deepEqual(gatewayKeysView.value.error, { code: "internal_error", message: "disk" });
  assert.deepEqual(gatewayKeysView.value.keys.map((k) => k.name), ["key 1"], "list dropped");
});

Deno.test("gateway keys: a created key is shown once, listed first, and dismissed", async () => {
  gatewayKeysView.value = { ...emptyGatewayKeys(), keys: [key(1)] };
  const secret = `app-${"9".repeat(40)}`;
  const fake = fakeCall({
    "gateway.key.create": () => ({ keyId: key(2).keyId, key: secret, gatewayKey: key(2) }),
    "gateway.key.list": () => ({ keys: [key(2), key(1)] }),
  });
  assert.equal(await createGatewayKey(params, fake.call), true);
  assert.deepEqual(gatewayKeysView.value.created, {
    keyId: key(2).keyId,
    name: "key 2",
    key: secret,
  });
  assert.deepEqual(gatewayKeysView.value.keys.map((k) => k.name), ["key 2", "key 1"]);
  assert.deepEqual(fake.calls[0], { method: "gateway.key.create", params });
  dismissCreatedKey();
  assert.equal(gatewayKeysView.value.created, null, "the key stayed on screen");
});

Deno.test("gateway keys: a refused create shows the reason and makes nothing", async () => {
  gatewayKeysView.value = emptyGatewayKeys();
  const fake = fakeCall({
    "gateway.key.create": () => {
      throw rpcFailure("tool_not_found", "The runtime has no tool nope");
    },
  });
  assert.equal(await createGatewayKey(params, fake.call), false);
  assert.equal(gatewayKeysView.value.error?.code, "tool_not_found");
  assert.equal(gatewayKeysView.value.created, null);
  assert.equal(gatewayKeysView.value.creating, false);
});

Deno.test("gateway keys: revoke shows the runtime's row and hides the key shown once", async () => {
  const revoked = key(1, "2026-12-01T11:00:00.000Z");
  gatewayKeysView.value = {
    ...emptyGatewayKeys(),
    keys: [key(2), key(1)],
    created: { keyId: key(1).keyId, name: "key 1", key: "app-x" },
  };
  const fake = fakeCall({
    "gateway.key.revoke": () => ({ gatewayKey: revoked, changed: true }),
  });
  assert.equal(await revokeGatewayKey(key(1).keyId, fake.call), true);
  assert.deepEqual(gatewayKeysView.value.keys.map((k) => k.revokedAt), [null, revoked.revokedAt]);
  assert.equal(gatewayKeysView.value.created, null, "a revoked key is still offered to copy");
  assert.equal(gatewayKeysView.value.revoking.size, 0);
  const failing = fakeCall({
    "gateway.key.revoke": () => {
      throw rpcFailure("gateway_key_not_found", "gone");
    },
  });
  assert.equal(await revokeGatewayKey(key(2).keyId, failing.call), false);
  assert.equal(gatewayKeysView.value.error?.code, "gateway_key_not_found");
  assert.equal(gatewayKeysView.value.keys[0].revokedAt, null, "a refused revoke changed the row");
});
