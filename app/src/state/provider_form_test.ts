import assert from "node:assert/strict";
import { REASONING_EFFORTS } from "@daedalus/protocol";
import {
  addModelIds,
  type ConnectDraft,
  connectParams,
  customProviderParams,
  deepseekDiscoverParams,
  discoverParams,
  effortChoices,
  emptyConnectDraft,
  emptyCustomDraft,
  limitsParams,
  parseContextWindow,
  parseHeaders,
  parseModelIds,
  providerIdFor,
  REASONING_EFFORT_LEVELS,
  toggleEffortLevel,
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
    apiKey: " sk-1 ",
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
    apiKey: "  ",
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

Deno.test("reasoning levels are the protocol's, in its order", () => {
  assert.deepEqual(REASONING_EFFORT_LEVELS, [...REASONING_EFFORTS]);
  assert.deepEqual(REASONING_EFFORT_LEVELS.slice(0, 3), ["none", "minimal", "low"]);
});

Deno.test("context window: whole tokens within the protocol's bounds, grouping allowed", () => {
  assert.equal(parseContextWindow(" 128 000 "), 128000);
  assert.equal(parseContextWindow("1_024"), 1024);
  assert.equal(parseContextWindow("100,000,000"), 100_000_000);
  for (const text of ["1023", "100000001", "2048.5", "-4096", "1e6", "", "abc"]) {
    assert.equal(parseContextWindow(text), null, text);
  }
});

Deno.test("effort levels: ticking keeps the protocol order; an unoffered default goes to auto", () => {
  const ticked = toggleEffortLevel(
    { reasoningEfforts: ["high"], reasoningEffort: "high" },
    "low",
    true,
    false,
  );
  assert.deepEqual(ticked, { reasoningEfforts: ["low", "high"], reasoningEffort: "high" });
  assert.deepEqual(toggleEffortLevel(ticked, "high", false, false), {
    reasoningEfforts: ["low"],
    reasoningEffort: "",
  });
  // Settings: no level ticked offers no default; onboarding: it offers every level.
  assert.deepEqual(
    toggleEffortLevel({ reasoningEfforts: ["max"], reasoningEffort: "max" }, "max", false, false),
    { reasoningEfforts: [], reasoningEffort: "" },
  );
  assert.deepEqual(
    toggleEffortLevel({ reasoningEfforts: ["max"], reasoningEffort: "max" }, "max", false, true),
    { reasoningEfforts: [], reasoningEffort: "max" },
  );
  assert.deepEqual(effortChoices([], false), []);
  assert.deepEqual(effortChoices([], true), REASONING_EFFORT_LEVELS);
  assert.deepEqual(effortChoices(["ultra", "none"], true), ["none", "ultra"]);
});

Deno.test("provider ids come from the display name and fit the protocol", () => {
  assert.equal(providerIdFor("Scripted"), "scripted");
  assert.equal(providerIdFor("  My Local LLM!! "), "my-local-llm");
  assert.equal(providerIdFor("本地模型"), "custom");
  assert.equal(providerIdFor("DeepSeek"), "custom", "the built-in id is not taken");
  assert.match(providerIdFor("-x".repeat(50)), /^[a-z0-9][a-z0-9_-]{0,63}$/);
});

Deno.test("discovery: DeepSeek needs nothing; a custom lookup needs a base URL and good headers", () => {
  assert.deepEqual(discoverParams({ kind: "deepseek", baseUrl: "", apiKey: " ", headers: "" }), {
    ok: true,
    params: { kind: "deepseek" },
  });
  assert.deepEqual(deepseekDiscoverParams(" sk-typed "), { kind: "deepseek", apiKey: "sk-typed" });
  assert.deepEqual(deepseekDiscoverParams(""), { kind: "deepseek" }, "blank: the saved key");
  assert.deepEqual(
    discoverParams({
      kind: "custom",
      providerId: "local",
      baseUrl: " http://127.0.0.1:9/v1 ",
      apiKey: "k",
      headers: "X-Org: acme",
    }),
    {
      ok: true,
      params: {
        kind: "custom",
        providerId: "local",
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: "k",
        headers: { "X-Org": "acme" },
      },
    },
  );
  const refused = discoverParams({
    kind: "custom",
    baseUrl: "not a url",
    apiKey: "",
    headers: "x",
  });
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.deepEqual(refused.problems.map((p) => p.field), ["baseUrl", "headers"]);
});

const connectCustom = (change: Partial<ConnectDraft> = {}): ConnectDraft => ({
  ...emptyConnectDraft("custom"),
  displayName: "Scripted",
  baseUrl: "http://127.0.0.1:9/v1",
  models: "scripted-model",
  ...change,
});

Deno.test("connect: a custom provider gets an id from its name; a blank key is left out", () => {
  assert.deepEqual(connectParams(connectCustom({ apiKey: "  " })), {
    ok: true,
    params: {
      kind: "custom",
      providerId: "scripted",
      displayName: "Scripted",
      baseUrl: "http://127.0.0.1:9/v1",
      models: [{ id: "scripted-model" }],
    },
  });
});

Deno.test("connect: Advanced settings apply to every listed model, discovered ones too", () => {
  const checked = connectParams(
    connectCustom({
      models: "a\nb",
      apiKey: "sk-1",
      contextWindow: "65,536",
      reasoningEfforts: ["high", "low"],
      reasoningEffort: "high",
    }),
    { b: { id: "b", displayName: "Model B", contextWindow: 8192 } },
  );
  assert.ok(checked.ok && checked.params.kind === "custom");
  assert.equal(checked.params.apiKey, "sk-1");
  assert.deepEqual(checked.params.models, [
    { id: "a", contextWindow: 65536, reasoningEfforts: ["low", "high"], reasoningEffort: "high" },
    {
      id: "b",
      displayName: "Model B",
      contextWindow: 65536,
      reasoningEfforts: ["low", "high"],
      reasoningEffort: "high",
    },
  ]);
  // Without levels ticked any default may be sent: the runtime's levels stay.
  const defaultOnly = connectParams(connectCustom({ reasoningEffort: "max" }));
  assert.ok(defaultOnly.ok);
  assert.deepEqual(defaultOnly.params.models, [{ id: "scripted-model", reasoningEffort: "max" }]);
});

Deno.test("connect: DeepSeek needs only a key; listed models are optional", () => {
  assert.deepEqual(connectParams({ ...emptyConnectDraft("deepseek"), apiKey: " sk-x " }), {
    ok: true,
    params: { kind: "deepseek", apiKey: "sk-x" },
  });
  const withModels = connectParams({
    ...emptyConnectDraft("deepseek"),
    apiKey: "sk-x",
    models: "deepseek-chat",
    contextWindow: "65536",
  });
  assert.deepEqual(withModels, {
    ok: true,
    params: {
      kind: "deepseek",
      apiKey: "sk-x",
      models: [{ id: "deepseek-chat", contextWindow: 65536 }],
    },
  });
});

Deno.test("connect: problems are named by field, in the form's order, before anything is sent", () => {
  const fields = (draft: ConnectDraft) => {
    const checked = connectParams(draft);
    return checked.ok ? [] : checked.problems.map((problem) => problem.field);
  };
  assert.deepEqual(fields(emptyConnectDraft("deepseek")), ["apiKey"]);
  assert.deepEqual(fields(connectCustom({ displayName: " " })), ["displayName"]);
  assert.deepEqual(fields(connectCustom({ baseUrl: "ftp://x" })), ["baseUrl"]);
  assert.deepEqual(fields(connectCustom({ baseUrl: "not a url" })), ["baseUrl"]);
  assert.deepEqual(fields(connectCustom({ models: " ,\n" })), ["models"]);
  assert.deepEqual(fields(connectCustom({ contextWindow: "100" })), ["contextWindow"]);
  assert.deepEqual(fields(connectCustom({ contextWindow: "2048.5" })), ["contextWindow"]);
  assert.deepEqual(
    fields(connectCustom({ reasoningEfforts: ["low"], reasoningEffort: "max" })),
    ["reasoningEffort"],
  );
  assert.deepEqual(
    fields({ ...emptyConnectDraft("custom"), contextWindow: "x" }),
    ["displayName", "baseUrl", "models", "contextWindow"],
  );
  const checked = connectParams(connectCustom({ models: "" }));
  assert.ok(!checked.ok);
  assert.equal(checked.problems[0]?.key, "settings.problem.models");
});
