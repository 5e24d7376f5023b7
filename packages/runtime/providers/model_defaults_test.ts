import assert from "node:assert/strict";
import {
  builtinModelProfile,
  contextWindowFor,
  DEEPSEEK_BASE_URL,
  DEEPSEEK_MODELS,
  displayNameFor,
  isVisionModel,
} from "./model_defaults.ts";

Deno.test("the DeepSeek profile has three models with 1,000,000-token windows", () => {
  assert.equal(DEEPSEEK_BASE_URL, "https://api.deepseek.com/v1");
  assert.deepEqual(
    DEEPSEEK_MODELS.map((model) => [model.id, model.displayName, model.contextWindow]),
    [
      ["deepseek-v4-flash", "DeepSeek V4 Flash", 1_000_000],
      ["deepseek-v4-pro", "DeepSeek V4 Pro", 1_000_000],
      ["deepseek-v4-flash-vision-exp", "DeepSeek V4 Flash Vision (experimental)", 1_000_000],
    ],
  );
});

Deno.test("unknown models get a 32,768-token window and their id as name", () => {
  assert.equal(contextWindowFor("deepseek", "deepseek-v4-pro"), 1_000_000);
  assert.equal(contextWindowFor("deepseek", "deepseek-chat"), 32_768);
  assert.equal(contextWindowFor("local", "deepseek-v4-pro"), 32_768, "profile is DeepSeek's only");
  assert.equal(displayNameFor("deepseek", "deepseek-v4-flash"), "DeepSeek V4 Flash");
  assert.equal(displayNameFor("local", "qwen3:32b"), "qwen3:32b");
  assert.equal(builtinModelProfile("local", "deepseek-v4-flash"), undefined);
});

Deno.test("isVisionModel looks for vision, vl or multimodal in any case", () => {
  for (
    const id of ["deepseek-v4-flash-vision-exp", "Qwen2.5-VL-7B", "qwen-vl-max", "GLM-Multimodal"]
  ) {
    assert.ok(isVisionModel(id), `${id} should accept images`);
  }
  for (const id of ["deepseek-v4-flash", "qwen3:32b", "llama-3.1-8b"]) {
    assert.ok(!isVisionModel(id), `${id} should not accept images`);
  }
});
