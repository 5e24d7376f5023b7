import assert from "node:assert/strict";
import {
  addModelIds,
  customProviderParams,
  emptyCustomDraft,
  limitsParams,
  parseHeaders,
  parseModelIds,
  REASONING_EFFORT_LEVELS,
} from "./provider_form.ts";

Deno.test("headers: Name: value per line, blanks skipped, a bad line is named", () => {
  assert.deepEqual(parseHeaders("X-Org: acme\n\n  Authorization-Extra :  a:b  \n"), {
    ok: true,
    headers: { "X-Org": "acme", "Authorization-Extra": "a:b" },
  });
  assert.deepEqual(parseHeaders(""), { ok: true, headers: {} });
  assert.deepEqual(parseHeaders("X-Org: acme\nno colon here"), { ok: false, line: 2 });
  assert.deepEqual(parseHeaders(": value"), { ok: false, line: 1 });
  assert.deepEqual(parseHeaders("Bad Name: value"), { ok: false, line: 1 });
});

Deno.test("model ids: newlines or commas, trimmed, repeats dropped; picks are appended", () => {
  assert.deepEqual(parseModelIds(" a \nb, c\n\na,"), ["a", "b", "c"]);
  assert.deepEqual(parseModelIds("  \n"), []);
  assert.equal(addModelIds("a\nb", ["b", "c"]), "a\nb\nc");
  assert.equal(addModelIds("", ["x"]), "x");
});

Deno.test("custom provider: a complete form becomes provider.configure params", () => {
  const checked = customProviderParams({
    providerId: " local ",
    displayName: " Local ",
    baseUrl: "http://127.0.0.1:8080/v1",
    apiKey: "sk-1",
    headers: "X-Org: acme",
    models: "m1\nm2",
  }, { m2: { id: "m2", displayName: "Model Two", contextWindow: 32768 } });
  assert.deepEqual(checked, {
    ok: true,
    params: {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: "http://127.0.0.1:8080/v1",
      apiKey: "sk-1",
      headers: { "X-Org": "acme" },
      models: [{ id: "m1" }, { id: "m2", displayName: "Model Two", contextWindow: 32768 }],
    },
  });
});

Deno.test("custom provider: a blank key and blank headers are left out (the saved ones stay)", () => {
  const checked = customProviderParams({
    ...emptyCustomDraft(),
    providerId: "p",
    displayName: "P",
    baseUrl: "https://example.com/v1",
    models: "m",
  });
  assert.ok(checked.ok);
  assert.equal("apiKey" in checked.params, false);
  assert.equal("headers" in checked.params, false);
});

Deno.test("custom provider: every faulty field is named", () => {
  const checked = customProviderParams({
    providerId: "Has Spaces",
    displayName: " ",
    baseUrl: "ftp://example.com",
    apiKey: "",
    headers: "oops",
    models: "",
  });
  assert.equal(checked.ok, false);
  if (checked.ok) return;
  assert.deepEqual(checked.problems.map((p) => p.field), [
    "providerId",
    "displayName",
    "baseUrl",
    "headers",
    "models",
  ]);
  assert.deepEqual(checked.problems[3].vars, { line: 1 });
});

Deno.test("limits: window, levels in protocol order, default among them or auto", () => {
  assert.deepEqual(
    limitsParams("p", "m", {
      contextWindow: "128,000",
      reasoningEfforts: ["high", "low"],
      reasoningEffort: "high",
    }),
    {
      ok: true,
      params: {
        providerId: "p",
        modelId: "m",
        contextWindow: 128000,
        reasoningEfforts: ["low", "high"],
        reasoningEffort: "high",
      },
    },
  );
  const auto = limitsParams("p", "m", {
    contextWindow: "4096",
    reasoningEfforts: [],
    reasoningEffort: "",
  });
  assert.ok(auto.ok);
  assert.equal(auto.params.reasoningEffort, null);
});

Deno.test("limits: a window out of range or a default it does not offer is refused", () => {
  for (const contextWindow of ["1000", "abc", "1.5e6", "200000000", ""]) {
    const checked = limitsParams("p", "m", {
      contextWindow,
      reasoningEfforts: [],
      reasoningEffort: "",
    });
    assert.equal(checked.ok, false, contextWindow);
  }
  const checked = limitsParams("p", "m", {
    contextWindow: "8192",
    reasoningEfforts: ["low"],
    reasoningEffort: "high",
  });
  assert.equal(checked.ok, false);
  if (!checked.ok) assert.deepEqual(checked.problems.map((p) => p.field), ["reasoningEffort"]);
});

Deno.test("reasoning levels follow the protocol's order", () => {
  assert.deepEqual(REASONING_EFFORT_LEVELS, [
    "none",
    "minimal",
    "low",
    "medium",
    "high",
    "xhigh",
    "max",
    "ultra",
  ]);
});
