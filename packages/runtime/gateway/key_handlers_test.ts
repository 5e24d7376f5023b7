import assert from "node:assert/strict";
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import { createGatewayKeyHandlers } from "./key_handlers.ts";
import { GatewayKeyStore } from "./key_store.ts";
import { KeyRateLimiter } from "./rate_limiter.ts";

async function setup() {
  const dir = await Deno.makeTempDir();
  const keys = await GatewayKeyStore.open(`${dir}/gateway_keys.json`);
  const protectedKeys: string[] = [];
  const limiter = new KeyRateLimiter({ perMinute: 1, burst: 1, now: () => 0 });
  const handlers = createGatewayKeyHandlers({
    keys,
    limiter,
    resolveModel: (providerId, modelId) => {
      if (providerId !== "p" || modelId !== "m") {
        throw new RpcError(RPC_ERROR_CODES.invalidParams, "model_not_configured", "no", {
          field: "modelId",
        });
      }
    },
    toolNames: () => ["read_file", "run_command"],
    assertSafe: (value, field) => {
      if (String(value).includes("sk-secret")) {
        throw new RpcError(RPC_ERROR_CODES.invalidParams, "protected_value", "no", { field });
      }
    },
    protect: (value) => protectedKeys.push(value),
  });
  return { dir, keys, handlers, protectedKeys, limiter };
}

const profile = { providerId: "p", modelId: "m", permission: "read_only" as const };

function reason(code: string) {
  return (error: unknown) => error instanceof RpcError && error.data.reasonCode === code;
}

Deno.test("gateway.key.create answers the key once and protects it only after the answer", async () => {
  const { handlers, protectedKeys, keys } = await setup();
  const created = await handlers["gateway.key.create"]({ name: "Dify", profile });
  assert.equal(created.result.keyId, created.result.gatewayKey.keyId);
  assert.deepEqual(
    protectedKeys,
    [],
    "protected before the answer was sent (it would be redacted)",
  );
  created.afterResponse?.();
  assert.deepEqual(protectedKeys, [created.result.key]);
  const listed = await handlers["gateway.key.list"]({});
  assert.deepEqual(listed.result.keys, [created.result.gatewayKey]);
  assert.ok(!JSON.stringify(listed.result).includes(created.result.key), "list shows the key");
  assert.ok(keys.authenticate(created.result.key).ok);
});

Deno.test("gateway.key.create refuses a profile no run could honour, storing nothing", async () => {
  const { handlers, keys, dir } = await setup();
  const cases: [string, Record<string, unknown>, string][] = [
    ["an unknown model", { profile: { ...profile, modelId: "x" } }, "model_not_configured"],
    ["an unknown other model", {
      profile: { ...profile, models: [{ providerId: profile.providerId, modelId: "x" }] },
    }, "model_not_configured"],
    ["an unknown tool", { profile: { ...profile, tools: ["read_file", "x"] } }, "tool_not_found"],
    [
      "a relative workspace",
      { profile: { ...profile, workspace: "rel" } },
      "workspace_unavailable",
    ],
    [
      "a missing workspace",
      { profile: { ...profile, workspace: `${dir}/none` } },
      "workspace_unavailable",
    ],
    ["a credential in the name", { name: "sk-secret" }, "protected_value"],
  ];
  for (const [what, change, code] of cases) {
    await assert.rejects(
      () => handlers["gateway.key.create"]({ name: "k", profile, ...change }),
      reason(code),
      what,
    );
  }
  assert.deepEqual(keys.list(), []);
  const ok = await handlers["gateway.key.create"]({
    name: "k",
    profile: { ...profile, workspace: dir, tools: ["read_file"] },
  });
  assert.deepEqual(ok.result.gatewayKey.profile.tools, ["read_file"]);
});

Deno.test("gateway.key.revoke refuses the key from then on and resets its rate limit", async () => {
  const { handlers, keys, limiter } = await setup();
  const { result } = await handlers["gateway.key.create"]({ name: "k", profile });
  assert.equal(limiter.take(result.keyId).ok, true);
  assert.equal(limiter.take(result.keyId).ok, false);
  const revoked = await handlers["gateway.key.revoke"]({ keyId: result.keyId });
  assert.equal(revoked.result.changed, true);
  assert.deepEqual(keys.authenticate(result.key), { ok: false, reason: "revoked" });
  assert.equal(limiter.take(result.keyId).ok, true, "the revoked key's bucket was kept");
  await assert.rejects(
    () => handlers["gateway.key.revoke"]({ keyId: "gwkey_0123456789abcdef0123456789abcdef" }),
    reason("gateway_key_not_found"),
  );
});
