import assert from "node:assert/strict";
import { REASONING_EFFORTS } from "@daedalus/protocol";
import {
  configureParams,
  discoverParams,
  EFFORT_LEVELS,
  emptyProviderForm,
  mergeModelIds,
  type ProviderForm,
} from "./onboarding_provider_form.ts";

const custom = (change: Partial<ProviderForm> = {}): ProviderForm => ({
  ...emptyProviderForm("custom"),
  displayName: "Scripted",
  baseUrl: "http://127.0.0.1:9/v1",
  modelIds: "scripted-model",
  ...change,
});

Deno.test("provider form: the effort levels are the protocol's, in order", () => {
  assert.deepEqual([...EFFORT_LEVELS], [...REASONING_EFFORTS]);
});

Deno.test("provider form: a custom provider gets an id from its name and its models", () => {
  assert.deepEqual(configureParams(custom({ apiKey: "  " })), {
    params: {
      kind: "custom",
      providerId: "scripted",
      displayName: "Scripted",
      baseUrl: "http://127.0.0.1:9/v1",
      models: [{ id: "scripted-model" }],
    },
  });
});

Deno.test("provider form: Advanced settings apply to every listed model", () => {
  const result = configureParams(custom({
    modelIds: "a\nb",
    apiKey: "sk-1",
    contextWindow: "65536",
    efforts: ["low", "high"],
    defaultEffort: "high",
  }));
  assert.ok("params" in result && result.params.kind === "custom");
  assert.equal(result.params.apiKey, "sk-1");
  assert.deepEqual(result.params.models, [
    { id: "a", contextWindow: 65536, reasoningEfforts: ["low", "high"], reasoningEffort: "high" },
    { id: "b", contextWindow: 65536, reasoningEfforts: ["low", "high"], reasoningEffort: "high" },
  ]);
});

Deno.test("provider form: problems are named before anything is sent", () => {
  const problem = (form: ProviderForm) => {
    const result = configureParams(form);
    return "problem" in result ? result.problem : null;
  };
  assert.equal(problem(emptyProviderForm("deepseek")), "apiKeyRequired");
  assert.equal(problem(custom({ displayName: " " })), "nameRequired");
  assert.equal(problem(custom({ baseUrl: "ftp://x" })), "baseUrlInvalid");
  assert.equal(problem(custom({ baseUrl: "not a url" })), "baseUrlInvalid");
  assert.equal(problem(custom({ modelIds: " ,\n" })), "modelRequired");
  assert.equal(problem(custom({ contextWindow: "100" })), "contextWindowInvalid");
  assert.equal(problem(custom({ contextWindow: "2048.5" })), "contextWindowInvalid");
  assert.equal(
    problem(custom({ efforts: ["low"], defaultEffort: "max" })),
    "defaultEffortNotListed",
  );
});

Deno.test("provider form: DeepSeek needs only a key; models are optional", () => {
  assert.deepEqual(configureParams({ ...emptyProviderForm("deepseek"), apiKey: "sk-x" }), {
    params: { kind: "deepseek", apiKey: "sk-x" },
  });
});

Deno.test("provider form: discovery needs a custom base URL; ids merge without repeats", () => {
  assert.equal(discoverParams(custom({ baseUrl: "" })), null);
  assert.deepEqual(discoverParams(custom({ apiKey: "k" })), {
    kind: "custom",
    baseUrl: "http://127.0.0.1:9/v1",
    apiKey: "k",
  });
  assert.deepEqual(discoverParams(emptyProviderForm("deepseek")), { kind: "deepseek" });
  assert.equal(mergeModelIds("b, a", ["a", "c"]), "b\na\nc");
});
