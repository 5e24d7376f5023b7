import assert from "node:assert/strict";
import { applyPreset, presetById, PROVIDER_PRESETS } from "./provider_presets.ts";
import { customProviderParams, emptyCustomDraft } from "./provider_form.ts";

Deno.test("every preset is a valid custom provider as it stands (with a model named)", () => {
  const ids = new Set<string>();
  for (const preset of PROVIDER_PRESETS) {
    assert.ok(!ids.has(preset.id), `duplicate preset ${preset.id}`);
    ids.add(preset.id);
    const draft = { ...applyPreset(emptyCustomDraft(), null, preset), models: "some-model" };
    const checked = customProviderParams(draft, {});
    assert.ok(checked.ok, `${preset.id}: ${JSON.stringify(checked)}`);
    const url = new URL(preset.baseUrl);
    assert.ok(url.pathname.endsWith("/v1"), `${preset.id}: the OpenAI-compatible root`);
    // Hosted services are HTTPS; only loopback servers go over plain HTTP.
    if (url.protocol === "http:") assert.equal(url.hostname, "127.0.0.1", preset.id);
    assert.equal(preset.needsKey, url.protocol === "https:", preset.id);
  }
  assert.deepEqual(
    PROVIDER_PRESETS.map((p) => p.id),
    ["openai", "openrouter", "ollama", "lmstudio", "vllm", "llamacpp"],
  );
});

Deno.test("choosing a preset fills what the user has not typed, and a second choice follows", () => {
  const ollama = presetById("ollama")!;
  const vllm = presetById("vllm")!;
  const first = applyPreset({ ...emptyCustomDraft(), apiKey: "k" }, null, ollama);
  assert.equal(first.providerId, "ollama");
  assert.equal(first.baseUrl, "http://127.0.0.1:11434/v1");
  assert.equal(first.apiKey, "k", "the key is never touched");
  const second = applyPreset(first, ollama, vllm);
  assert.equal(second.providerId, "vllm");
  assert.equal(second.displayName, "vLLM");
  assert.equal(second.baseUrl, "http://127.0.0.1:8000/v1");
  const typed = applyPreset({ ...first, baseUrl: "http://gpu-box:11434/v1" }, ollama, vllm);
  assert.equal(typed.baseUrl, "http://gpu-box:11434/v1", "a typed URL stays");
  const none = applyPreset(second, vllm, null);
  assert.deepEqual([none.providerId, none.displayName, none.baseUrl], ["", "", ""]);
  assert.equal(presetById(""), null);
  assert.equal(presetById("nope"), null);
});
