import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import { discoverModels, parseModelList } from "./discovery.ts";

function isCategory(category: string) {
  return (error: unknown) => error instanceof ProviderError && error.category === category;
}

Deno.test("parses ids and context windows, skipping unusable and repeated entries", () => {
  const text = JSON.stringify({
    data: [
      { id: "a", context_length: 4096 },
      { id: "b", context_window: 8192 },
      { id: "c", context_length: -1 },
      { id: "a" },
      { id: "" },
      { id: "x".repeat(201) },
      { id: 5 },
      "d",
    ],
  });
  assert.deepEqual(parseModelList(text), [
    { id: "a", displayName: "a", contextWindow: 4096 },
    { id: "b", displayName: "b", contextWindow: 8192 },
    { id: "c", displayName: "c", contextWindow: null },
  ]);
});

Deno.test("a body that is not a model list is a protocol error", () => {
  assert.throws(() => parseModelList("<html>"), isCategory("protocol"));
  assert.throws(() => parseModelList('{"models":[]}'), isCategory("protocol"));
});

Deno.test("discovery asks GET {baseUrl}/models with the credentials and extra headers", async () => {
  const seen: Request[] = [];
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return Promise.resolve(Response.json({ data: [{ id: "m" }] }));
  };
  const models = await discoverModels({
    baseUrl: "http://host/v1/",
    apiKey: "sk-123456789",
    headers: { "x-extra": "yes" },
    fetch: fetchFn,
  });
  assert.deepEqual(models, [{ id: "m", displayName: "m", contextWindow: null }]);
  assert.equal(seen[0]?.url, "http://host/v1/models");
  assert.equal(seen[0]?.method, "GET");
  assert.equal(seen[0]?.headers.get("authorization"), "Bearer sk-123456789");
  assert.equal(seen[0]?.headers.get("x-extra"), "yes");
});

Deno.test("discovery honours the signal", async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    discoverModels({ baseUrl: "http://host/v1", signal: controller.signal }),
    isCategory("cancelled"),
  );
});
