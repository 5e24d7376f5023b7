import assert from "node:assert/strict";
import { RpcError } from "@daedalus/protocol";
import type { DaedalusConfig } from "@daedalus/storage";
import { configuredCredentials, ProtectedValues, REDACTED_MARKER } from "./protected_values.ts";

const KEY = "sk-live-0123456789abcdef";

function configWith(apiKey: string, headers: Record<string, string> = {}): DaedalusConfig {
  return {
    version: 1,
    providers: {
      deepseek: {
        type: "openai_compatible",
        preset: "deepseek",
        base_url: "https://api.deepseek.com/v1",
        api_key: apiKey,
        models: {},
      },
      local: {
        type: "openai_compatible",
        base_url: "http://127.0.0.1:11434/v1",
        headers,
        models: {},
      },
    },
    skills: { disabled: [] },
  };
}

function protect(...values: string[]): ProtectedValues {
  const protectedValues = new ProtectedValues();
  for (const value of values) protectedValues.register(value);
  return protectedValues;
}

Deno.test("api keys and header values of the config are protected", () => {
  const config = configWith(KEY, { "X-Api-Token": "tok_abcdefgh12345" });
  assert.deepEqual(configuredCredentials(config), [KEY, "tok_abcdefgh12345"]);
  const protectedValues = ProtectedValues.fromConfig(config);
  assert.ok(protectedValues.find(`Authorization: Bearer ${KEY}`));
  assert.ok(protectedValues.find("token=tok_abcdefgh12345;"));
  assert.ok(!protectedValues.find("nothing secret here"));
});

Deno.test("MCP headers and secret-named env values are protected, other env values not", () => {
  const config = {
    ...configWith(KEY, {}),
    mcp: {
      servers: {
        web: {
          url: "http://127.0.0.1:1/mcp",
          headers: { Authorization: "Bearer mcp-header-secret-1" },
          enabled: true,
          timeout_ms: 60_000,
          tools: { disabled: [] },
        },
        files: {
          command: "node",
          env: { GITHUB_TOKEN: "ghp_mcpenvsecret42", NODE_ENV: "production" },
          enabled: true,
          timeout_ms: 60_000,
          tools: { disabled: [] },
        },
      },
    },
  };
  assert.deepEqual(configuredCredentials(config), [
    KEY,
    "Bearer mcp-header-secret-1",
    "ghp_mcpenvsecret42",
  ]);
  const protectedValues = ProtectedValues.fromConfig(config);
  assert.ok(protectedValues.find("the token is ghp_mcpenvsecret42"), "env secret found");
  assert.ok(!protectedValues.find("running in production"), "NODE_ENV value not protected");
});

Deno.test("an embedded piece of 8 characters is found, 7 are not", () => {
  const protectedValues = protect(KEY);
  assert.ok(protectedValues.find("prefix 01234567 suffix"), "8-char piece from the middle");
  assert.ok(!protectedValues.find("prefix 0123456 suffix"), "7 characters are not a leak");
  assert.ok(protectedValues.find("89abcdef"), "the last 8 characters");
  assert.ok(protectedValues.find("sk-live-"), "the first 8 characters");
  assert.ok(!protectedValues.find("SK-LIVE-"), "matching is case-sensitive");
});

Deno.test("short values match as whole tokens only; tiny and blank ones are ignored", () => {
  const protectedValues = protect("ab12cd", "xyz", "   ");
  assert.equal(protectedValues.size, 1, "values under 4 characters and blank ones are skipped");
  assert.ok(protectedValues.find("ab12cd"));
  assert.ok(protectedValues.find("key: ab12cd."));
  assert.ok(protectedValues.find("(ab12cd)"));
  assert.ok(!protectedValues.find("xab12cd"), "inside a longer word");
  assert.ok(!protectedValues.find("ab12cd_2"), "followed by a word character");
  assert.ok(!protectedValues.find("ab12cd-x"), "followed by '-'");
  assert.ok(!protectedValues.find("xyz"));
  assert.equal(protectedValues.redact("a ab12cd b xab12cd"), `a ${REDACTED_MARKER} b xab12cd`);
});

Deno.test("windows are counted in code points, so Unicode secrets are found whole", () => {
  const secret = "密钥🔑😀😀😀通行证口令";
  const protectedValues = protect(secret);
  assert.ok(protectedValues.find(`说明：${secret}。`));
  // 8 code points (11 UTF-16 code units) from the middle of the secret.
  assert.ok(protectedValues.find("x🔑😀😀😀通行证口y"));
  // 7 code points are not a leak, even though they are 10 code units.
  assert.ok(!protectedValues.find("x🔑😀😀😀通行证y"));
  assert.equal(
    protectedValues.redact(`前${Array.from(secret).slice(2).join("")}后`),
    `前${REDACTED_MARKER}后`,
  );
  assert.ok(!protectedValues.find(Array.from(secret).slice(0, 7).join("")));
  // A lone surrogate does not confuse the scan.
  assert.ok(protectedValues.find(`\ud800${secret}`));
  const short = protect("ключ🔑");
  assert.ok(short.find("это ключ🔑!"));
  assert.ok(!short.find("всеключ🔑"), "a Cyrillic letter before it is a word character");
});

Deno.test("overlapping and repeated windows are redacted as one range", () => {
  const protectedValues = protect("abababababab");
  assert.ok(protectedValues.find("xxabababab"));
  assert.equal(
    protectedValues.redact("<ababababababababab>"),
    `<${REDACTED_MARKER}>`,
    "a run longer than the secret is one match",
  );
  assert.equal(
    protectedValues.redact("abababab abababab"),
    `${REDACTED_MARKER} ${REDACTED_MARKER}`,
  );
  const two = protect(KEY, "other-secret-value");
  assert.equal(
    two.redact(`k=${KEY}other-secret-value;`),
    `k=${REDACTED_MARKER};`,
    "adjacent leaks of two secrets merge",
  );
  assert.equal(two.redact("clean text"), "clean text");
});

Deno.test("assertSafe walks nested strings and keys and never echoes the value", () => {
  const protectedValues = protect(KEY);
  const refusal = (value: unknown) => {
    try {
      protectedValues.assertSafe(value, "params");
    } catch (error) {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, -32602);
      assert.equal(error.reasonCode, "protected_value");
      const wire = JSON.stringify(error.toJSON());
      assert.ok(!wire.includes(KEY) && !wire.includes("0123456789"), `leaked in ${wire}`);
      return error.data.field;
    }
    return undefined;
  };
  assert.equal(refusal({ title: "fine", n: 3, ok: true, none: null }), undefined);
  assert.equal(
    refusal({ content: [{ text: "ok" }, { text: `use ${KEY}` }] }),
    "params.content.1.text",
  );
  assert.equal(refusal({ headers: { [KEY]: "x" } }), "params.headers", "keys are checked too");
  assert.equal(refusal(`${KEY.slice(3, 15)}`), "params");
  const cyclic: Record<string, unknown> = { a: "fine" };
  cyclic.self = cyclic;
  assert.equal(refusal(cyclic), undefined, "cycles end the walk");
});

Deno.test("retired and runtime-registered values stay protected after an update", () => {
  const protectedValues = ProtectedValues.fromConfig(configWith(KEY));
  protectedValues.register("discovery-key-9876543210");
  protectedValues.update(configWith("sk-rotated-key-000000000"));
  assert.ok(protectedValues.find(KEY), "the rotated-out key");
  assert.ok(protectedValues.find("sk-rotated-key-000000000"), "the new key");
  assert.ok(protectedValues.find("discovery-key-9876543210"), "the registered key");
});

Deno.test("find scans a megabyte of text quickly", () => {
  const protectedValues = protect(KEY, "another-long-secret-value", "tok_abcdefgh12345");
  const text = "lorem ipsum dolor sit amet ".repeat(40_000);
  const started = performance.now();
  assert.ok(!protectedValues.find(text));
  assert.ok(protectedValues.find(text + KEY.slice(4, 12)));
  const elapsedMs = performance.now() - started;
  assert.ok(elapsedMs < 2_000, `two scans of 1 MB took ${elapsedMs.toFixed(0)} ms`);
});
