import assert from "node:assert/strict";
import { LOGIN_CODE_PATTERN, LoginCodeStore, loginUrlFor } from "./login_codes.ts";
import { LOGIN_CODE_TTL_MS } from "./limits.ts";

Deno.test("a login code works once, under the generation it was minted for", () => {
  const store = new LoginCodeStore();
  const { code } = store.mint("gen-a");
  assert.match(code, LOGIN_CODE_PATTERN);
  assert.doesNotMatch(code, /^[0-9a-f]{64}$/, "a code never looks like an access token");
  assert.equal(store.redeem(code, "gen-a"), "gen-a");
  assert.equal(store.redeem(code, "gen-a"), null, "the second use is refused");
  assert.equal(store.size, 0);
});

Deno.test("a code minted under another token, or while auth.json is unusable, is void", () => {
  const store = new LoginCodeStore();
  const rotated = store.mint("gen-a").code;
  assert.equal(store.redeem(rotated, "gen-b"), null);
  assert.equal(store.redeem(rotated, "gen-a"), null, "a refused try spends the code too");
  const broken = store.mint("gen-a").code;
  assert.equal(store.redeem(broken, null), null);
  const dropped = store.mint("gen-a").code;
  store.dropOtherGenerations("gen-b");
  assert.equal(store.redeem(dropped, "gen-a"), null, "a rotation voids unredeemed codes");
});

Deno.test("a code expires after LOGIN_CODE_TTL_MS", () => {
  let now = 1_000_000;
  const store = new LoginCodeStore({ now: () => now });
  const { code, expiresAtMs } = store.mint("g");
  assert.equal(expiresAtMs, now + LOGIN_CODE_TTL_MS);
  const fresh = store.mint("g").code;
  now += LOGIN_CODE_TTL_MS - 1;
  assert.equal(store.redeem(fresh, "g"), "g", "still valid just before the expiry");
  now += 1;
  assert.equal(store.redeem(code, "g"), null, "refused at the expiry");
});

Deno.test("unknown, malformed and overflowed codes are refused; memory stays bounded", () => {
  const store = new LoginCodeStore({ maxCount: 2 });
  const first = store.mint("g").code;
  store.mint("g");
  store.mint("g");
  assert.equal(store.size, 2);
  assert.equal(store.redeem(first, "g"), null, "the oldest code was dropped");
  assert.equal(store.redeem("x".repeat(43), "g"), null);
  assert.equal(store.redeem("f".repeat(64), "g"), null, "a token is not a code");
  assert.equal(store.redeem("", "g"), null);
});

Deno.test("loginUrlFor puts the code in the fragment", () => {
  assert.equal(loginUrlFor("http://127.0.0.1:7420", "abc"), "http://127.0.0.1:7420/#code=abc");
  assert.equal(loginUrlFor("http://127.0.0.1:7420/", "abc"), "http://127.0.0.1:7420/#code=abc");
});
