import assert from "node:assert/strict";
import type { GatewayKeyProfile } from "@daedalus/protocol";
import { APP_KEY_PATTERN, GatewayKeyError, GatewayKeyStore } from "./key_store.ts";

const PROFILE: GatewayKeyProfile = { providerId: "p", modelId: "m", permission: "read_only" };

async function tempPath(): Promise<string> {
  return `${await Deno.makeTempDir()}/gateway_keys.json`;
}

Deno.test("a created key is shown once, stored hashed, and authenticates", async () => {
  const path = await tempPath();
  let now = Date.parse("2026-12-02T03:00:00.000Z");
  const keys = await GatewayKeyStore.open(path, { now: () => now });
  const { key, gatewayKey } = await keys.create("Dify", PROFILE);
  assert.match(key, APP_KEY_PATTERN);
  assert.equal(gatewayKey.hint, key.slice(0, 8));
  assert.equal(gatewayKey.lastUsedAt, null);
  const file = await Deno.readTextFile(path);
  assert.ok(!file.includes(key), "the file holds the key itself");
  assert.ok(!file.includes(key.slice(8)), "the file holds the key's secret part");
  if (Deno.build.os !== "windows") assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  now += 1000;
  const checked = keys.authenticate(key);
  assert.ok(checked.ok, "a fresh key is refused");
  assert.equal(checked.gatewayKey.lastUsedAt, "2026-12-02T03:00:01.000Z");
  assert.deepEqual(keys.list().map((k) => k.keyId), [gatewayKey.keyId]);
  assert.ok(!JSON.stringify(keys.list()).includes("sha256"), "list shows the hash");
});

Deno.test("wrong, malformed and revoked keys are refused with their reason", async () => {
  const path = await tempPath();
  const keys = await GatewayKeyStore.open(path);
  const { key, gatewayKey } = await keys.create("a", PROFILE);
  const other = `app-${"0".repeat(40)}`;
  assert.deepEqual(keys.authenticate(other), { ok: false, reason: "unknown" });
  for (const bad of ["", "app-", key.toUpperCase(), `${key}0`, key.slice(4), "sk-123"]) {
    assert.deepEqual(keys.authenticate(bad), { ok: false, reason: "malformed" }, bad);
  }
  const revoked = await keys.revoke(gatewayKey.keyId);
  assert.equal(revoked.changed, true);
  assert.ok(revoked.gatewayKey.revokedAt !== null);
  assert.deepEqual(keys.authenticate(key), { ok: false, reason: "revoked" });
  assert.equal((await keys.revoke(gatewayKey.keyId)).changed, false, "revoking twice changes");
  await assert.rejects(
    () => keys.revoke("gwkey_0123456789abcdef0123456789abcdef"),
    (e) => e instanceof GatewayKeyError && e.code === "gateway_key_not_found",
  );
});

Deno.test("keys survive a reopen; concurrent changes all reach the file", async () => {
  const path = await tempPath();
  const keys = await GatewayKeyStore.open(path);
  const made = await Promise.all(["a", "b", "c"].map((name) => keys.create(name, PROFILE)));
  await Promise.all([keys.revoke(made[0].gatewayKey.keyId), keys.create("d", PROFILE)]);
  await keys.flush();
  const reopened = await GatewayKeyStore.open(path);
  assert.deepEqual(
    reopened.list().map((k) => k.name).sort(),
    ["a", "b", "c", "d"],
  );
  assert.deepEqual(reopened.authenticate(made[0].key), { ok: false, reason: "revoked" });
  assert.ok(reopened.authenticate(made[1].key).ok, "a key is refused after a reopen");
});

Deno.test("a broken keys file is refused with gateway_keys_invalid, naming the place", async () => {
  const cases: [string, string, RegExp][] = [
    ["not JSON", "{", /not JSON/],
    ["a wrong version", '{"version":2,"keys":[]}', /version/],
    ["a key without hash", '{"version":1,"keys":[{"keyId":"x"}]}', /keys\.0\.sha256/],
    [
      "a key with a bad id",
      JSON.stringify({ version: 1, keys: [{ keyId: "x", sha256: "0".repeat(64) }] }),
      /keys\.0\.keyId/,
    ],
  ];
  for (const [what, content, message] of cases) {
    const path = await tempPath();
    await Deno.writeTextFile(path, content);
    await assert.rejects(
      () => GatewayKeyStore.open(path),
      (e) =>
        e instanceof GatewayKeyError && e.code === "gateway_keys_invalid" &&
        message.test(e.message),
      what,
    );
  }
});

Deno.test("a missing file is an empty store, written on the first change", async () => {
  const path = await tempPath();
  const keys = await GatewayKeyStore.open(path);
  assert.deepEqual(keys.list(), []);
  await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
  await keys.create("x", PROFILE);
  assert.ok((await Deno.stat(path)).isFile);
});

Deno.test("lastUsedAt reaches the file at most once a minute", async () => {
  const path = await tempPath();
  let now = 0;
  const keys = await GatewayKeyStore.open(path, { now: () => now });
  const { key } = await keys.create("x", PROFILE);
  now = 120_000;
  keys.authenticate(key);
  await keys.flush();
  const first = (await GatewayKeyStore.open(path)).list()[0].lastUsedAt;
  assert.equal(first, new Date(120_000).toISOString());
  now = 150_000;
  keys.authenticate(key);
  await keys.flush();
  assert.equal((await GatewayKeyStore.open(path)).list()[0].lastUsedAt, first, "written again");
  assert.equal(keys.list()[0].lastUsedAt, new Date(150_000).toISOString(), "memory is stale");
});
