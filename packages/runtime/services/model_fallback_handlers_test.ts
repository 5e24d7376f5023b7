/**
 * Fallback settings over the `provider.*` / `model.*` handlers on a real config.yaml:
 * `model.set_fallback` and `provider.configure`'s `ModelInput.fallback` store a valid
 * fallback, refuse a broken one with `model_fallback_invalid` naming it (the file left as
 * it was), and refuse changes elsewhere that would break an existing fallback.
 */
import assert from "node:assert/strict";
import type { MethodName, ResultOf, RpcError } from "@daedalus/protocol";
import { readConfig, updateConfig } from "@daedalus/storage";
import { ProviderRegistry } from "../providers/registry.ts";
import { ProtectedValues } from "../security/protected_values.ts";
import { createProviderHandlers } from "./provider_handlers.ts";
import { handlerCalls } from "./_test_handler_calls.ts";

type ProviderMethod = Extract<MethodName, `provider.${string}` | `model.${string}`>;

interface Home {
  configPath: string;
  call<M extends ProviderMethod>(method: M, params: unknown): Promise<ResultOf<M>>;
  refuse(method: ProviderMethod, params: unknown): Promise<RpcError>;
}

async function withTwoProviders(fn: (home: Home) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-fallbacks-" });
  const configPath = `${dir}/config.yaml`;
  const initial = await readConfig(configPath);
  const registry = new ProviderRegistry(initial, {
    createProvider: (c) => ({ id: c.id, models: c.models, stream: () => ({}) as never }),
  });
  const handlers = createProviderHandlers({
    configPath,
    registry,
    protectedValues: ProtectedValues.fromConfig(initial),
  });
  const { call, refuse } = handlerCalls(handlers, () => {});
  try {
    for (const [providerId, models] of [["a", ["a1", "a2"]], ["b", ["b1"]]] as const) {
      await call("provider.configure", {
        kind: "custom",
        providerId,
        displayName: providerId.toUpperCase(),
        baseUrl: "http://127.0.0.1:9/v1",
        models: models.map((id) => ({ id })),
      });
    }
    await fn({ configPath, call, refuse });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const REFUSED: { name: string; fallback: { providerId: string; modelId: string }; says: RegExp }[] =
  [
    {
      name: "itself",
      fallback: { providerId: "a", modelId: "a1" },
      says: /a\/a1 is the model itself/,
    },
    {
      name: "an unknown provider",
      fallback: { providerId: "z", modelId: "b1" },
      says: /provider z/,
    },
    { name: "an unknown model", fallback: { providerId: "b", modelId: "zz" }, says: /model zz/ },
  ];

for (const { name, fallback, says } of REFUSED) {
  Deno.test(`model.set_fallback refuses ${name} with model_fallback_invalid; nothing changes`, async () => {
    await withTwoProviders(async ({ configPath, call, refuse }) => {
      await call("model.set_fallback", {
        providerId: "a",
        modelId: "a1",
        fallback: { providerId: "b", modelId: "b1" },
      });
      const before = await Deno.readTextFile(configPath);
      const error = await refuse("model.set_fallback", {
        providerId: "a",
        modelId: "a1",
        fallback,
      });
      assert.equal(error.data.reasonCode, "model_fallback_invalid");
      assert.equal(error.data.field, "fallback");
      assert.match(error.message, says);
      assert.equal(
        await Deno.readTextFile(configPath),
        before,
        "a refused fallback writes nothing",
      );
    });
  });
}

Deno.test("model.set_fallback stores, shows and removes a fallback; a disabled target is refused", async () => {
  await withTwoProviders(async ({ configPath, call, refuse }) => {
    const set = await call("model.set_fallback", {
      providerId: "a",
      modelId: "a1",
      fallback: { providerId: "b", modelId: "b1" },
    });
    assert.deepEqual(set.model.fallback, { providerId: "b", modelId: "b1" });
    const stored = (await readConfig(configPath)).providers.a.models.a1.fallback;
    assert.deepEqual(stored, { provider_id: "b", model_id: "b1" }, "config.yaml is snake_case");
    const listed = (await call("model.list", {})).models;
    assert.deepEqual(
      listed.map((m) => [m.providerId, m.id, m.fallback ?? null]),
      [["a", "a1", { providerId: "b", modelId: "b1" }], ["a", "a2", null], ["b", "b1", null]],
    );
    // What would break the fallback is refused, naming the model that falls back.
    const disable = await refuse("model.set_enabled", {
      providerId: "b",
      modelId: "b1",
      enabled: false,
    });
    assert.equal(disable.data.reasonCode, "model_fallback_invalid");
    assert.match(disable.message, /Model a\/a1: fallback b\/b1 is disabled/);
    const remove = await refuse("provider.remove", { providerId: "b" });
    assert.equal(remove.data.reasonCode, "model_fallback_invalid");

    const cleared = await call("model.set_fallback", {
      providerId: "a",
      modelId: "a1",
      fallback: null,
    });
    assert.equal(cleared.model.fallback, undefined, "removed: absent again");
    assert.equal((await readConfig(configPath)).providers.a.models.a1.fallback, undefined);
    await call("model.set_enabled", { providerId: "b", modelId: "b1", enabled: false });
    const toDisabled = await refuse("model.set_fallback", {
      providerId: "a",
      modelId: "a1",
      fallback: { providerId: "b", modelId: "b1" },
    });
    assert.match(toDisabled.message, /b\/b1 is disabled; enable it first/);
  });
});

Deno.test("provider.configure takes a model's fallback, keeps it when left out, and checks it", async () => {
  await withTwoProviders(async ({ configPath, call, refuse }) => {
    const configure = (models: unknown[]) => ({
      kind: "custom",
      providerId: "a",
      displayName: "A",
      baseUrl: "http://127.0.0.1:9/v1",
      models,
    });
    await call(
      "provider.configure",
      configure([
        { id: "a1", fallback: { providerId: "b", modelId: "b1" } },
        { id: "a2" },
      ]),
    );
    assert.deepEqual((await readConfig(configPath)).providers.a.models.a1.fallback, {
      provider_id: "b",
      model_id: "b1",
    });
    await call("provider.configure", configure([{ id: "a1" }, { id: "a2" }]));
    assert.deepEqual(
      (await readConfig(configPath)).providers.a.models.a1.fallback,
      { provider_id: "b", model_id: "b1" },
      "a field left out keeps its saved value, like the others",
    );
    const before = await Deno.readTextFile(configPath);
    const error = await refuse(
      "provider.configure",
      configure([{ id: "a1", fallback: { providerId: "a", modelId: "a3" } }]),
    );
    assert.equal(error.data.reasonCode, "model_fallback_invalid");
    assert.equal(await Deno.readTextFile(configPath), before);
    // Dropping the model another one falls back to breaks that fallback: refused as well.
    await call("model.set_fallback", {
      providerId: "b",
      modelId: "b1",
      fallback: { providerId: "a", modelId: "a2" },
    });
    const dropped = await refuse("provider.configure", configure([{ id: "a1" }]));
    assert.match(dropped.message, /Model b\/b1: fallback a\/a2: model a2 is not configured/);
  });
});

Deno.test("a fallback to the built-in profile lists its models in config.yaml", async () => {
  await withTwoProviders(async ({ configPath, call }) => {
    await call("provider.configure", {
      kind: "deepseek",
      apiKey: "sk-fallback-profile-0123456789",
    });
    const set = await call("model.set_fallback", {
      providerId: "a",
      modelId: "a1",
      fallback: { providerId: "deepseek", modelId: "deepseek-v4-flash" },
    });
    assert.deepEqual(set.model.fallback, { providerId: "deepseek", modelId: "deepseek-v4-flash" });
    const models = (await readConfig(configPath)).providers.deepseek.models;
    assert.equal(models["deepseek-v4-flash"]?.enabled, true);
  });
});

Deno.test("a fallback to a hand-written DeepSeek entry without models lists the profile's first", async () => {
  await withTwoProviders(async ({ configPath, call }) => {
    await updateConfig(configPath, (config) => {
      config.providers.deepseek = {
        type: "openai_compatible",
        preset: "deepseek",
        base_url: "https://api.deepseek.com/v1",
        models: {},
      };
      return config;
    });
    const set = await call("model.set_fallback", {
      providerId: "a",
      modelId: "a1",
      fallback: { providerId: "deepseek", modelId: "deepseek-v4-flash" },
    });
    assert.deepEqual(set.model.fallback, { providerId: "deepseek", modelId: "deepseek-v4-flash" });
    const models = (await readConfig(configPath)).providers.deepseek.models;
    assert.deepEqual(
      Object.entries(models).filter(([, m]) => m.enabled).map(([id]) => id),
      ["deepseek-v4-flash"],
      "the profile's models are written out, only its default enabled, as before",
    );
  });
});
