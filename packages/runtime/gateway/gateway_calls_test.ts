import assert from "node:assert/strict";
import type { GatewayKey } from "@daedalus/protocol";
import { allowedModel } from "./gateway_calls.ts";

const key: GatewayKey = {
  keyId: `gwkey_${"a".repeat(32)}`,
  name: "k",
  hint: "app-abcd",
  createdAt: "2026-12-02T00:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
  profile: {
    providerId: "p",
    modelId: "main",
    permission: "read_only",
    models: [{ providerId: "q", modelId: "other/v2" }],
  },
};

Deno.test("a request's model choice is taken only when the key allows it", () => {
  const cases: [string, unknown, unknown][] = [
    ["none asked", undefined, undefined],
    ["empty text", "", undefined],
    ["the key's own model", "p/main", { providerId: "p", modelId: "main" }],
    ["an allowed other model (a slash in its id)", "q/other/v2", {
      providerId: "q",
      modelId: "other/v2",
    }],
    ["as an object", { providerId: "q", modelId: "other/v2" }, {
      providerId: "q",
      modelId: "other/v2",
    }],
    ["a model the key does not name", "p/other", null],
    ["no provider", "main", null],
    ["a leading slash", "/main", null],
    ["an object missing its model", { providerId: "p" }, null],
    ["a number", 7, null],
  ];
  for (const [name, asked, expected] of cases) {
    assert.deepEqual(allowedModel(key, asked), expected, name);
  }
  const plain = { ...key, profile: { ...key.profile, models: undefined } };
  assert.equal(allowedModel(plain, "q/other/v2"), null, "no models: only the key's own");
});
