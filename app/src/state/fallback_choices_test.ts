import assert from "node:assert/strict";
import type { Model } from "@daedalus/client";
import { fallbackChoices, fallbackRef, fallbackValue } from "./fallback_choices.ts";

function model(providerId: string, id: string, over: Partial<Model> = {}): Model {
  return {
    providerId,
    id,
    displayName: id.toUpperCase(),
    enabled: true,
    contextWindow: 64_000,
    supportsTools: true,
    reasoningEffort: null,
    reasoningEfforts: [],
    ...over,
  };
}

Deno.test("fallback choices: values and refs round-trip; junk is none", () => {
  const cases: [string, { providerId: string; modelId: string } | null][] = [
    ["", null],
    ["scripted/scripted-model", { providerId: "scripted", modelId: "scripted-model" }],
    // Model ids may hold "/" (vendor/model); provider ids never do.
    ["openrouter/meta/llama-3", { providerId: "openrouter", modelId: "meta/llama-3" }],
    ["/no-provider", null],
    ["no-model/", null],
    ["plain", null],
  ];
  for (const [value, ref] of cases) {
    assert.deepEqual(fallbackRef(value), ref, `ref of ${JSON.stringify(value)}`);
    if (ref) assert.equal(fallbackValue(ref), value, `value of ${value}`);
  }
  assert.equal(fallbackValue(null), "");
  assert.equal(fallbackValue(undefined), "");
});

Deno.test("fallback choices: none, then the other enabled models in order", () => {
  const self = model("a", "one");
  const all = [
    self,
    model("a", "two"),
    model("a", "off", { enabled: false }),
    model("b", "one"),
  ];
  assert.deepEqual(fallbackChoices(self, all).map((choice) => choice.value), [
    "",
    "a/two",
    // the same model id at another provider is another model
    "b/one",
  ]);
});

Deno.test("fallback choices: the current fallback stays listed when disabled or unlisted", () => {
  const all = [model("a", "two"), model("a", "off", { enabled: false })];
  const disabled = model("a", "one", { fallback: { providerId: "a", modelId: "off" } });
  const offered = fallbackChoices(disabled, [disabled, ...all]);
  assert.deepEqual(offered.map((choice) => choice.value), ["", "a/two", "a/off"]);
  assert.equal(offered[2]?.model?.enabled, false, "it is shown as disabled");
  const gone = model("a", "one", { fallback: { providerId: "z", modelId: "removed" } });
  const listed = fallbackChoices(gone, [gone, ...all]);
  assert.deepEqual(listed.map((choice) => choice.value), ["", "a/two", "z/removed"]);
  assert.equal(listed.at(-1)?.model?.enabled, false);
});
