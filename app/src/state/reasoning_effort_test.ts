import assert from "node:assert/strict";
import { createEffortMemory, effortChoices, effortParam } from "./reasoning_effort.ts";

const thinking = {
  providerId: "openai",
  id: "o9",
  reasoningEffort: "medium" as const,
  reasoningEfforts: ["low" as const, "medium" as const, "high" as const],
};
const plain = { providerId: "openai", id: "gpt", reasoningEffort: null, reasoningEfforts: [] };

Deno.test("effort choices: auto plus the model's efforts; none for models without", () => {
  assert.deepEqual(effortChoices(thinking), ["auto", "low", "medium", "high"]);
  assert.deepEqual(effortChoices(plain), []);
});

Deno.test("effort memory: default is the model's, a choice is remembered per model", () => {
  sessionStorage.clear();
  const memory = createEffortMemory(sessionStorage);
  assert.equal(memory.get(thinking), "medium");
  assert.equal(memory.get({ ...thinking, reasoningEffort: null }), "auto", "null means auto");
  memory.set(thinking, "high");
  assert.equal(createEffortMemory(sessionStorage).get(thinking), "high", "survives a reload");
  assert.equal(memory.get({ ...thinking, id: "o10" }), "medium", "other models keep theirs");
  assert.equal(
    memory.get({ ...thinking, reasoningEfforts: ["low"] }),
    "medium",
    "a remembered effort the model no longer offers falls back to the default",
  );
  sessionStorage.clear();
});

Deno.test("effort param: left out without efforts, null for auto, else the effort", () => {
  assert.equal(effortParam(plain, "auto"), undefined);
  assert.equal(effortParam(thinking, "auto"), null);
  assert.equal(effortParam(thinking, "low"), "low");
});
