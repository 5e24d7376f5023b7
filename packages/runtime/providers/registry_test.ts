import assert from "node:assert/strict";
import { Model, Provider as ProviderSchema, RpcError } from "@daedalus/protocol";
import {
  type DaedalusConfig,
  type DaedalusConfigInput,
  DaedalusConfigSchema,
} from "@daedalus/storage";
import type { Provider } from "./provider.ts";
import { type ProviderConnection, ProviderRegistry } from "./registry.ts";
import { createScriptedProvider } from "./scripted.ts";

const KEY = "sk-registry-test-0123456789";

function config(providers: DaedalusConfigInput["providers"] = {}): DaedalusConfig {
  return DaedalusConfigSchema.parse({ version: 1, providers });
}

const deepseekOnly = () =>
  config({
    deepseek: {
      type: "openai_compatible",
      preset: "deepseek",
      base_url: "https://api.deepseek.com/v1",
      api_key: KEY,
    },
  });

const withLocal = (enabled = true) =>
  config({
    local: {
      type: "openai_compatible",
      display_name: "Local",
      base_url: "http://127.0.0.1:11434/v1",
      models: {
        "qwen3:32b": { display_name: "Qwen3 32B", context_window: 65_536 },
        "llama3:8b": { enabled },
      },
    },
  });

/** A registry whose adapters are stubs recording the connection they were made for. */
function recordingRegistry(initial: DaedalusConfig) {
  const made: ProviderConnection[] = [];
  const registry = new ProviderRegistry(initial, {
    createProvider: (connection) => {
      made.push(connection);
      const provider: Provider = {
        id: connection.id,
        models: connection.models,
        stream: () => {
          throw new Error("not used");
        },
      };
      return provider;
    },
  });
  return { registry, made };
}

function refusal(fn: () => unknown): { reasonCode: string; field: unknown; message: string } {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${error}`);
    assert.equal(error.code, -32602);
    return { reasonCode: error.reasonCode, field: error.data.field, message: error.message };
  }
  assert.fail("expected a refusal");
}

Deno.test("DeepSeek is always listed; configured and credential flags follow the config", () => {
  const { registry } = recordingRegistry(config());
  assert.deepEqual(registry.providers(), [{
    id: "deepseek",
    displayName: "DeepSeek",
    origin: "builtin",
    configured: false,
    credentialConfigured: false,
    health: "unknown",
    baseUrl: "https://api.deepseek.com/v1",
  }]);
  assert.deepEqual(registry.models(), [], "an unconfigured DeepSeek has no models");
  registry.update(deepseekOnly());
  const [deepseek] = registry.providers();
  assert.equal(deepseek.configured, true);
  assert.equal(deepseek.credentialConfigured, true);
  assert.ok(!JSON.stringify(registry.providers()).includes(KEY), "the key is never listed");
  for (const provider of registry.providers()) ProviderSchema.parse(provider);
});

Deno.test("DeepSeek configured without models gets the profile's, only Flash enabled", () => {
  const { registry } = recordingRegistry(deepseekOnly());
  const models = registry.models("deepseek");
  assert.deepEqual(
    models.map((model) => [model.id, model.enabled, model.contextWindow]),
    [
      ["deepseek-v4-flash", true, 1_000_000],
      ["deepseek-v4-pro", false, 1_000_000],
      ["deepseek-v4-flash-vision-exp", false, 1_000_000],
    ],
  );
  for (const model of models) Model.parse(model);
  assert.deepEqual(registry.provider("deepseek")?.models, ["deepseek-v4-flash"]);
});

Deno.test("custom providers and their models come from the config", () => {
  const { registry } = recordingRegistry(withLocal(false));
  const providers = registry.providers();
  assert.deepEqual(providers.map((p) => [p.id, p.origin, p.displayName, p.configured]), [
    ["deepseek", "builtin", "DeepSeek", false],
    ["local", "custom", "Local", true],
  ]);
  assert.deepEqual(registry.models(), [
    {
      providerId: "local",
      id: "qwen3:32b",
      displayName: "Qwen3 32B",
      enabled: true,
      contextWindow: 65_536,
      supportsTools: true,
      reasoningEffort: null,
      reasoningEfforts: [],
    },
    {
      providerId: "local",
      id: "llama3:8b",
      displayName: "llama3:8b",
      enabled: false,
      contextWindow: 32_768,
      supportsTools: true,
      reasoningEffort: null,
      reasoningEfforts: [],
    },
  ]);
  assert.equal(registry.providerSummary("nope"), undefined);
  assert.equal(registry.model("local", "nope"), undefined);
});

Deno.test("resolveModel names the field of an unknown provider or model, or a disabled one", () => {
  const { registry } = recordingRegistry(withLocal(false));
  assert.deepEqual(refusal(() => registry.resolveModel("deepseek", "deepseek-v4-flash")), {
    reasonCode: "model_not_configured",
    field: "providerId",
    message: "Provider deepseek is not configured",
  });
  assert.equal(refusal(() => registry.resolveModel("other", "x")).field, "providerId");
  const unknownModel = refusal(() => registry.resolveModel("local", "mistral"));
  assert.equal(unknownModel.reasonCode, "model_not_configured");
  assert.equal(unknownModel.field, "modelId");
  const disabled = refusal(() => registry.resolveModel("local", "llama3:8b"));
  assert.equal(disabled.reasonCode, "model_selection_required");
  assert.equal(disabled.field, "modelId");

  const { provider, model } = registry.resolveModel("local", "qwen3:32b");
  assert.equal(provider.id, "local");
  assert.deepEqual(model, {
    id: "qwen3:32b",
    displayName: "Qwen3 32B",
    contextWindow: 65_536,
    supportsTools: true,
    reasoningEfforts: [],
    reasoningEffort: null,
    enabled: true,
  });
});

Deno.test("adapters are made lazily, reused, and remade when the connection changes", () => {
  const { registry, made } = recordingRegistry(withLocal(false));
  assert.equal(made.length, 0, "nothing is made before first use");
  const first = registry.provider("local");
  assert.deepEqual([...made], [{
    id: "local",
    baseUrl: "http://127.0.0.1:11434/v1",
    models: ["qwen3:32b"],
  }], "only enabled models are served");
  assert.equal(registry.provider("local"), first, "reused while unchanged");
  registry.update(withLocal(false));
  assert.equal(registry.provider("local"), first, "an identical config keeps the adapter");

  registry.update(withLocal(true));
  const second = registry.provider("local");
  assert.notEqual(second, first, "enabling a model remakes the adapter");
  assert.deepEqual(second?.models, ["qwen3:32b", "llama3:8b"]);

  const keyed = withLocal(true);
  keyed.providers.local.api_key = KEY;
  keyed.providers.local.headers = { "X-Team": "alpha-team-header" };
  registry.update(keyed);
  const third = registry.provider("local");
  assert.notEqual(third, second, "a new key remakes the adapter");
  assert.equal(made.at(-1)?.apiKey, KEY);
  assert.deepEqual(made.at(-1)?.headers, { "X-Team": "alpha-team-header" });
  assert.equal(made.length, 3);

  registry.update(config());
  assert.equal(registry.provider("local"), undefined, "a removed provider is gone");
});

Deno.test("the default factory makes OpenAI-compatible adapters", () => {
  const registry = new ProviderRegistry(deepseekOnly());
  const provider = registry.provider("deepseek");
  assert.equal(provider?.id, "deepseek");
  assert.deepEqual(provider?.models, ["deepseek-v4-flash"]);
});

Deno.test("extra providers resolve ahead of the config but are not listed", () => {
  const scripted = createScriptedProvider({ script: [] });
  const registry = new ProviderRegistry(config(), { extraProviders: [scripted] });
  const { provider, model } = registry.resolveModel("scripted", "scripted-model");
  assert.equal(provider, scripted);
  assert.equal(model.contextWindow, 32_768);
  assert.equal(registry.provider("scripted"), scripted);
  assert.equal(refusal(() => registry.resolveModel("scripted", "other")).field, "modelId");
  assert.deepEqual(registry.providers().map((p) => p.id), ["deepseek"]);
});

Deno.test("user info in a base URL is not shown", () => {
  const registry = new ProviderRegistry(config({
    proxy: {
      type: "openai_compatible",
      base_url: "https://user:hunter2hunter2@proxy.example/v1",
    },
  }));
  assert.equal(registry.providerSummary("proxy")?.baseUrl, "https://proxy.example/v1");
});
