import assert from "node:assert/strict";
import { Hono } from "hono";
import { type GatewayEnv, gatewayKeyAuth, UNAUTHORIZED_MESSAGES } from "./key_auth.ts";
import { GatewayKeyStore } from "./key_store.ts";
import { KeyRateLimiter } from "./rate_limiter.ts";

async function setup(burst = 5) {
  const keys = await GatewayKeyStore.open(`${await Deno.makeTempDir()}/gateway_keys.json`);
  const made = await keys.create("app", { providerId: "p", modelId: "m", permission: "ask" });
  const accepted: string[] = [];
  const app = new Hono<GatewayEnv>();
  app.use(
    "/dify/*",
    gatewayKeyAuth({
      keys,
      limiter: new KeyRateLimiter({ perMinute: 1, burst, now: () => 0 }),
      onKeyAccepted: (key) => accepted.push(key),
    }),
  );
  app.get("/dify/v1/parameters", (c) => c.json({ keyId: c.get("gatewayKey").keyId }));
  const call = (authorization?: string) =>
    app.request("/dify/v1/parameters", {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
  return { keys, made, app, call, accepted };
}

Deno.test("a valid key reaches the route with its record; the scheme is case-insensitive", async () => {
  const { made, call, accepted } = await setup();
  for (const header of [`Bearer ${made.key}`, `bearer ${made.key}`, `  BEARER   ${made.key} `]) {
    const response = await call(header);
    assert.equal(response.status, 200, header);
    assert.deepEqual(await response.json(), { keyId: made.gatewayKey.keyId });
  }
  assert.deepEqual(accepted, [made.key, made.key, made.key]);
});

Deno.test("refusals are 401 in Dify's form, with Dify's message for each fault", async () => {
  const { keys, made, call, accepted } = await setup();
  const cases: [string, string | undefined, string][] = [
    ["no header", undefined, UNAUTHORIZED_MESSAGES.missing],
    ["an empty header", "", UNAUTHORIZED_MESSAGES.missing],
    ["a bare scheme", "Bearer", UNAUTHORIZED_MESSAGES.missing],
    ["another scheme", `Basic ${made.key}`, UNAUTHORIZED_MESSAGES.scheme],
    ["a wrong key", `Bearer app-${"a".repeat(40)}`, UNAUTHORIZED_MESSAGES.invalid],
    ["not an app key", "Bearer 0123456789abcdef", UNAUTHORIZED_MESSAGES.invalid],
  ];
  await keys.revoke(made.gatewayKey.keyId);
  cases.push(["a revoked key", `Bearer ${made.key}`, UNAUTHORIZED_MESSAGES.invalid]);
  for (const [what, header, message] of cases) {
    const response = await call(header);
    assert.equal(response.status, 401, what);
    assert.deepEqual(await response.json(), { code: "unauthorized", message, status: 401 }, what);
  }
  assert.deepEqual(accepted, [], "a refused key was reported as accepted");
});

Deno.test("over its rate limit a key gets 429 with Retry-After", async () => {
  const { made, call } = await setup(2);
  assert.equal((await call(`Bearer ${made.key}`)).status, 200);
  assert.equal((await call(`Bearer ${made.key}`)).status, 200);
  const limited = await call(`Bearer ${made.key}`);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("Retry-After"), "60");
  const body = await limited.json();
  assert.equal(body.code, "too_many_requests");
  assert.equal(body.status, 429);
});
