import assert from "node:assert/strict";
import { ConfigError } from "./errors.ts";
import { parseConfig } from "./config_file.ts";

Deno.test("config gateway: a valid dify_prefix is kept; absent means the default", () => {
  for (const prefix of ["/dify/v1", "/v1", "/apps/chat-bot_2/v1", "/Dify"]) {
    const config = parseConfig(`version: 1\ngateway:\n  dify_prefix: ${prefix}\n`, "config.yaml");
    assert.equal(config.gateway?.dify_prefix, prefix);
  }
  assert.equal(parseConfig("version: 1\n", "config.yaml").gateway, undefined);
  assert.deepEqual(parseConfig("version: 1\ngateway: {}\n", "config.yaml").gateway, {});
});

Deno.test("config gateway: a bad dify_prefix is config_invalid at gateway.dify_prefix", () => {
  const cases: [string, string, RegExp][] = [
    ["no leading slash", "dify/v1", /a path like/],
    ["a trailing slash", "/dify/v1/", /a path like/],
    ["the root", "/", /a path like/],
    ["an empty segment", "/dify//v1", /a path like/],
    ["a dot (a PWA file)", "/index.html", /a path like/],
    ["a parent segment", "/dify/../rpc", /a path like/],
    ["a space", "/dify v1", /a path like/],
    ["a query", "/dify?x=1", /a path like/],
    ["too many segments", "/a/b/c/d/e/f/g/h/i", /a path like/],
    ["the RPC path", "/rpc", /runtime's own paths/],
    ["under the API", "/api/dify", /runtime's own paths/],
    ["AG-UI's path", "/AG-UI/v1", /runtime's own paths/],
    ["the uploads", "/attachments", /runtime's own paths/],
    ["too long", `/${"a".repeat(250)}`, /at most/],
  ];
  for (const [what, prefix, message] of cases) {
    let error: unknown;
    try {
      parseConfig(`version: 1\ngateway:\n  dify_prefix: "${prefix}"\n`, "config.yaml");
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof ConfigError, `${what}: ${prefix} was accepted`);
    assert.equal(error.code, "config_invalid", what);
    const issue = error.issues.find((i) => i.keyPath === "gateway.dify_prefix");
    assert.ok(issue, `${what}: no issue at gateway.dify_prefix: ${JSON.stringify(error.issues)}`);
    assert.match(issue.message, message, what);
  }
  assert.throws(
    () => parseConfig("version: 1\ngateway:\n  prefix: /x\n", "config.yaml"),
    (error: unknown) => error instanceof ConfigError && error.code === "config_invalid",
    "an unknown gateway key was accepted",
  );
});
