import assert from "node:assert/strict";
import { startFakeTelegram } from "./_test_fake_bot_api.ts";
import { TelegramApiError, TelegramBotApi } from "./bot_api.ts";

const TOKEN = "4242:AAF_bot-api-test-token-000000000";

async function rejection(promise: Promise<unknown>): Promise<TelegramApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TelegramApiError, `expected a TelegramApiError, got ${error}`);
    return error;
  }
  assert.fail("expected the request to fail");
}

Deno.test("bot api: getMe names the bot; a wrong token is telegram_unauthorized without the token", async () => {
  await using fake = startFakeTelegram({ token: TOKEN, username: "dd_bot" });
  const api = new TelegramBotApi({ token: TOKEN, apiBaseUrl: fake.url });
  assert.deepEqual(await api.getMe(), { id: 4242, username: "dd_bot", firstName: "Daedalus Test" });
  const wrong = "4242:AAF_wrong-token-000000000000000";
  const error = await rejection(new TelegramBotApi({ token: wrong, apiBaseUrl: fake.url }).getMe());
  assert.equal(error.code, "telegram_unauthorized");
  assert.equal(error.status, 401);
  assert.ok(!error.message.includes(wrong), "the token must not appear in an error");
});

Deno.test("bot api: getUpdates long-polls, and the offset acknowledges earlier updates", async () => {
  await using fake = startFakeTelegram({ token: TOKEN });
  const api = new TelegramBotApi({ token: TOKEN, apiBaseUrl: fake.url });
  const started = Date.now();
  const waiting = api.getUpdates(0, 5);
  setTimeout(() => fake.sendText(7, "hello"), 200);
  const [update] = await waiting;
  assert.ok(Date.now() - started < 4_000, "a long poll must answer as soon as an update arrives");
  assert.equal((update.message as { text: string }).text, "hello");
  fake.sendText(7, "second");
  const next = await api.getUpdates(update.update_id + 1, 0);
  assert.deepEqual(next.map((u) => (u.message as { text: string }).text), ["second"]);
  assert.deepEqual(
    await api.getUpdates(next[0].update_id + 1, 0),
    [],
    "acknowledged updates must not repeat",
  );
});

Deno.test("bot api: sendMessage; 429 retry_after is waited; 400 and 403 fail at once", async () => {
  await using fake = startFakeTelegram({ token: TOKEN });
  const waits: number[] = [];
  const api = new TelegramBotApi({
    token: TOKEN,
    apiBaseUrl: fake.url,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  fake.sendText(7, "hi");
  assert.equal(typeof await api.sendMessage("7", "reply"), "number");
  fake.rateLimitSends(2, 3);
  await api.sendMessage("7", "after limits");
  assert.deepEqual(waits, [3_000, 3_000], "retry_after seconds must be waited before each retry");
  assert.deepEqual(fake.sent.map((m) => m.text), ["reply", "after limits"]);
  const notFound = await rejection(api.sendMessage("99", "x"));
  assert.equal(notFound.code, "telegram_bad_request");
  assert.match(notFound.message, /chat not found/);
  fake.blockChat(7);
  const blocked = await rejection(api.sendMessage("7", "x"));
  assert.equal(blocked.code, "telegram_forbidden");
  assert.equal(blocked.retryable, false);
  const sends = fake.requests.filter((r) => r.method === "sendMessage").length;
  assert.equal(sends, 6, "refusals other than 429 must not be retried");
});

Deno.test("bot api: a long retry_after is left to the caller; typing is sent", async () => {
  await using fake = startFakeTelegram({ token: TOKEN });
  const api = new TelegramBotApi({ token: TOKEN, apiBaseUrl: fake.url });
  fake.sendText(7, "hi");
  await api.sendTyping("7");
  assert.equal(fake.requests.at(-1)?.params.action, "typing");
  fake.rateLimitSends(1, 120);
  const error = await rejection(api.sendMessage("7", "x"));
  assert.equal(error.code, "telegram_rate_limited");
  assert.equal(error.retryAfterS, 120);
});

Deno.test("bot api: an unreachable server is telegram_unreachable after retries", async () => {
  const api = new TelegramBotApi({
    token: TOKEN,
    apiBaseUrl: "http://127.0.0.1:9",
    retries: 2,
    sleep: () => Promise.resolve(),
  });
  const error = await rejection(api.getMe());
  assert.equal(error.code, "telegram_unreachable");
  assert.ok(!error.message.includes(TOKEN), "the URL's token must be redacted");
});

Deno.test("bot api: requests go through the configured HTTP proxy with its credentials", async () => {
  await using fake = startFakeTelegram({ token: TOKEN, username: "proxied_bot" });
  const seen: { url: string; auth: string | null }[] = [];
  // A forward proxy: plain-HTTP requests arrive in absolute form and are relayed.
  await using proxy = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      seen.push({ url: request.url, auth: request.headers.get("proxy-authorization") });
      const relayed = await fetch(request.url, {
        method: request.method,
        headers: { "content-type": request.headers.get("content-type") ?? "application/json" },
        body: await request.arrayBuffer(),
      });
      return new Response(relayed.body, { status: relayed.status, headers: relayed.headers });
    },
  );
  const api = new TelegramBotApi({
    token: TOKEN,
    apiBaseUrl: fake.url,
    proxy: `http://bob:pa%24s@127.0.0.1:${proxy.addr.port}`,
  });
  try {
    assert.equal((await api.getMe()).username, "proxied_bot");
  } finally {
    api.close();
  }
  assert.equal(seen.length, 1, "the request must pass the proxy");
  assert.ok(seen[0].url.startsWith(fake.url), seen[0].url);
  assert.equal(seen[0].auth, `Basic ${btoa("bob:pa$s")}`);
});
