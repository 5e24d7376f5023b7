import assert from "node:assert/strict";
import { Hono } from "hono";
import { gatewayCors, gatewayPreflight, keyAllowsOrigin, originOf } from "./cors.ts";
import { type GatewayEnv, gatewayKeyAuth } from "./key_auth.ts";
import { GatewayKeyStore } from "./key_store.ts";
import { KeyRateLimiter } from "./rate_limiter.ts";
import type { GatewayKey } from "@daedalus/protocol";

const PAGE = "http://127.0.0.1:5173";
const OTHER = "http://127.0.0.1:6000";

async function setup() {
  const keys = await GatewayKeyStore.open(`${await Deno.makeTempDir()}/gateway_keys.json`);
  const base = { providerId: "p", modelId: "m", permission: "ask" } as const;
  const allowing = await keys.create("web", { ...base, allowedOrigins: [`${PAGE}/`] });
  const closed = await keys.create("server", base);
  const app = new Hono<GatewayEnv>();
  // The same order as gateway_app.ts.
  app.options("*", gatewayPreflight(keys));
  app.use("*", gatewayCors());
  app.use(
    "*",
    gatewayKeyAuth({ keys, limiter: new KeyRateLimiter({ perMinute: 1, burst: 4, now: () => 0 }) }),
  );
  app.get("/parameters", (c) => c.json({ ok: true }));
  app.post(
    "/stream",
    () => new Response("data: 1\n\n", { headers: { "Content-Type": "text/event-stream" } }),
  );
  return { keys, allowing, closed, app };
}

const CORS_HEADERS = [
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
  "access-control-expose-headers",
  "access-control-allow-credentials",
];

function corsHeadersOf(response: Response): string[] {
  return CORS_HEADERS.filter((name) => response.headers.has(name));
}

function preflight(app: Hono<GatewayEnv>, origin: string | undefined) {
  return app.request("/parameters", {
    method: "OPTIONS",
    headers: {
      ...(origin === undefined ? {} : { Origin: origin }),
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "authorization,content-type",
    },
  });
}

Deno.test("originOf reduces an allowed-origins entry to its origin", () => {
  const cases: [string, string | null][] = [
    ["http://127.0.0.1:5173/", "http://127.0.0.1:5173"],
    ["https://app.example/chat?x=1", "https://app.example"],
    ["https://APP.example:443", "https://app.example"],
    ["http://app.example:80/", "http://app.example"],
    ["ftp://app.example/", null],
    ["file:///tmp/page.html", null],
    ["not a url", null],
  ];
  for (const [entry, expected] of cases) {
    assert.equal(originOf(entry), expected, `originOf(${JSON.stringify(entry)})`);
  }
});

Deno.test("keyAllowsOrigin matches exact origins only, never null or a revoked key", () => {
  const key = {
    keyId: "k",
    revokedAt: null,
    profile: { allowedOrigins: [`${PAGE}/`, "https://app.example"] },
  } as unknown as GatewayKey;
  const cases: [string, boolean][] = [
    [PAGE, true],
    ["https://app.example", true],
    [OTHER, false],
    ["http://127.0.0.1:51730", false],
    ["https://app.example.evil", false],
    ["http://app.example", false],
    ["null", false],
    ["", false],
  ];
  for (const [origin, expected] of cases) {
    assert.equal(keyAllowsOrigin(key, origin), expected, `origin ${JSON.stringify(origin)}`);
  }
  assert.equal(keyAllowsOrigin({ ...key, revokedAt: "2026-01-01T00:00:00.000Z" }, PAGE), false);
  const none = { ...key, profile: { ...key.profile, allowedOrigins: undefined } } as GatewayKey;
  assert.equal(keyAllowsOrigin(none, PAGE), false, "no list means no origin");
});

Deno.test("a preflight from an origin some valid key allows gets the grant, no wildcard", async () => {
  const { app } = await setup();
  const response = await preflight(app, PAGE);
  assert.equal(response.status, 204);
  assert.equal(response.headers.get("access-control-allow-origin"), PAGE);
  assert.equal(response.headers.get("access-control-allow-methods"), "GET,POST,DELETE");
  assert.equal(
    response.headers.get("access-control-allow-headers"),
    "Authorization,Content-Type,Accept",
  );
  assert.equal(response.headers.get("access-control-max-age"), "600");
  assert.equal(response.headers.has("access-control-allow-credentials"), false);
  assert.match(response.headers.get("vary") ?? "", /Origin/);
});

Deno.test("a preflight from any other origin gets no CORS header at all", async () => {
  const { keys, app, allowing } = await setup();
  for (const origin of [OTHER, "null", undefined]) {
    const response = await preflight(app, origin);
    assert.equal(response.status, 204, `origin ${origin}`);
    assert.deepEqual(corsHeadersOf(response), [], `origin ${origin}`);
  }
  await keys.revoke(allowing.gatewayKey.keyId);
  assert.deepEqual(corsHeadersOf(await preflight(app, PAGE)), [], "a revoked key still grants");
});

Deno.test("a request gets the grant only when its own key allows its origin", async () => {
  const { app, allowing, closed } = await setup();
  const get = (key: string, origin?: string) =>
    app.request("/parameters", {
      headers: { Authorization: `Bearer ${key}`, ...(origin ? { Origin: origin } : {}) },
    });
  const granted = await get(allowing.key, PAGE);
  assert.equal(granted.status, 200);
  assert.equal(granted.headers.get("access-control-allow-origin"), PAGE);
  assert.equal(granted.headers.get("access-control-expose-headers"), "Retry-After");
  assert.match(granted.headers.get("vary") ?? "", /Origin/);
  const cases: [string, string, string | undefined][] = [
    ["another origin", allowing.key, OTHER],
    ["a key without origins", closed.key, PAGE],
    ["no Origin (a server)", allowing.key, undefined],
  ];
  for (const [what, key, origin] of cases) {
    const response = await get(key, origin);
    assert.equal(response.status, 200, what);
    assert.deepEqual(corsHeadersOf(response), [], what);
    assert.match(response.headers.get("vary") ?? "", /Origin/, what);
  }
  const refused = await get(`app-${"0".repeat(40)}`, PAGE);
  assert.equal(refused.status, 401);
  assert.deepEqual(corsHeadersOf(refused), [], "a refused key's answer carries the grant");
});

Deno.test("a streaming answer made as a new Response gets the grant too", async () => {
  const { app, allowing } = await setup();
  const response = await app.request("/stream", {
    method: "POST",
    headers: { Authorization: `Bearer ${allowing.key}`, Origin: PAGE },
  });
  assert.equal(response.headers.get("access-control-allow-origin"), PAGE);
  assert.equal(await response.text(), "data: 1\n\n");
});

Deno.test("a valid key's 429 carries the grant, so its page can read Retry-After", async () => {
  const { app, allowing } = await setup();
  const get = () =>
    app.request("/parameters", {
      headers: { Authorization: `Bearer ${allowing.key}`, Origin: PAGE },
    });
  let response = await get();
  while (response.status === 200) response = await get();
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("access-control-allow-origin"), PAGE);
  assert.equal(response.headers.get("access-control-expose-headers"), "Retry-After");
  assert.ok(response.headers.get("retry-after"), "no Retry-After");
});
